import { randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import type { contracts } from '../db/schema/contracts';
import { envSchema, type Env } from '../env';
import { openMandateCheckout } from '../payments/mandates';
import { completeTestCheckout } from '../payments/test-checkout';
import { germanIban } from './common';

/**
 * The demo's STRIPE_SEPA mandates (issue 26), made the way a customer makes one: a checkout link
 * from the payments module, completed on the test mode's checkout, whose event the webhook code
 * applies; so the contract holds exactly what a real completion stores, and the collection job
 * collects its SENT bills. No mail goes out (the seed does not write to customers).
 */

type ContractRow = typeof contracts.$inferInsert;

/**
 * The contracts that get a mandate: every STRIPE_SEPA one but, per operator, at most two of those
 * drawn as not configured, which show 'not configured' and no 'Redo payment details setup' (their
 * bills wait for a mandate). They are inserted unconfigured; the completed checkout configures them.
 */
export function contractsToMandate(contractRows: ContractRow[]): ContractRow[] {
  const leftOpen = new Map<string, number>();
  const chosen: ContractRow[] = [];
  for (const c of contractRows) {
    if (c.paymentMethod !== 'STRIPE_SEPA') continue;
    const open = leftOpen.get(c.cpoId) ?? 0;
    if (!c.stripeSepaPaymentDetailsAreConfigured && open < 2) {
      leftOpen.set(c.cpoId, open + 1);
      continue;
    }
    c.stripeSepaPaymentDetailsAreConfigured = false;
    chosen.push(c);
  }
  return chosen;
}

/**
 * The test mode's settings of its own, whatever the server's: demo mandates are test-mode mandates
 * (with Stripe configured, its API would not know them), and the events are signed and checked
 * within the seed.
 */
const testModeEnv = (): Env => ({ ...envSchema.parse({}), JWT_SECRET: randomBytes(32).toString('hex') });

/** Gives each contract a completed test-mode mandate, accepted an hour after its contract was made. */
export async function giveMandates(db: Db, chosen: ContractRow[]): Promise<number> {
  const env = testModeEnv();
  for (const c of chosen) {
    const contract = {
      contractKey: c.contractKey,
      email: c.email,
      firstName: c.firstName,
      lastName: c.lastName,
      contractNumber: c.contractNumber,
      stripeCustomerId: c.stripeCustomerId ?? null,
    };
    const { sessionId } = await openMandateCheckout(db, env, contract, 'configure');
    const accepted = new Date((c.createdAt ?? new Date()).getTime() + 3600_000);
    // A valid IBAN of the contract's own, from its number: the test checkout checks it as it checks a customer's.
    const iban = germanIban(`0037040044${c.contractNumber.replace(/\D/g, '').slice(-10).padStart(10, '0')}`);
    const form = { accountHolder: `${c.firstName} ${c.lastName}`, iban, accept: true };
    const answer = await completeTestCheckout(db, env, sessionId, form, 'de', accepted);
    if ('html' in answer) throw new Error('the test checkout refused a seeded mandate');
  }
  return chosen.length;
}
