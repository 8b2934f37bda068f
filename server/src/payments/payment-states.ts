import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';

/** A bill's payment state as the provider's events report it, in the order they may follow each other. */
const paymentStates = {
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

/**
 * A payment state reported for the bill of a payment intent: applied only when it comes later in
 * the order above than what the bill has (a late 'processing' after 'succeeded', or a 'succeeded'
 * after a dispute, changes nothing). Answers whether the bill changed.
 */
export async function applyPaymentState(db: Db, paymentIntentId: string, state: PaymentState): Promise<boolean> {
  const [bill] = await db.select().from(bills).where(eq(bills.stripeSepaPaymentIntentId, paymentIntentId)).for('update');
  if (!bill || rank(state) <= rank(bill.stripeSepaBillPaymentStatus)) return false;
  const status = billStatusOf[state];
  await db
    .update(bills)
    .set({ stripeSepaBillPaymentStatus: state, ...(status ? { billingStatus: status } : {}), version: sql`${bills.version} + 1` })
    .where(eq(bills.billId, bill.billId));
  return true;
}
