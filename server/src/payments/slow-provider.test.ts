import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { mailOutbox } from '../db/schema/mail';
import { billCollections, paymentCheckoutRequests, paymentCheckouts, paymentEvents } from '../db/schema/payments';
import * as stripe from '../test/stripe-responses';
import { signPayload } from './webhook';
import { contractOf, insertTestBill } from '../test/bill-fixtures';
import { contractPlace, stripeSepaContractBody, type ContractPlace } from '../test/contract-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { startStripeStandIn, type StripeStandIn } from '../test/stripe-stand-in';
import { makeOpenCheckouts } from './checkout-requests';
import { collectSentBills } from './collection';

/**
 * Issue 34: the provider is never waited for inside a transaction. The real Stripe provider (the
 * SDK) against a local Stripe that answers after 10 s: another tenant's reads stay fast while a
 * bill is collected and a contract is created, and while Stripe holds each call the database is
 * free (the bill's row is not locked, the new contract is committed). And a call whose answer is
 * lost is asked again with the same idempotency key: one intent, one checkout, one mail.
 */

let h: Harness;
let standIn: StripeStandIn;
let operatorToken: string;
let partnerToken: string;
let own: ContractPlace;

/** Gives a contract of the operator a Stripe mandate, as a completed checkout would. */
async function stripeMandate(db: Db, contractKey: string): Promise<void> {
  const completedAt = new Date('2026-01-15T10:00:00Z');
  await db.insert(paymentCheckouts).values({
    sessionId: `cs_test_${randomUUID()}`,
    contractKey,
    purpose: 'configure',
    provider: 'stripe',
    url: 'https://checkout.stripe.com/c/pay/cs_test',
    customerId: `cus_${contractKey.slice(0, 8)}`,
    completedAt,
  });
  await db
    .update(contracts)
    .set({
      paymentMethod: 'STRIPE_SEPA',
      stripeSepaPaymentDetailsAreConfigured: true,
      stripeCustomerId: `cus_${contractKey.slice(0, 8)}`,
      stripePaymentMethodId: `pm_${contractKey.slice(0, 8)}`,
      stripeMandateCompletedAt: completedAt,
    })
    .where(eq(contracts.contractKey, contractKey));
  // The seed's bills of the contract count as collected: each test collects its own bill only.
  await db
    .update(bills)
    .set({ stripeSepaPaymentIntentId: sql`'pi_seed_' || ${bills.billId}` })
    .where(and(eq(bills.contractKey, contractKey), isNull(bills.stripeSepaPaymentIntentId)));
}

/** Within `ms`, or false: a statement that would wait for a lock (PostgreSQL) or an open transaction (PGlite) does not make it. */
const within = async (ms: number, work: () => Promise<boolean>): Promise<boolean> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
};

beforeAll(async () => {
  standIn = await startStripeStandIn();
  h = await createHarness({
    STRIPE_SECRET_KEY: 'sk_test_51LocalStandIn',
    STRIPE_WEBHOOK_SECRET: 'whsec_local_stand_in',
    STRIPE_API_URL: standIn.url,
  });
  operatorToken = (await h.login('operator')).access_token;
  partnerToken = (await h.login('partner')).access_token;
  own = await contractPlace(h, operatorToken);
});
afterAll(async () => {
  await h?.close();
  await standIn?.close();
});

const mandateMails = async (email: string) =>
  (await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).filter((m) =>
    m.subject.startsWith('SEPA-Lastschriftmandat'),
  );

describe('a Stripe that answers after 10 s', () => {
  it(
    "holds no transaction: another tenant's reads stay under 300 ms (p99) while a bill is collected and a contract created",
    { timeout: 60_000 },
    async () => {
      const contractKey = await contractOf(h.db, own.cpoId);
      await stripeMandate(h.db, contractKey);
      const sent = await insertTestBill(h.db, contractKey, {
        status: 'SENT',
        paymentMethod: 'STRIPE_SEPA',
        start: '2026-05-01',
        end: '2026-05-31',
      });

      // While Stripe holds a call: the bill's row can be written (not locked), the new contract is there (committed).
      const free: Record<string, boolean> = {};
      standIn.onCall = async (call) => {
        if (call.path === '/v1/payment_intents')
          free.bill = await within(1000, async () => {
            const [row] = await h.db
              .update(bills)
              .set({ version: sql`${bills.version}` })
              .where(eq(bills.billId, call.form.get('metadata[billId]')!))
              .returning({ id: bills.billId });
            return !!row;
          });
        if (call.path === '/v1/customers')
          free.contract = await within(1000, async () => {
            const [row] = await h.db
              .select({ key: contracts.contractKey })
              .from(contracts)
              .where(eq(contracts.contractKey, call.form.get('metadata[contractKey]')!));
            return !!row;
          });
      };
      standIn.delayMs = 10_000;

      const body = stripeSepaContractBody(own);
      let creationMs = 0;
      const work = async () => {
        const t0 = performance.now();
        const created = h.request('POST', '/contract-management/create-contract', { body, token: operatorToken }).then((res) => {
          creationMs = performance.now() - t0;
          return res;
        });
        const [collected, res] = await Promise.all([collectSentBills(h.db, h.env, { log: () => {} }), created]);
        expect(collected).toBe(1);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        // The link follows by itself once Stripe answers (customer, then checkout: 2 × 10 s).
        for (let i = 0; i < 300 && (await mandateMails(body.email)).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      };

      let done = false;
      const running = work().finally(() => (done = true));
      const times: number[] = [];
      while (!done) {
        const t0 = performance.now();
        const res = await h.app.request('/bff/cpos?page=0&size=20', { headers: { authorization: `Bearer ${partnerToken}` } });
        await res.arrayBuffer();
        expect(res.status).toBe(200);
        times.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await running;
      standIn.delayMs = 0;
      standIn.onCall = undefined;

      times.sort((a, b) => a - b);
      const p99 = times[Math.min(times.length - 1, Math.floor(times.length * 0.99))];
      expect(times.length).toBeGreaterThan(100);
      expect(p99, `p99 of ${times.length} reads`).toBeLessThan(300);
      expect(free).toEqual({ bill: true, contract: true });
      // The creating user waits a moment for the link at most, not for Stripe.
      expect(creationMs).toBeLessThan(5000);
      expect((await h.db.select().from(bills).where(eq(bills.billId, sent.billId)))[0].stripeSepaPaymentIntentId).toMatch(/^pi_standin/);
      expect(await mandateMails(body.email)).toHaveLength(1);
    },
  );
});

describe("a completed checkout's webhook", () => {
  it('asks Stripe for the mandate while no transaction is open, then applies it once', { timeout: 30_000 }, async () => {
    const res = await h.request('POST', '/contract-management/create-contract', {
      body: stripeSepaContractBody(own),
      token: operatorToken,
    });
    const key = res.body.data.contractKey as string;
    const [checkout] = await h.db.select().from(paymentCheckouts).where(eq(paymentCheckouts.contractKey, key));
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    const payload = JSON.stringify(
      stripe.event(eventId, 'checkout.session.completed', {
        ...stripe.checkoutSession(
          new URLSearchParams({ customer: checkout.customerId, currency: 'eur', 'metadata[contractKey]': key }),
          checkout.sessionId,
        ),
        status: 'complete',
        url: null,
      }),
    );
    // While Stripe holds the mandate's call, the event's row can be written and given back: no transaction holds it (nor, on PGlite, the database).
    let free: boolean | undefined;
    standIn.onCall = async (call) => {
      if (!call.path.startsWith('/v1/setup_intents/')) return;
      free = await within(1000, async () => {
        await h.db
          .transaction(async (tx) => {
            await tx.insert(paymentEvents).values({ eventId, type: 'probe', createdAt: new Date() }).onConflictDoNothing();
            throw new Error('give it back');
          })
          .catch(() => {});
        return true;
      });
    };
    try {
      const answer = await h.request('POST', '/bff/payments/stripe/webhook', {
        raw: payload,
        headers: { 'stripe-signature': signPayload('whsec_local_stand_in', payload) },
      });
      expect([answer.status, answer.body.data?.result]).toEqual([200, 'applied']);
    } finally {
      standIn.onCall = undefined;
    }
    expect(free).toBe(true);
    expect((await h.db.select().from(contracts).where(eq(contracts.contractKey, key)))[0]).toMatchObject({
      stripeSepaPaymentDetailsAreConfigured: true,
      contractMandateReference: stripe.IDS.mandateReference,
    });
    const calls = standIn.calls.length;
    const again = await h.request('POST', '/bff/payments/stripe/webhook', {
      raw: payload,
      headers: { 'stripe-signature': signPayload('whsec_local_stand_in', payload) },
    });
    expect(again.body.data.result).toBe('duplicate');
    expect(standIn.calls.length).toBe(calls);
  });
});

describe('a call whose answer is lost', () => {
  it('is asked again with the same idempotency key: one intent at Stripe, the bill collected once', { timeout: 30_000 }, async () => {
    const contractKey = await contractOf(h.db, own.cpoId);
    await stripeMandate(h.db, contractKey);
    const sent = await insertTestBill(h.db, contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-06-01',
      end: '2026-06-30',
    });
    const intentsBefore = standIn.made.get('/v1/payment_intents')?.length ?? 0;
    const callsBefore = standIn.calls.length;

    // Stripe makes the intent, then every answer is lost (the first try and the SDK's two retries).
    standIn.dropAnswers = 3;
    const logged: string[] = [];
    expect(await collectSentBills(h.db, h.env, { log: (m) => logged.push(m) })).toBe(0);
    expect(logged).toEqual([
      expect.stringMatching(new RegExp(`^collection of bill ${sent.billId} failed: .*PAYMENT_PROVIDER_UNAVAILABLE`)),
    ]);
    expect((await h.db.select().from(bills).where(eq(bills.billId, sent.billId)))[0].stripeSepaPaymentIntentId).toBeNull();
    expect(await h.db.select().from(billCollections).where(eq(billCollections.billId, sent.billId))).toEqual([
      expect.objectContaining({ idempotencyKey: `bill-${sent.billId}`, attempts: 1, claimedUntil: null, answeredAt: null }),
    ]);

    // The next round resumes with the same key; Stripe answers the intent it made.
    expect(await collectSentBills(h.db, h.env)).toBe(1);
    const made = standIn.made.get('/v1/payment_intents')!.slice(intentsBefore);
    expect(made).toHaveLength(1);
    const asked = standIn.calls.slice(callsBefore).filter((c) => c.path === '/v1/payment_intents');
    expect(asked.length).toBeGreaterThanOrEqual(2);
    expect(new Set(asked.map((c) => c.idempotencyKey))).toEqual(new Set([`bill-${sent.billId}`]));
    const [after] = await h.db.select().from(bills).where(eq(bills.billId, sent.billId));
    expect(after.stripeSepaPaymentIntentId).toBe(made[0]);
    // Collected: no round asks again.
    const n = standIn.calls.length;
    expect(await collectSentBills(h.db, h.env)).toBe(0);
    expect(standIn.calls.length).toBe(n);
  });

  it('a collection claimed by a process that died is taken again once its claim ran out; a live claim is left alone', async () => {
    const contractKey = await contractOf(h.db, own.cpoId);
    await stripeMandate(h.db, contractKey);
    const sent = await insertTestBill(h.db, contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-07-01',
      end: '2026-07-31',
    });
    // Recorded and claimed, then the process died before it asked Stripe.
    await h.db.insert(billCollections).values({
      billId: sent.billId,
      idempotencyKey: `bill-${sent.billId}`,
      attempts: 1,
      claimedUntil: sql`now() + interval '5 minutes'`,
    });
    const n = standIn.calls.length;
    expect(await collectSentBills(h.db, h.env)).toBe(0);
    expect(standIn.calls.length).toBe(n);
    await h.db
      .update(billCollections)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(billCollections.billId, sent.billId));
    expect(await collectSentBills(h.db, h.env)).toBe(1);
    expect(standIn.calls.slice(n).map((c) => c.idempotencyKey)).toEqual([`bill-${sent.billId}`]);
    expect((await h.db.select().from(billCollections).where(eq(billCollections.billId, sent.billId)))[0]).toMatchObject({ attempts: 2 });
  });

  it('a checkout link asked again makes one checkout and one mail', { timeout: 30_000 }, async () => {
    const body = stripeSepaContractBody(own);
    const sessionsBefore = standIn.made.get('/v1/checkout/sessions')?.length ?? 0;
    // The customer is made, the checkout session too, and the answers of all three tries of the session are lost.
    let dropped = false;
    standIn.onCall = (call) => {
      if (call.path !== '/v1/checkout/sessions' || dropped) return;
      dropped = true;
      standIn.dropAnswers = 3;
    };
    const res = await h.request('POST', '/contract-management/create-contract', { body, token: operatorToken });
    expect(res.status).toBe(200);
    const key = res.body.data.contractKey as string;
    const [request] = await h.db.select().from(paymentCheckoutRequests).where(eq(paymentCheckoutRequests.contractKey, key));
    for (
      let i = 0;
      i < 100 &&
      !(await h.db.select().from(paymentCheckoutRequests).where(eq(paymentCheckoutRequests.requestId, request.requestId)))[0].lastFailure;
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    standIn.onCall = undefined;
    expect(await mandateMails(body.email)).toHaveLength(0);

    expect(await makeOpenCheckouts(h.db, h.env, () => {})).toBe(1);
    expect(standIn.made.get('/v1/checkout/sessions')!.slice(sessionsBefore)).toHaveLength(1);
    expect(await mandateMails(body.email)).toHaveLength(1);
    expect(await h.db.select().from(paymentCheckouts).where(eq(paymentCheckouts.contractKey, key))).toHaveLength(1);
    expect(await makeOpenCheckouts(h.db, h.env, () => {})).toBe(0);
    expect(await mandateMails(body.email)).toHaveLength(1);
  });
});
