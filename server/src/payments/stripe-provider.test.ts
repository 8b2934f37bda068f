import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../db/schema/contracts';
import { mailOutbox } from '../db/schema/mail';
import { paymentCheckoutRequests, paymentEvents } from '../db/schema/payments';
import { makeOpenCheckouts } from './checkout-requests';
import * as stripe from '../test/stripe-responses';
import { centsOf } from './payment-states';
import { contractPlace, stripeSepaContractBody, type ContractPlace } from '../test/contract-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { signPayload } from './webhook';
import { bills } from '../db/schema/bookings';
import { insertTestBill } from '../test/bill-fixtures';
import { collectSentBills } from './collection';

/**
 * The Stripe provider through the official SDK against a local stand-in for api.stripe.com (the
 * SDK's host/port/protocol options), answering each call the provider makes with whole objects of
 * the API version the SDK pins (test/stripe-responses.ts, typed as the SDK's resources).
 */

interface Call {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey?: string;
  stripeVersion?: string;
}
const calls: Call[] = [];
let failing = 0;
let sessions = 0;

function answer(req: IncomingMessage, form: URLSearchParams): [number, unknown] {
  const url = new URL(req.url!, 'http://stripe.local');
  if (failing > 0) {
    failing--;
    return [500, { error: { type: 'api_error', message: 'An unknown error occurred' } }];
  }
  if (req.method === 'POST' && url.pathname === '/v1/customers') return [200, stripe.customer(form)];
  if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
    sessions++;
    return [200, stripe.checkoutSession(form, sessions === 1 ? stripe.IDS.session : `${stripe.IDS.session}${sessions}`)];
  }
  if (req.method === 'GET' && url.pathname === `/v1/setup_intents/${stripe.IDS.setupIntent}`)
    return [200, stripe.setupIntent(url.searchParams.getAll('expand[0]').includes('mandate'))];
  if (req.method === 'POST' && url.pathname === '/v1/payment_intents') return [200, stripe.paymentIntent(form)];
  return [
    404,
    {
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${req.method}: ${url.pathname}).`,
      },
    },
  ];
}

let stripeApi: Server;
let h: Harness;
let token: string;
let own: ContractPlace;

beforeAll(async () => {
  stripeApi = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(text);
      const idem = req.headers['idempotency-key'];
      const version = req.headers['stripe-version'];
      calls.push({
        method: req.method!,
        path: req.url!,
        form,
        idempotencyKey: typeof idem === 'string' ? idem : undefined,
        stripeVersion: typeof version === 'string' ? version : undefined,
      });
      const [status, body] = answer(req, form);
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': `req_${calls.length}`,
        'stripe-version': stripe.STRIPE_API_VERSION,
      });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => stripeApi.listen(0, '127.0.0.1', resolve));
  const { port } = stripeApi.address() as AddressInfo;
  h = await createHarness({
    STRIPE_SECRET_KEY: 'sk_test_51LocalStandIn',
    STRIPE_WEBHOOK_SECRET: 'whsec_local_stand_in',
    STRIPE_API_URL: `http://127.0.0.1:${port}`,
  });
  token = (await h.login('operator')).access_token;
  own = await contractPlace(h, token);
});
afterAll(async () => {
  await h?.close();
  await new Promise((resolve) => stripeApi?.close(resolve));
});

const body = () => stripeSepaContractBody(own);

/** Checkout's completion, as Stripe sends it once the customer accepted the mandate. */
const completedEvent = (id: string, key: string) =>
  JSON.stringify(
    stripe.event(id, 'checkout.session.completed', {
      ...stripe.checkoutSession(new URLSearchParams({ customer: stripe.IDS.customer, currency: 'eur', 'metadata[contractKey]': key })),
      status: 'complete',
      url: null,
    }),
  );

const post = (payload: string, signature?: string) =>
  h.request('POST', '/bff/payments/stripe/webhook', {
    raw: payload,
    headers: signature === undefined ? {} : { 'stripe-signature': signature },
  });

describe('the Stripe provider', () => {
  it('makes a customer and a setup-mode Checkout for sepa_debit, and mails its link', async () => {
    const b = body();
    const res = await h.request('POST', '/contract-management/create-contract', { body: b, token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const key = res.body.data.contractKey as string;

    // Every call in the API version the SDK pins, the one the answers are shaped for.
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((c) => c.stripeVersion))).toEqual(new Set([Stripe.API_VERSION]));

    const customerCall = calls.find((c) => c.path === '/v1/customers')!;
    expect(customerCall.form.get('email')).toBe(b.email);
    expect(customerCall.form.get('metadata[contractKey]')).toBe(key);
    expect(customerCall.idempotencyKey).toBe(`customer-${key}`);
    const sessionCall = calls.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(Object.fromEntries(sessionCall.form)).toMatchObject({
      mode: 'setup',
      currency: 'eur',
      'allowed_payment_method_types[0]': 'sepa_debit',
      customer: stripe.IDS.customer,
      success_url: `${h.env.PUBLIC_URL}/stripesepa/configure/success/{CHECKOUT_SESSION_ID}`,
      'metadata[contractKey]': key,
      'metadata[purpose]': 'configure',
    });
    const link = stripe.checkoutSession(sessionCall.form).url!;
    const mails = await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.email));
    expect(mails.find((m) => m.subject.startsWith('SEPA-Lastschriftmandat'))!.textBody).toContain(link);
    expect((await h.db.select().from(contracts).where(eq(contracts.contractKey, key)))[0].stripeCustomerId).toBe(stripe.IDS.customer);

    // The test mode's page does not exist beside Stripe.
    expect((await h.app.request(`/zahlung/testmodus?session=${stripe.IDS.session}`)).status).toBe(404);
  });

  it('applies a validly signed completion with the mandate read from Stripe, and refuses a forged or unsigned one', async () => {
    const [row] = await h.db.select().from(contracts).where(eq(contracts.stripeCustomerId, stripe.IDS.customer));
    const payload = completedEvent('evt_1SQxT3cLkdIwHu7ixCmPl', row.contractKey);
    const configured = async () =>
      (await h.db.select().from(contracts).where(eq(contracts.contractKey, row.contractKey)))[0].stripeSepaPaymentDetailsAreConfigured;

    const forged = await post(payload, signPayload('whsec_attacker', payload));
    expect([forged.status, forged.body.errorCodeResponse]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
    const unsigned = await post(payload);
    expect([unsigned.status, unsigned.body.errorCodeResponse]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
    expect(calls.some((c) => c.path.startsWith('/v1/setup_intents'))).toBe(false);
    expect(await configured()).toBe(false);
    expect(await h.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, 'evt_1SQxT3cLkdIwHu7ixCmPl'))).toHaveLength(0);

    const valid = await post(payload, signPayload('whsec_local_stand_in', payload));
    expect([valid.status, valid.body.data.result]).toEqual([200, 'applied']);
    const retrieve = calls.find((c) => c.path.startsWith('/v1/setup_intents'))!;
    expect([retrieve.method, retrieve.path]).toEqual(['GET', `/v1/setup_intents/${stripe.IDS.setupIntent}?expand[0]=mandate`]);
    const [after] = await h.db.select().from(contracts).where(eq(contracts.contractKey, row.contractKey));
    expect(after).toMatchObject({
      stripeSepaPaymentDetailsAreConfigured: true,
      contractMandateReference: stripe.IDS.mandateReference,
      contractMandateDate: '2025-11-24',
      stripePaymentMethodId: stripe.IDS.paymentMethod,
    });
    expect((await post(payload, signPayload('whsec_local_stand_in', payload))).body.data.result).toBe('duplicate');
  });

  it('collects a SENT bill as an off-session SEPA payment intent against the mandate', async () => {
    const [row] = await h.db.select().from(contracts).where(eq(contracts.stripeCustomerId, stripe.IDS.customer));
    const sent = await insertTestBill(h.db, row.contractKey, { status: 'SENT', paymentMethod: 'STRIPE_SEPA' });
    expect(await collectSentBills(h.db, h.env)).toBe(1);
    const call = calls.find((c) => c.path === '/v1/payment_intents')!;
    expect(call.idempotencyKey).toBe(`bill-${sent.billId}`);
    const [stored] = await h.db.select().from(bills).where(eq(bills.billId, sent.billId));
    expect(Object.fromEntries(call.form)).toMatchObject({
      amount: String(centsOf(stored.totalTaxedCosts)),
      currency: 'eur',
      customer: stripe.IDS.customer,
      payment_method: stripe.IDS.paymentMethod,
      confirm: 'true',
      off_session: 'true',
      'allowed_payment_method_types[0]': 'sepa_debit',
      'metadata[billId]': sent.billId,
      'metadata[billNumber]': stored.billNumber,
    });
    expect([stored.stripeSepaPaymentIntentId, stored.stripeSepaBillPaymentStatus, stored.billingStatus]).toEqual([
      stripe.IDS.paymentIntent,
      'processing',
      'SENT',
    ]);
    // Stripe's event carries the whole intent as the create call made it, now succeeded.
    const payload = JSON.stringify(
      stripe.event('evt_3SQxT5eLkdIwHu7ixPaid', 'payment_intent.succeeded', stripe.paymentIntent(call.form, 'succeeded')),
    );
    const res = await post(payload, signPayload('whsec_local_stand_in', payload));
    expect([res.status, res.body.data.result]).toEqual([200, 'applied']);
    expect((await h.db.select().from(bills).where(eq(bills.billId, sent.billId)))[0].billingStatus).toBe('PAID');
  });

  it('creates the contract when Stripe fails, and the job mails the link later with the same idempotency keys', async () => {
    const before = (await h.db.select().from(contracts)).length;
    const callsBefore = calls.length;
    failing = 3; // the first try and the SDK's two retries
    const res = await h.request('POST', '/contract-management/create-contract', { body: body(), token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await h.db.select().from(contracts)).length).toBe(before + 1);
    const key = res.body.data.contractKey as string;
    const [request] = await h.db.select().from(paymentCheckoutRequests).where(eq(paymentCheckoutRequests.contractKey, key));
    expect(request).toMatchObject({
      doneAt: null,
      claimedUntil: null,
      attempts: 1,
      lastFailure: expect.stringContaining('PAYMENT_PROVIDER_UNAVAILABLE'),
    });
    const failed = calls.slice(callsBefore);
    expect(failed.map((c) => c.idempotencyKey)).toEqual([`customer-${key}`, `customer-${key}`, `customer-${key}`]);

    const logged: string[] = [];
    expect(await makeOpenCheckouts(h.db, h.env, (m) => logged.push(m))).toBe(1);
    const session = calls.slice(callsBefore + 3).find((c) => c.path === '/v1/checkout/sessions')!;
    expect(session.idempotencyKey).toBe(`checkout-${request.requestId}`);
    const [done] = await h.db.select().from(paymentCheckoutRequests).where(eq(paymentCheckoutRequests.requestId, request.requestId));
    expect(done.doneAt).not.toBeNull();
    const [row] = await h.db.select().from(contracts).where(eq(contracts.contractKey, key));
    const mails = await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, row.email));
    expect(mails.filter((m) => m.subject.startsWith('SEPA-Lastschriftmandat'))).toHaveLength(1);
    // Done: another round asks nothing more.
    expect(await makeOpenCheckouts(h.db, h.env, (m) => logged.push(m))).toBe(0);
    expect(logged).toEqual([]);
  });
});
