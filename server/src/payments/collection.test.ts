import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { paymentEvents } from '../db/schema/payments';
import { insertTestBill } from '../test/bill-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { collectSentBills } from './collection';
import { centsOf } from './payment-states';
import { testWebhookSecret } from './providers';
import { signPayload } from './webhook';

let h: Harness;
let contractKey: string;

const bill = async (billId: string) => (await h.db.select().from(bills).where(eq(bills.billId, billId)))[0]!;
const event = (id: string, type: string, object: object) =>
  JSON.stringify({ id, object: 'event', type, created: Math.floor(Date.now() / 1000), data: { object } });
const deliver = async (payload: string) => {
  const res = await h.request('POST', '/bff/payments/stripe/webhook', {
    raw: payload,
    headers: { 'stripe-signature': signPayload(testWebhookSecret(h.env), payload) },
  });
  expect(res.status).toBe(200);
  return res.body.data.result as string;
};

beforeAll(async () => {
  h = await createHarness();
  const token = (await h.login('operator')).access_token;
  const cpoId = (await h.request('GET', '/bff/cpos?page=0&size=100', { token })).body.data.response[0].cpoId as string;
  // A seeded contract with a mandate from a completed test checkout (seed/mandates.ts).
  const [configured] = await h.db
    .select({ key: contracts.contractKey })
    .from(contracts)
    .where(
      and(
        eq(contracts.cpoId, cpoId),
        eq(contracts.paymentMethod, 'STRIPE_SEPA'),
        eq(contracts.stripeSepaPaymentDetailsAreConfigured, true),
      ),
    )
    .orderBy(asc(contracts.contractKey))
    .limit(1);
  contractKey = configured.key;
  // The seed's SENT bills first, so each test counts only its own.
  while ((await collectSentBills(h.db, h.env)) > 0);
});
afterAll(() => h?.close());

describe('collection of STRIPE_SEPA bills', () => {
  it('collects a SENT bill once, and the test mode settles it as PAID', async () => {
    const generated = await insertTestBill(h.db, contractKey, { status: 'GENERATED', paymentMethod: 'STRIPE_SEPA' });
    const sent = await insertTestBill(h.db, contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-03-01',
      end: '2026-03-31',
    });
    expect(await collectSentBills(h.db, h.env)).toBe(1);
    const after = await bill(sent.billId);
    expect(after.stripeSepaPaymentIntentId).toMatch(/^pi_test_/);
    expect([after.stripeSepaBillPaymentStatus, after.billingStatus]).toEqual(['succeeded', 'PAID']);
    expect(after.billCollectionDate).not.toBeNull();
    expect((await bill(generated.billId)).stripeSepaPaymentIntentId).toBeNull();
    // A second round finds nothing: never a second debit.
    expect(await collectSentBills(h.db, h.env)).toBe(0);
    expect((await bill(sent.billId)).stripeSepaPaymentIntentId).toBe(after.stripeSepaPaymentIntentId);
  });

  it('leaves a bill whose contract has no mandate for a later round', async () => {
    const [other] = await h.db.select().from(contracts).where(eq(contracts.stripeSepaPaymentDetailsAreConfigured, false)).limit(1);
    const sent = await insertTestBill(h.db, other.contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-04-01',
      end: '2026-04-30',
    });
    await collectSentBills(h.db, h.env);
    expect((await bill(sent.billId)).stripeSepaPaymentIntentId).toBeNull();
  });

  it('applies each event once: a duplicate and late or reordered events change nothing', async () => {
    const sent = await insertTestBill(h.db, contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-05-01',
      end: '2026-05-31',
    });
    // The intent made by hand (no settlement), so the events below arrive in the order a test chooses.
    const pi = 'pi_test_reordered';
    await h.db
      .update(bills)
      .set({ stripeSepaPaymentIntentId: pi, stripeSepaBillPaymentStatus: 'processing' })
      .where(eq(bills.billId, sent.billId));

    const succeeded = event('evt_pi_ok', 'payment_intent.succeeded', { id: pi, object: 'payment_intent', status: 'succeeded' });
    expect(await deliver(succeeded)).toBe('applied');
    expect((await bill(sent.billId)).billingStatus).toBe('PAID');
    const version = (await bill(sent.billId)).version;
    expect(await deliver(succeeded)).toBe('duplicate');
    // A 'processing' delivered late does not take the bill back.
    expect(await deliver(event('evt_pi_late', 'payment_intent.processing', { id: pi, object: 'payment_intent' }))).toBe('ignored');
    expect((await bill(sent.billId)).version).toBe(version);

    // The dispute's end before its start: DISPUTED stays, the late 'created' is ignored, its copy a duplicate.
    const closed = event('evt_dp_closed', 'charge.dispute.closed', { id: 'dp_1', object: 'dispute', payment_intent: pi, status: 'lost' });
    const created = event('evt_dp_created', 'charge.dispute.created', {
      id: 'dp_1',
      object: 'dispute',
      payment_intent: pi,
      status: 'needs_response',
    });
    expect(await deliver(closed)).toBe('applied');
    expect(await deliver(created)).toBe('ignored');
    expect(await deliver(created)).toBe('duplicate');
    const after = await bill(sent.billId);
    expect([after.billingStatus, after.stripeSepaBillPaymentStatus]).toEqual(['DISPUTED', 'dispute_lost']);
    expect(await h.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_dp_created'))).toHaveLength(1);
  });

  it('moves a bill to DISPUTE_CREATED when a dispute opens, and a late success keeps it there', async () => {
    const sent = await insertTestBill(h.db, contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-06-01',
      end: '2026-06-30',
    });
    const pi = 'pi_test_disputed';
    await h.db
      .update(bills)
      .set({ stripeSepaPaymentIntentId: pi, stripeSepaBillPaymentStatus: 'processing' })
      .where(eq(bills.billId, sent.billId));
    expect(await deliver(event('evt_dp2', 'charge.dispute.created', { id: 'dp_2', payment_intent: pi, status: 'needs_response' }))).toBe(
      'applied',
    );
    expect(await deliver(event('evt_pi2', 'payment_intent.succeeded', { id: pi, status: 'succeeded' }))).toBe('ignored');
    expect((await bill(sent.billId)).billingStatus).toBe('DISPUTE_CREATED');
  });

  it('refuses an event that outruns its intent without keeping it, and applies it once when delivered again', async () => {
    const sent = await insertTestBill(h.db, contractKey, {
      status: 'SENT',
      paymentMethod: 'STRIPE_SEPA',
      start: '2026-07-01',
      end: '2026-07-31',
    });
    const pi = 'pi_test_early';
    // Stripe's quick 'payment_failed' after confirm, before the collecting transaction stored the intent.
    const failed = event('evt_pi_early', 'payment_intent.payment_failed', {
      id: pi,
      object: 'payment_intent',
      status: 'requires_payment_method',
      metadata: { billId: sent.billId, billNumber: sent.billNumber, contractKey },
    });
    const signed = { raw: failed, headers: { 'stripe-signature': signPayload(testWebhookSecret(h.env), failed) } };
    const early = await h.request('POST', '/bff/payments/stripe/webhook', signed);
    // A non-2xx answer, so the provider delivers it again; its id is not kept, the bill unchanged.
    expect([early.status, early.body.errorCodeResponse]).toEqual([409, 'PAYMENT_EVENT_TOO_EARLY']);
    expect(await h.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_pi_early'))).toHaveLength(0);
    expect((await bill(sent.billId)).billingStatus).toBe('SENT');

    // The collection commits (as collection.ts stores it), then the provider's retry comes.
    await h.db
      .update(bills)
      .set({ stripeSepaPaymentIntentId: pi, stripeSepaBillPaymentStatus: 'processing' })
      .where(eq(bills.billId, sent.billId));
    expect(await deliver(failed)).toBe('applied');
    const after = await bill(sent.billId);
    expect([after.billingStatus, after.stripeSepaBillPaymentStatus]).toEqual(['UNPAID', 'payment_failed']);
    expect(await deliver(failed)).toBe('duplicate');
    expect((await bill(sent.billId)).version).toBe(after.version);
  });

  it('keeps and ignores an event of an intent that is not one of our bills', async () => {
    const foreign = event('evt_pi_foreign', 'payment_intent.succeeded', {
      id: 'pi_test_foreign',
      object: 'payment_intent',
      status: 'succeeded',
      metadata: { billId: 'no-such-bill' },
    });
    expect(await deliver(foreign)).toBe('ignored');
    const bare = event('evt_pi_bare', 'payment_intent.succeeded', { id: 'pi_test_bare', object: 'payment_intent', metadata: {} });
    expect(await deliver(bare)).toBe('ignored');
    expect(await deliver(foreign)).toBe('duplicate');
  });

  it('turns stored euros into cents exactly', () => {
    expect(centsOf('12.34')).toBe(1234);
    expect(centsOf('0.10')).toBe(10);
    expect(centsOf('1234567.8')).toBe(123456780);
    expect(centsOf('7')).toBe(700);
    expect(centsOf('-1.05')).toBe(-105);
  });
});
