import * as z from 'zod/mini';
import type { ContractDetail } from '../../../../contract/contracts';
import { plainWrite } from '../../../api/mutations';
import { userKeys } from './user-keys';

/** Spec 2 §4: 'Redo payment details setup' is offered for a configured STRIPE_SEPA contract in these statuses (the server's rule too). */
const REDO_STATUSES: readonly string[] = ['CREATED_UNSIGNED', 'CREATED_SIGNED', 'ACTIVE', 'BLOCKED'];

export const redoPaymentSetupOffered = (
  c: Pick<ContractDetail, 'paymentMethod' | 'stripeSepaPaymentDetailsAreConfigured' | 'contractStatus'>,
) => c.paymentMethod === 'STRIPE_SEPA' && c.stripeSepaPaymentDetailsAreConfigured && REDO_STATUSES.includes(c.contractStatus);

/**
 * `POST /reconfigure-stripe-sepa/{contractKey}` (spec 2 §7): the customer gets a new mandate link by
 * mail. A plain write, never queued: a link mailed hours later, after the interval, helps nobody.
 * Nothing the page shows changes, so it refreshes nothing.
 */
export const redoPaymentSetupMutation = () =>
  plainWrite({
    mutationKey: [...userKeys.all, 'redo-payment-setup'],
    request: (contractKey: string) => ({
      service: 'contractManagement',
      method: 'POST',
      path: `/reconfigure-stripe-sepa/${encodeURIComponent(contractKey)}`,
    }),
    schema: z.boolean(),
    refreshes: () => [],
  });

/**
 * The per-contract interval kept on the device (spec 2 §9): the last request and when the next may
 * be made, so the action waits without asking the server. Cleared on errors (spec 2 §8).
 */
export interface RedoRecord {
  lastRequest: number;
  expiry: number;
}
const storageKey = (contractKey: string) => `cockpit.redoSepa.${contractKey}`;

export function readRedoRecord(contractKey: string, now = Date.now()): RedoRecord | null {
  try {
    const raw = globalThis.localStorage?.getItem(storageKey(contractKey));
    const record = raw ? (JSON.parse(raw) as Partial<RedoRecord>) : null;
    if (!record || typeof record.expiry !== 'number' || typeof record.lastRequest !== 'number') return null;
    return record.expiry > now ? (record as RedoRecord) : null;
  } catch {
    return null;
  }
}

export function rememberRedo(contractKey: string, intervalMinutes: number, now = Date.now()): RedoRecord {
  const record = { lastRequest: now, expiry: now + intervalMinutes * 60_000 };
  try {
    globalThis.localStorage?.setItem(storageKey(contractKey), JSON.stringify(record));
  } catch {
    // Storage full or blocked: the server's own interval (429) still holds.
  }
  return record;
}

export function clearRedo(contractKey: string): void {
  try {
    globalThis.localStorage?.removeItem(storageKey(contractKey));
  } catch {
    // Nothing kept, nothing to clear.
  }
}
