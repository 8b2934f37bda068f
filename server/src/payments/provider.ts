import type { Db } from '../db/client';
import type { CheckoutPurpose } from '../db/schema/payments';

/**
 * What the payments module needs of a payment provider. Two implement it: Stripe (`stripe-provider.ts`)
 * and the local test mode (`test-provider.ts`), which stands in for Stripe in the demo and the
 * tests and speaks Stripe's shapes, so everything behind this interface is written once.
 */

export interface CheckoutRequest {
  contractKey: string;
  purpose: CheckoutPurpose;
  email: string;
  name: string;
  /** The provider's customer of the contract, when one was made before (a redo reuses it). */
  customerId: string | null;
  /** Where the provider sends the customer once done; `{CHECKOUT_SESSION_ID}` is replaced by the session's id. */
  successUrl: string;
  cancelUrl: string;
  /** The provider's idempotency key: the request asked again answers the same checkout. */
  idempotencyKey?: string;
}

export interface Checkout {
  sessionId: string;
  url: string;
  customerId: string;
}

/** The mandate a completed setup checkout produced. */
export interface Mandate {
  paymentMethodId: string;
  reference: string;
  /** When the customer accepted it. */
  acceptedAt: Date;
}

/** A completed checkout session as the event carries it (Stripe's `checkout.session` object, the part we read). */
export interface CompletedSession {
  id: string;
  setupIntentId: string | null;
}

export interface PaymentIntentRequest {
  /** Cents. */
  amount: number;
  customerId: string;
  paymentMethodId: string;
  description: string;
  /** Stripe's idempotency key: a retried collection never makes a second intent. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface PaymentIntent {
  id: string;
  status: string;
}

export interface PaymentProvider {
  readonly kind: 'stripe' | 'test';
  /** The secret webhook events are signed with (Stripe's scheme, checked by `webhook.ts`). */
  readonly webhookSecret: string;
  createSetupCheckout(db: Db, request: CheckoutRequest): Promise<Checkout>;
  mandateOf(db: Db, session: CompletedSession): Promise<Mandate>;
  createPaymentIntent(db: Db, request: PaymentIntentRequest): Promise<PaymentIntent>;
  /** Test mode only: the events the provider would send later for a new intent (Stripe sends its own). */
  simulatedEvents?(intent: PaymentIntent, request: PaymentIntentRequest): object[];
}
