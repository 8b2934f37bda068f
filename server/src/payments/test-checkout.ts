import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts } from '../db/schema/contracts';
import { operators } from '../db/schema/operators';
import { paymentCheckouts } from '../db/schema/payments';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { paymentProvider } from './providers';
import { checkForm, checkoutPage, type CheckoutForm, type Lang } from './test-checkout-page';
import { testId, TEST_CHECKOUT_PATH } from './test-provider';
import { receiveEvent, signPayload } from './webhook';

const notFound = () => new ApiError(404, 'CHECKOUT_NOT_FOUND', 'No such checkout link');

/** A mandate reference as Stripe makes them: 16 of A-Z and 0-9 (SEPA allows up to 35). */
function mandateReference(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(16)].map((b) => alphabet[b % alphabet.length]).join('');
}

/** The test-mode checkout of a link, with the contract's number and creditor (the operator); only in test mode. */
async function openCheckout(db: Db, env: Env, sessionId: string, lock: boolean) {
  if (paymentProvider(env).kind !== 'test') throw notFound();
  const base = db
    .select({ checkout: paymentCheckouts, contractNumber: contracts.contractNumber, creditor: operators.cpoName })
    .from(paymentCheckouts)
    .innerJoin(contracts, eq(contracts.contractKey, paymentCheckouts.contractKey))
    .innerJoin(operators, eq(operators.cpoId, contracts.cpoId))
    .where(eq(paymentCheckouts.sessionId, sessionId));
  const [row] = lock ? await base.for('update', { of: paymentCheckouts }) : await base;
  if (!row || row.checkout.provider !== 'test') throw notFound();
  return row;
}

/** On this server's own origin, whichever the customer opened the link on (PUBLIC_URL may name another in front). */
const successUrl = (purpose: string, sessionId: string) => `/stripesepa/${purpose}/success/${encodeURIComponent(sessionId)}`;

export type CheckoutAnswer = { redirect: string } | { html: string };

/** The page of a link; a completed one goes on to its success page, as Stripe's does. */
export async function showTestCheckout(db: Db, env: Env, sessionId: string, lang: Lang): Promise<CheckoutAnswer> {
  const row = await openCheckout(db, env, sessionId, false);
  if (row.checkout.completedAt) return { redirect: successUrl(row.checkout.purpose, sessionId) };
  const form = { accountHolder: '', iban: '', accept: false };
  return {
    html: checkoutPage({
      lang,
      action: `${TEST_CHECKOUT_PATH}?session=${encodeURIComponent(sessionId)}`,
      creditor: row.creditor,
      contractNumber: row.contractNumber,
      form,
      errors: {},
    }),
  };
}

/**
 * The customer sent the form: with a mistake the page again with what was entered; otherwise the
 * mandate is kept on the checkout and Stripe's `checkout.session.completed` is raised, signed,
 * through `receiveEvent`, the webhook route's own code, before the customer goes on to the success page.
 */
export async function completeTestCheckout(
  db: Db,
  env: Env,
  sessionId: string,
  form: CheckoutForm,
  lang: Lang,
  /** When the customer accepted: now, but the demo seed's mandates were given when their contracts began. */
  now = new Date(),
): Promise<CheckoutAnswer> {
  const row = await openCheckout(db, env, sessionId, true);
  const { checkout } = row;
  if (checkout.completedAt) return { redirect: successUrl(checkout.purpose, sessionId) };
  const { errors, iban } = checkForm(form);
  if (Object.keys(errors).length > 0) {
    const action = `${TEST_CHECKOUT_PATH}?session=${encodeURIComponent(sessionId)}`;
    return { html: checkoutPage({ lang, action, creditor: row.creditor, contractNumber: row.contractNumber, form, errors }) };
  }
  await db
    .update(paymentCheckouts)
    .set({
      completedAt: now,
      accountHolder: form.accountHolder.trim(),
      ibanLast4: iban.slice(-4),
      paymentMethodId: testId('pm'),
      mandateReference: mandateReference(),
    })
    .where(eq(paymentCheckouts.sessionId, sessionId));
  const event = {
    id: testId('evt'),
    object: 'event',
    type: 'checkout.session.completed',
    created: Math.floor(now.getTime() / 1000),
    livemode: false,
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'setup',
        status: 'complete',
        customer: checkout.customerId,
        setup_intent: testId('seti'),
        metadata: { contractKey: checkout.contractKey, purpose: checkout.purpose },
      },
    },
  };
  const payload = JSON.stringify(event);
  await receiveEvent(db, env, payload, signPayload(paymentProvider(env).webhookSecret, payload));
  return { redirect: successUrl(checkout.purpose, sessionId) };
}
