import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../db/schema/contracts';
import { mailOutbox } from '../db/schema/mail';
import { contractPlace, stripeSepaContractBody, type ContractPlace } from '../test/contract-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { signPayload } from './webhook';
import { bills } from '../db/schema/bookings';
import { insertTestBill } from '../test/bill-fixtures';
import { collectSentBills } from './collection';

/**
 * The Stripe provider through the official SDK against a local stand-in for api.stripe.com (the
 * SDK's host/port/protocol options), answering with Stripe's recorded shapes (API 2025 objects,
 * trimmed to the fields the SDK and this module read).
 */

interface Call {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey?: string;
}
const calls: Call[] = [];
let failing = 0;
let sessions = 0;

const customer = { id: 'cus_QxT3abcDEF', object: 'customer', email: 'x@example.de', livemode: false, metadata: {} };
const session = {
  id: 'cs_test_a1B2c3D4',
  object: 'checkout.session',
  mode: 'setup',
  status: 'open',
  currency: 'eur',
  customer: customer.id,
  livemode: false,
  setup_intent: 'seti_1QxT3aLkdIwHu7ix',
  url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3D4#fidkdWxOYHwnPyd1blpxYHZxWjA0',
  success_url: '',
  metadata: {},
};
const setupIntent = {
  id: 'seti_1QxT3aLkdIwHu7ix',
  object: 'setup_intent',
  status: 'succeeded',
  usage: 'off_session',
  customer: customer.id,
  payment_method: 'pm_1QxT3bLkdIwHu7ixSEPA',
  payment_method_types: ['sepa_debit'],
  livemode: false,
  mandate: {
    id: 'mandate_1QxT3bLkdIwHu7ix',
    object: 'mandate',
    status: 'active',
    type: 'multi_use',
    payment_method: 'pm_1QxT3bLkdIwHu7ixSEPA',
    customer_acceptance: { type: 'online', accepted_at: 1_764_000_000, online: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0' } },
    payment_method_details: {
      type: 'sepa_debit',
      sepa_debit: { reference: 'K7XQ2WZ9P3M8R1TV', url: 'https://payments.stripe.com/sepa_debit/mandate/x' },
    },
    livemode: false,
  },
};

function answer(req: IncomingMessage, form: URLSearchParams): [number, unknown] {
  const path = req.url!.split('?')[0];
  if (failing > 0) {
    failing--;
    return [500, { error: { type: 'api_error', message: 'An unknown error occurred' } }];
  }
  if (req.method === 'POST' && path === '/v1/customers') return [200, { ...customer, email: form.get('email') }];
  if (req.method === 'POST' && path === '/v1/checkout/sessions') {
    sessions++;
    const id = sessions === 1 ? session.id : `${session.id}${sessions}`;
    return [200, { ...session, id, success_url: form.get('success_url') }];
  }
  if (req.method === 'GET' && path === `/v1/setup_intents/${setupIntent.id}`) return [200, setupIntent];
  if (req.method === 'POST' && path === '/v1/payment_intents') {
    return [
      200,
      {
        id: 'pi_3QxT4dLkdIwHu7ix0',
        object: 'payment_intent',
        amount: Number(form.get('amount')),
        currency: 'eur',
        customer: form.get('customer'),
        payment_method: form.get('payment_method'),
        payment_method_types: ['sepa_debit'],
        status: 'processing',
        livemode: false,
        metadata: {},
      },
    ];
  }
  return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } }];
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
      calls.push({ method: req.method!, path: req.url!, form, idempotencyKey: typeof idem === 'string' ? idem : undefined });
      const [status, body] = answer(req, form);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${calls.length}` });
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

const completedEvent = (id: string) =>
  JSON.stringify({
    id,
    object: 'event',
    api_version: '2025-10-29.clover',
    type: 'checkout.session.completed',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { ...session, status: 'complete' } },
  });

describe('the Stripe provider', () => {
  it('makes a customer and a setup-mode Checkout for sepa_debit, and mails its link', async () => {
    const b = body();
    const res = await h.request('POST', '/contract-management/create-contract', { body: b, token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const key = res.body.data.contractKey as string;

    const customerCall = calls.find((c) => c.path === '/v1/customers')!;
    expect(customerCall.form.get('email')).toBe(b.email);
    expect(customerCall.form.get('metadata[contractKey]')).toBe(key);
    expect(customerCall.idempotencyKey).toBe(`customer-${key}`);
    const sessionCall = calls.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(Object.fromEntries(sessionCall.form)).toMatchObject({
      mode: 'setup',
      currency: 'eur',
      'allowed_payment_method_types[0]': 'sepa_debit',
      customer: customer.id,
      success_url: `${h.env.PUBLIC_URL}/stripesepa/configure/success/{CHECKOUT_SESSION_ID}`,
      'metadata[contractKey]': key,
      'metadata[purpose]': 'configure',
    });
    const mails = await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.email));
    expect(mails.find((m) => m.subject.startsWith('SEPA-Lastschriftmandat'))!.textBody).toContain(session.url);
    expect((await h.db.select().from(contracts).where(eq(contracts.contractKey, key)))[0].stripeCustomerId).toBe(customer.id);

    // The test mode's page does not exist beside Stripe.
    expect((await h.app.request('/zahlung/testmodus?session=cs_test_a1B2c3D4')).status).toBe(404);
  });

  it('applies a validly signed completion with the mandate read from Stripe, and refuses a forged one', async () => {
    const [row] = await h.db.select().from(contracts).where(eq(contracts.stripeCustomerId, customer.id));
    const payload = completedEvent('evt_1QxT3cLkdIwHu7ix');
    const send = (signature: string) =>
      h.request('POST', '/bff/payments/stripe/webhook', { raw: payload, headers: { 'stripe-signature': signature } });

    const forged = await send(signPayload('whsec_attacker', payload));
    expect([forged.status, forged.body.errorCodeResponse]).toEqual([400, 'WEBHOOK_SIGNATURE_INVALID']);
    expect(calls.some((c) => c.path.startsWith('/v1/setup_intents'))).toBe(false);
    expect(
      (await h.db.select().from(contracts).where(eq(contracts.contractKey, row.contractKey)))[0].stripeSepaPaymentDetailsAreConfigured,
    ).toBe(false);

    const valid = await send(signPayload('whsec_local_stand_in', payload));
    expect([valid.status, valid.body.data.result]).toEqual([200, 'applied']);
    expect(calls.find((c) => c.path.startsWith('/v1/setup_intents'))!.path).toContain('expand[0]=mandate');
    const [after] = await h.db.select().from(contracts).where(eq(contracts.contractKey, row.contractKey));
    expect(after).toMatchObject({
      stripeSepaPaymentDetailsAreConfigured: true,
      contractMandateReference: 'K7XQ2WZ9P3M8R1TV',
      contractMandateDate: '2025-11-24',
      stripePaymentMethodId: 'pm_1QxT3bLkdIwHu7ixSEPA',
    });
  });

  it('collects a SENT bill as an off-session SEPA payment intent against the mandate', async () => {
    const [row] = await h.db.select().from(contracts).where(eq(contracts.stripeCustomerId, customer.id));
    const sent = await insertTestBill(h.db, row.contractKey, { status: 'SENT', paymentMethod: 'STRIPE_SEPA' });
    expect(await collectSentBills(h.db, h.env)).toBe(1);
    const call = calls.find((c) => c.path === '/v1/payment_intents')!;
    expect(call.idempotencyKey).toBe(`bill-${sent.billId}`);
    const [stored] = await h.db.select().from(bills).where(eq(bills.billId, sent.billId));
    expect(Object.fromEntries(call.form)).toMatchObject({
      amount: String(Math.round(Number(stored.totalTaxedCosts) * 100)),
      currency: 'eur',
      customer: customer.id,
      payment_method: setupIntent.payment_method,
      confirm: 'true',
      off_session: 'true',
      'allowed_payment_method_types[0]': 'sepa_debit',
      'metadata[billNumber]': stored.billNumber,
    });
    expect([stored.stripeSepaPaymentIntentId, stored.stripeSepaBillPaymentStatus, stored.billingStatus]).toEqual([
      'pi_3QxT4dLkdIwHu7ix0',
      'processing',
      'SENT',
    ]);
    const payload = JSON.stringify({
      id: 'evt_3QxT5eLkdIwHu7ix',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: 'pi_3QxT4dLkdIwHu7ix0', object: 'payment_intent', status: 'succeeded' } },
    });
    const res = await h.request('POST', '/bff/payments/stripe/webhook', {
      raw: payload,
      headers: { 'stripe-signature': signPayload('whsec_local_stand_in', payload) },
    });
    expect(res.status).toBe(200);
    expect((await h.db.select().from(bills).where(eq(bills.billId, sent.billId)))[0].billingStatus).toBe('PAID');
  });

  it('answers 503 when Stripe fails, and the contract is not created', async () => {
    const before = (await h.db.select().from(contracts)).length;
    failing = 3; // the first try and the SDK's two retries
    const res = await h.request('POST', '/contract-management/create-contract', { body: body(), token });
    expect([res.status, res.body.errorCodeResponse]).toEqual([503, 'PAYMENT_PROVIDER_UNAVAILABLE']);
    expect((await h.db.select().from(contracts)).length).toBe(before);
  });
});
