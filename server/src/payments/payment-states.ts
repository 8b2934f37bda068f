import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { ApiError } from '../http/errors';

/** A bill's payment state as the provider's events report it, in the order they may follow each other. */
export const paymentStates = {
  requires_action: 0,
  requires_confirmation: 0,
  requires_payment_method: 0,
  processing: 1,
  succeeded: 2,
  payment_failed: 2,
  canceled: 2,
  dispute_created: 3,
  dispute_won: 4,
  dispute_lost: 4,
} as const;
export type PaymentState = keyof typeof paymentStates;

/** The bill status each payment state gives (spec 3 §3: PAID, UNPAID, DISPUTE_CREATED, DISPUTED); processing leaves it SENT. */
const billStatusOf: Partial<Record<PaymentState, 'PAID' | 'UNPAID' | 'DISPUTE_CREATED' | 'DISPUTED'>> = {
  succeeded: 'PAID',
  payment_failed: 'UNPAID',
  canceled: 'UNPAID',
  dispute_created: 'DISPUTE_CREATED',
  dispute_won: 'PAID',
  dispute_lost: 'DISPUTED',
};

const rank = (state: string | null) => (state && state in paymentStates ? paymentStates[state as PaymentState] : -1);

/** Euros as stored (numeric, 2 decimals) to cents, exactly. */
export function centsOf(amount: string): number {
  const [whole, fraction = ''] = amount.split('.');
  const sign = whole!.startsWith('-') ? -1 : 1;
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2)));
}

/** The payment intent an event names: its id, and the bill its metadata names (our intents carry it; disputes do not). */
export interface EventIntent {
  id: string;
  billId?: string | undefined;
}

/**
 * The bill of an event's intent, locked. An intent of ours the bill does not hold yet is refused
 * with 409 PAYMENT_EVENT_TOO_EARLY: Stripe sends `payment_intent.processing` (or a quick
 * `payment_failed`) right after the intent is made, while the collecting transaction
 * (collection.ts) may still hold the bill. Locking the bill by the id in the intent's metadata
 * waits for that transaction; when it committed, the intent is found, and when it rolled back (or
 * has not started), nothing is recorded and the provider's retry brings the event again.
 */
async function billOf(db: Db, intent: EventIntent) {
  const [byIntent] = await db.select().from(bills).where(eq(bills.stripeSepaPaymentIntentId, intent.id)).for('update');
  if (byIntent || !intent.billId) return byIntent;
  const [named] = await db.select().from(bills).where(eq(bills.billId, intent.billId)).for('update');
  // Not a bill of ours (another system's intent on the same Stripe account): nothing to wait for.
  if (!named) return undefined;
  if (named.stripeSepaPaymentIntentId === intent.id) return named;
  // The bill was collected with another intent: this one is not (or no longer) the bill's.
  if (named.stripeSepaPaymentIntentId) return undefined;
  throw new ApiError(409, 'PAYMENT_EVENT_TOO_EARLY', 'The payment intent is not stored on its bill yet: deliver the event again', {
    billId: intent.billId,
  });
}

/**
 * A payment state reported for the bill of a payment intent: applied only when it comes later in
 * the order above than what the bill has (a late 'processing' after 'succeeded', or a 'succeeded'
 * after a dispute, changes nothing). Answers whether the bill changed.
 */
export async function applyPaymentState(db: Db, intent: EventIntent, state: PaymentState): Promise<boolean> {
  const bill = await billOf(db, intent);
  if (!bill || rank(state) <= rank(bill.stripeSepaBillPaymentStatus)) return false;
  const status = billStatusOf[state];
  await db
    .update(bills)
    .set({ stripeSepaBillPaymentStatus: state, ...(status ? { billingStatus: status } : {}), version: sql`${bills.version} + 1` })
    .where(eq(bills.billId, bill.billId));
  return true;
}
