import Stripe from 'stripe';
import type { Db } from '../db/client';
import type {
  Checkout,
  CheckoutRequest,
  CompletedSession,
  Mandate,
  PaymentIntent,
  PaymentIntentRequest,
  PaymentProvider,
} from './provider';
import { ApiError } from '../http/errors';

/** Where the SDK sends its calls; only tests point it elsewhere (a local server with Stripe's answers). */
export interface StripeEndpoint {
  host: string;
  port: number;
  protocol: 'http' | 'https';
}

/** Stripe's answer was not what a completed SEPA setup gives: a 503 of ours, never a half-applied mandate. */
const unexpected = (what: string) => new ApiError(503, 'PAYMENT_PROVIDER_UNAVAILABLE', `Stripe answered without ${what}`);

/** Stripe's own refusals and lost connections: never a 500 (the caller asks again later with the same idempotency key). */
async function call<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(503, 'PAYMENT_PROVIDER_UNAVAILABLE', `Stripe: ${what} failed`, undefined, undefined, { 'Retry-After': '60' });
  }
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? null));

/**
 * The Stripe provider: Checkout in setup mode for `sepa_debit` makes the mandate, its customer and
 * payment method are kept on the contract, and bills are collected as off-session payment intents
 * against that payment method.
 */
export function stripeProvider(secretKey: string, webhookSecret: string, endpoint?: StripeEndpoint): PaymentProvider {
  const stripe = new Stripe(secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    ...(endpoint ? { host: endpoint.host, port: endpoint.port, protocol: endpoint.protocol } : {}),
  });

  return {
    kind: 'stripe',
    webhookSecret,

    createSetupCheckout: (_db: Db, r: CheckoutRequest): Promise<Checkout> =>
      call('checkout', async () => {
        const customerId =
          r.customerId ??
          (
            await stripe.customers.create(
              { email: r.email, name: r.name, metadata: { contractKey: r.contractKey } },
              { idempotencyKey: `customer-${r.contractKey}` },
            )
          ).id;
        const metadata = { contractKey: r.contractKey, purpose: r.purpose };
        const session = await stripe.checkout.sessions.create(
          {
            mode: 'setup',
            currency: 'eur',
            allowed_payment_method_types: ['sepa_debit'],
            customer: customerId,
            success_url: r.successUrl,
            cancel_url: r.cancelUrl,
            metadata,
            setup_intent_data: { metadata },
          },
          r.idempotencyKey ? { idempotencyKey: r.idempotencyKey } : undefined,
        );
        if (!session.url) throw unexpected('a checkout link');
        return { sessionId: session.id, url: session.url, customerId };
      }),

    mandateOf: (_db: Db, session: CompletedSession): Promise<Mandate> =>
      call('mandate', async () => {
        if (!session.setupIntentId) throw unexpected('a setup intent');
        const intent = await stripe.setupIntents.retrieve(session.setupIntentId, { expand: ['mandate'] });
        const mandate = typeof intent.mandate === 'object' ? intent.mandate : null;
        const paymentMethodId = idOf(intent.payment_method);
        const reference = mandate?.payment_method_details.sepa_debit?.reference;
        if (!mandate || !paymentMethodId || !reference) throw unexpected('a SEPA mandate');
        return { paymentMethodId, reference, acceptedAt: new Date(mandate.customer_acceptance.accepted_at! * 1000) };
      }),

    createPaymentIntent: (_db: Db, r: PaymentIntentRequest): Promise<PaymentIntent> =>
      call('payment intent', async () => {
        const intent = await stripe.paymentIntents.create(
          {
            amount: r.amount,
            currency: 'eur',
            customer: r.customerId,
            payment_method: r.paymentMethodId,
            allowed_payment_method_types: ['sepa_debit'],
            confirm: true,
            off_session: true,
            description: r.description,
            metadata: r.metadata,
          },
          { idempotencyKey: r.idempotencyKey },
        );
        return { id: intent.id, status: intent.status };
      }),
  };
}
