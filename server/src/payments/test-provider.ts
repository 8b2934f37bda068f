import { createHmac, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentCheckouts } from '../db/schema/payments';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import type {
  Checkout,
  CheckoutRequest,
  CompletedSession,
  Mandate,
  PaymentIntent,
  PaymentIntentRequest,
  PaymentProvider,
} from './provider';

/** Stripe-like ids (`cs_test_…`), unguessable: a checkout link is all a customer needs to set a mandate. */
export const testId = (prefix: string) => `${prefix}_test_${randomBytes(18).toString('base64url')}`;

/** The id for an idempotency key, as Stripe answers a call asked again: unguessable without the secret, the same for the same key. */
const keyedId = (secret: string, prefix: string, key: string | undefined) =>
  key ? `${prefix}_test_${createHmac('sha256', secret).update(`${prefix}:${key}`).digest('base64url').slice(0, 24)}` : testId(prefix);

/** Where the test mode's own checkout page is (routes.ts). */
export const TEST_CHECKOUT_PATH = '/zahlung/testmodus';

/**
 * The local test mode: a stand-in for Stripe for the demo and the tests, with no network. Its
 * checkout page (`test-checkout-page.ts`) takes the account holder and IBAN and the accepted
 * mandate, keeps them on the checkout row, and raises Stripe's events, signed as Stripe signs
 * them, through the same webhook code (`webhook.ts`).
 */
export function testProvider(env: Pick<Env, 'PUBLIC_URL'>, webhookSecret: string): PaymentProvider {
  return {
    kind: 'test',
    webhookSecret,

    createSetupCheckout(_db: Db, r: CheckoutRequest): Promise<Checkout> {
      const sessionId = keyedId(webhookSecret, 'cs', r.idempotencyKey);
      return Promise.resolve({
        sessionId,
        url: `${env.PUBLIC_URL}${TEST_CHECKOUT_PATH}?session=${sessionId}`,
        customerId: r.customerId ?? keyedId(webhookSecret, 'cus', r.idempotencyKey && `customer-${r.contractKey}`),
      });
    },

    async mandateOf(db: Db, session: CompletedSession): Promise<Mandate> {
      const [row] = await db.select().from(paymentCheckouts).where(eq(paymentCheckouts.sessionId, session.id));
      if (!row?.completedAt || !row.paymentMethodId || !row.mandateReference) {
        throw new ApiError(404, 'CHECKOUT_NOT_FOUND', 'No completed test checkout for this event');
      }
      return { paymentMethodId: row.paymentMethodId, reference: row.mandateReference, acceptedAt: row.completedAt };
    },

    createPaymentIntent(_db: Db, r: PaymentIntentRequest): Promise<PaymentIntent> {
      // SEPA debits take days at Stripe: the intent starts 'processing'; the test mode's events settle it.
      return Promise.resolve({ id: keyedId(webhookSecret, 'pi', r.idempotencyKey), status: 'processing' });
    },

    // The debit succeeds at once; a dispute is raised by hand in tests (webhook events signed with this secret).
    simulatedEvents: (intent: PaymentIntent, request: PaymentIntentRequest) => [
      {
        id: testId('evt'),
        object: 'event',
        type: 'payment_intent.succeeded',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object: { id: intent.id, object: 'payment_intent', status: 'succeeded', metadata: request.metadata } },
      },
    ],
  };
}
