import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts } from '../db/schema/contracts';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { startMandateCheckout } from './mandates';

/** The statuses in which a mandate may be set up again (spec 2 §4 'Redo payment details setup'). */
export const REDO_SEPA_STATUSES = ['CREATED_UNSIGNED', 'CREATED_SIGNED', 'ACTIVE', 'BLOCKED'] as const;

type RedoContract = Parameters<typeof startMandateCheckout>[2] &
  Pick<typeof contracts.$inferSelect, 'paymentMethod' | 'contractStatus' | 'stripeSepaPaymentDetailsAreConfigured' | 'lastSepaRedoAt'>;

/**
 * 'Redo payment details setup' (spec 2 §4, §7, §8): a new checkout link mailed to the customer, at
 * most once per REDO_SEPA_INTERVAL_MINUTES per contract (429 with Retry-After within it). The
 * contract must be locked by the caller, so two requests at once cannot both pass the interval.
 */
export async function redoStripeSepaSetup(db: Db, env: Env, contract: RedoContract, now = new Date()): Promise<void> {
  if (contract.paymentMethod !== 'STRIPE_SEPA') {
    throw new ApiError(409, 'PAYMENT_METHOD_DATA_INCONSISTENCY', 'The contract is not paid by Stripe SEPA');
  }
  if (!(REDO_SEPA_STATUSES as readonly string[]).includes(contract.contractStatus)) {
    throw new ApiError(409, 'CONTRACT_STATUS_DATA_INCONSISTENCY', 'The payment details cannot be set up again in this contract status');
  }
  if (!contract.stripeSepaPaymentDetailsAreConfigured) {
    throw new ApiError(409, 'STRIPE_SEPA_NOT_CONFIGURED', 'The payment details were never set up');
  }
  const intervalMs = env.REDO_SEPA_INTERVAL_MINUTES * 60_000;
  const waitMs = contract.lastSepaRedoAt ? contract.lastSepaRedoAt.getTime() + intervalMs - now.getTime() : 0;
  if (waitMs > 0) {
    const seconds = Math.ceil(waitMs / 1000);
    throw new ApiError(429, 'TOO_MANY_REQUESTS', `Asked already; again in ${seconds} s`, undefined, undefined, {
      'Retry-After': String(seconds),
    });
  }
  await db.update(contracts).set({ lastSepaRedoAt: now }).where(eq(contracts.contractKey, contract.contractKey));
  await startMandateCheckout(db, env, contract, 'reconfigure');
}
