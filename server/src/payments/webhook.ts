import Stripe from 'stripe';
import * as z from 'zod/mini';
import type { Db } from '../db/client';
import { eq } from 'drizzle-orm';
import { paymentCheckouts, paymentEvents } from '../db/schema/payments';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { applyCompletedCheckout } from './mandates';
import { applyPaymentState, type PaymentState } from './payment-states';
import type { CompletedSession, Mandate } from './provider';
import { paymentProvider } from './providers';

/** The part of a Stripe event this module reads; anything else of it is left alone. */
const eventSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(255)),
  type: z.string().check(z.maxLength(255)),
  created: z.int().check(z.positive()),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
export type ProviderEvent = z.infer<typeof eventSchema>;

const sessionSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(255)),
  mode: z.string(),
  setup_intent: z.nullable(z.optional(z.union([z.string(), z.object({ id: z.string() })]))),
});

const refused = (why: string) => new ApiError(400, 'WEBHOOK_SIGNATURE_INVALID', why);

/** Stripe's tolerance, both ways: the SDK refuses a signature older than this but takes one dated any time ahead. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header, in seconds; NaN when it has none or several. */
function signedAt(signature: string): number {
  const stamps = signature.split(',').filter((part) => part.trim().startsWith('t='));
  return stamps.length === 1 && /^t=\d{1,12}$/.test(stamps[0].trim()) ? Number(stamps[0].trim().slice(2)) : NaN;
}

/**
 * Checks a webhook's `Stripe-Signature` with the endpoint secret (Stripe's scheme, by the SDK, for
 * both providers: the test mode signs its events the same way) and reads the event. A missing,
 * forged or stale signature, or one dated more than 5 minutes ahead, is refused before anything is
 * read or written.
 */
export function verifiedEvent(secret: string, payload: string, signature: string | undefined): ProviderEvent {
  if (!signature) throw refused('Stripe-Signature header missing');
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(payload, signature, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch {
    throw refused('Webhook signature does not verify');
  }
  // A signed timestamp ahead of our clock by more than the tolerance: a signature made for later (a
  // stolen secret's, replayable until then) or a clock far off, refused as a stale one is.
  const skew = signedAt(signature) - Date.now() / 1000;
  if (!(skew <= WEBHOOK_TOLERANCE_SECONDS)) throw refused('Webhook signature is dated outside the tolerance');
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) throw new ApiError(400, 'VALIDATION_ERROR', 'Not a Stripe event');
  return parsed.data;
}

/** Signs a payload as Stripe does (`t=…,v1=…`): the test mode's events, and tests. */
export const signPayload = (secret: string, payload: string, timestamp?: number) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });

/**
 * Applies one provider event once: its id is kept, so a second delivery answers 'duplicate' and
 * changes nothing. Events of a kind this module does not handle are kept too (and ignored). An
 * event of one of our intents that its bill does not hold yet is refused with 409
 * PAYMENT_EVENT_TOO_EARLY (payment-states.ts) and, the caller's transaction rolling back, its id
 * is not kept: Stripe redelivers a non-2xx answer, so the event is applied then, once.
 */
export async function receiveEvent(
  db: Db,
  env: Env,
  payload: string,
  signature: string | undefined,
  facts: ProviderFacts = {},
): Promise<'applied' | 'duplicate' | 'ignored'> {
  const event = verifiedEvent(paymentProvider(env).webhookSecret, payload, signature);
  return applyOnce(db, env, event, facts);
}

async function applyOnce(db: Db, env: Env, event: ProviderEvent, facts: ProviderFacts): Promise<'applied' | 'duplicate' | 'ignored'> {
  const [fresh] = await db
    .insert(paymentEvents)
    .values({ eventId: event.id, type: event.type, createdAt: new Date(event.created * 1000) })
    .onConflictDoNothing()
    .returning({ eventId: paymentEvents.eventId });
  if (!fresh) return 'duplicate';
  return (await applyEvent(db, env, event, facts)) ? 'applied' : 'ignored';
}

/** What an event needs of the provider, asked before the transaction opens: a completed checkout's mandate. */
interface ProviderFacts {
  mandate?: Mandate;
}

function completedSessionOf(event: ProviderEvent): CompletedSession | null {
  if (event.type !== 'checkout.session.completed') return null;
  const session = sessionSchema.safeParse(event.data.object);
  if (!session.success || session.data.mode !== 'setup') return null;
  const si = session.data.setup_intent;
  return { id: session.data.id, setupIntentId: typeof si === 'string' ? si : (si?.id ?? null) };
}

/**
 * The webhook route's way (no transaction of the route's own): the signature checked, what the
 * event needs of the provider asked while no transaction is open (a completed checkout's mandate,
 * one call to Stripe), then the event applied once in a short transaction. A duplicate or a
 * session not ours asks the provider nothing.
 */
export async function receiveWebhook(
  db: Db,
  env: Env,
  payload: string,
  signature: string | undefined,
): Promise<'applied' | 'duplicate' | 'ignored'> {
  const event = verifiedEvent(paymentProvider(env).webhookSecret, payload, signature);
  const facts: ProviderFacts = {};
  const session = completedSessionOf(event);
  if (session) {
    const [seen] = await db.select({ id: paymentEvents.eventId }).from(paymentEvents).where(eq(paymentEvents.eventId, event.id));
    if (seen) return 'duplicate';
    const [ours] = await db
      .select({ id: paymentCheckouts.sessionId })
      .from(paymentCheckouts)
      .where(eq(paymentCheckouts.sessionId, session.id));
    if (ours) facts.mandate = await paymentProvider(env).mandateOf(db, session);
  }
  return db.transaction((tx) => applyOnce(tx, env, event, facts));
}

const intentStates: Record<string, PaymentState> = {
  'payment_intent.processing': 'processing',
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'payment_failed',
  'payment_intent.canceled': 'canceled',
};
const intentSchema = z.object({
  id: z.string().check(z.minLength(1), z.maxLength(255)),
  metadata: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
});
const disputeSchema = z.object({
  payment_intent: z.nullable(z.optional(z.string().check(z.maxLength(255)))),
  status: z.optional(z.string()),
});

/** A dispute's state from `charge.dispute.*`: opened, or closed won or lost (other closings change nothing). */
function disputeState(type: string, status: string | undefined): PaymentState | null {
  if (type === 'charge.dispute.created') return 'dispute_created';
  if (type === 'charge.dispute.closed' && status === 'won') return 'dispute_won';
  if (type === 'charge.dispute.closed' && status === 'lost') return 'dispute_lost';
  return null;
}

async function applyEvent(db: Db, env: Env, event: ProviderEvent, facts: ProviderFacts): Promise<boolean> {
  const intentState = intentStates[event.type];
  if (intentState) {
    const intent = intentSchema.safeParse(event.data.object);
    if (!intent.success) return false;
    const billId = intent.data.metadata?.billId;
    return applyPaymentState(
      db,
      { id: intent.data.id, billId: typeof billId === 'string' && billId.length <= 255 && !billId.includes('\u0000') ? billId : undefined },
      intentState,
    );
  }
  if (event.type.startsWith('charge.dispute.')) {
    const dispute = disputeSchema.safeParse(event.data.object);
    const state = dispute.success ? disputeState(event.type, dispute.data.status) : null;
    return !!state && !!dispute.data?.payment_intent && applyPaymentState(db, { id: dispute.data.payment_intent }, state);
  }
  const session = completedSessionOf(event);
  if (session) return applyCompletedCheckout(db, env, session, facts.mandate);
  return false;
}
