import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { berlinDate } from '../../../contract/contracts';
import type { PaymentMethod } from '../../../contract/enums';
import type { Db } from '../db/client';
import { enqueueMail } from '../db/mail-outbox';
import { contracts } from '../db/schema/contracts';
import { paymentCheckouts, type CheckoutPurpose } from '../db/schema/payments';
import type { Env } from '../env';
import type { Log } from '../http/faults';
import { dropOpenCheckoutRequests, makeCheckoutsAfterCommit, recordCheckoutRequest, type CheckoutContract } from './checkout-requests';
import type { CompletedSession, Mandate } from './provider';
import { paymentProvider } from './providers';

type ContractForCheckout = CheckoutContract;

/**
 * Asks for a checkout link for the contract's SEPA mandate, in the caller's transaction (`configure`
 * for a new contract, `reconfigure` for the redo, spec 2 §4). The provider is asked after the
 * commit, never inside the transaction (`checkout-requests.ts`): the caller's route runs
 * `checkoutLinksAfterCommit`, and the job makes what that could not. The link is mailed when made.
 */
export async function startMandateCheckout(db: Db, _env: Env, contract: ContractForCheckout, purpose: CheckoutPurpose): Promise<string> {
  return recordCheckoutRequest(db, contract.contractKey, purpose);
}

/** After the write's commit (its `afterCommit`): the contract's requested links made and mailed; waits a moment at most, never throws. */
export function checkoutLinksAfterCommit(db: Db, env: Env, contractKey: string, log: Log = (m) => console.error(m)): Promise<void> {
  return makeCheckoutsAfterCommit(db, env, contractKey, log);
}

/**
 * A checkout link for the contract's mandate made and kept at once, without the mail: the demo
 * seed's, which completes it itself on the test mode (no network; the seed is the only writer).
 */
export async function openMandateCheckout(
  db: Db,
  env: Env,
  contract: ContractForCheckout,
  purpose: CheckoutPurpose,
): Promise<{ sessionId: string; url: string }> {
  const provider = paymentProvider(env);
  const checkout = await provider.createSetupCheckout(db, {
    contractKey: contract.contractKey,
    purpose,
    email: contract.email,
    name: `${contract.firstName} ${contract.lastName}`,
    customerId: contract.stripeCustomerId,
    successUrl: `${env.PUBLIC_URL}/stripesepa/${purpose}/success/{CHECKOUT_SESSION_ID}`,
    cancelUrl: `${env.END_CUSTOMER_APP_URL}?contractKey=${encodeURIComponent(contract.contractKey)}`,
  });
  await db.insert(paymentCheckouts).values({
    sessionId: checkout.sessionId,
    contractKey: contract.contractKey,
    purpose,
    provider: provider.kind,
    url: checkout.url,
    customerId: checkout.customerId,
  });
  if (contract.stripeCustomerId !== checkout.customerId) {
    await db.update(contracts).set({ stripeCustomerId: checkout.customerId }).where(eq(contracts.contractKey, contract.contractKey));
  }
  return { sessionId: checkout.sessionId, url: checkout.url };
}

type MandateColumns = Partial<
  Pick<
    typeof contracts.$inferInsert,
    | 'contractMandateReference'
    | 'contractMandateDate'
    | 'stripeSepaPaymentDetailsAreConfigured'
    | 'stripePaymentMethodId'
    | 'stripeMandateCompletedAt'
  >
>;

/**
 * What an edit does to the contract's mandate columns (spec 2 §4). A Stripe mandate is the
 * provider's, not the form's: while the method stays STRIPE_SEPA it is kept whatever the form sends
 * (the wizard sends a mandate reference for SEPA only). A change to or from STRIPE_SEPA ends it: the
 * mandate, its date and payment method go, so collection stops at once and, for a change to
 * STRIPE_SEPA, waits for the new mandate. The provider's customer stays, to be reused by a new checkout.
 */
export function mandateColumnsAfterEdit(
  before: Pick<typeof contracts.$inferSelect, 'paymentMethod' | 'contractMandateReference'>,
  method: PaymentMethod | null,
): MandateColumns {
  const was = before.paymentMethod === 'STRIPE_SEPA';
  const is = method === 'STRIPE_SEPA';
  if (was && is) return { contractMandateReference: before.contractMandateReference };
  if (!was && !is) return {};
  return {
    stripeSepaPaymentDetailsAreConfigured: false,
    contractMandateDate: null,
    stripePaymentMethodId: null,
    stripeMandateCompletedAt: null,
    // Leaving STRIPE_SEPA, the form's reference (SEPA) or none (the rest) is the edit's, from billingColumns.
    ...(is ? { contractMandateReference: null } : {}),
  };
}

/**
 * After an edit, in its transaction: a change to or from STRIPE_SEPA voids the links not used yet
 * (one completed later must not set a mandate the contract no longer asks for, nor an older one), and
 * a change to STRIPE_SEPA asks for a new link for the customer, as creating such a contract does
 * (links asked for and not made yet are dropped with the change).
 */
export async function followPaymentMethodChange(
  db: Db,
  env: Env,
  before: Pick<typeof contracts.$inferSelect, 'paymentMethod'>,
  after: ContractForCheckout & Pick<typeof contracts.$inferSelect, 'paymentMethod'>,
): Promise<void> {
  const was = before.paymentMethod === 'STRIPE_SEPA';
  const is = after.paymentMethod === 'STRIPE_SEPA';
  if (was === is) return;
  await db.delete(paymentCheckouts).where(and(eq(paymentCheckouts.contractKey, after.contractKey), isNull(paymentCheckouts.completedAt)));
  await dropOpenCheckoutRequests(db, after.contractKey);
  if (is) await startMandateCheckout(db, env, after, 'configure');
}

/**
 * A completed setup checkout (the provider's `checkout.session.completed`): the contract gets the
 * mandate, unless a newer one was set already (events may come out of order). Answers whether it
 * changed the contract.
 */
export async function applyCompletedCheckout(db: Db, env: Env, session: CompletedSession, asked?: Mandate): Promise<boolean> {
  const [checkout] = await db.select().from(paymentCheckouts).where(eq(paymentCheckouts.sessionId, session.id));
  // A session of another application on the same Stripe account: not ours to apply.
  if (!checkout) return false;
  // Asked of the provider before the transaction by the webhook route; the test mode's reads its own row.
  const mandate = asked ?? (await paymentProvider(env).mandateOf(db, session));
  await db
    .update(paymentCheckouts)
    .set({ completedAt: checkout.completedAt ?? mandate.acceptedAt })
    .where(eq(paymentCheckouts.sessionId, session.id));
  const [updated] = await db
    .update(contracts)
    .set({
      stripeSepaPaymentDetailsAreConfigured: true,
      contractMandateReference: mandate.reference,
      contractMandateDate: berlinDate(mandate.acceptedAt),
      stripeCustomerId: checkout.customerId,
      stripePaymentMethodId: mandate.paymentMethodId,
      stripeMandateCompletedAt: mandate.acceptedAt,
      updatedAt: new Date(),
      version: sql`${contracts.version} + 1`,
    })
    .where(
      and(
        eq(contracts.contractKey, checkout.contractKey),
        // Paid another way since the link was made: the mandate is not asked for any more.
        eq(contracts.paymentMethod, 'STRIPE_SEPA'),
        or(isNull(contracts.stripeMandateCompletedAt), lt(contracts.stripeMandateCompletedAt, mandate.acceptedAt)),
      ),
    )
    .returning();
  if (!updated) return false;
  if (checkout.purpose === 'reconfigure') {
    await enqueueMail(db, {
      to: updated.email,
      from: env.MAIL_FROM,
      subject: 'Ihr neues SEPA-Lastschriftmandat / Your new SEPA direct-debit mandate',
      text: [
        `Hallo ${updated.firstName} ${updated.lastName},`,
        '',
        'Ihr neues SEPA-Lastschriftmandat ist eingerichtet. Künftige Rechnungen ziehen wir damit ein.',
        `Mandatsreferenz: ${mandate.reference}`,
        `Datum: ${berlinDate(mandate.acceptedAt).split('-').reverse().join('.')}`,
        '',
        '---',
        '',
        `Hello ${updated.firstName} ${updated.lastName},`,
        '',
        'Your new SEPA direct-debit mandate is set up; future bills are collected with it.',
        `Mandate reference: ${mandate.reference}`,
      ].join('\n'),
    });
  }
  return true;
}
