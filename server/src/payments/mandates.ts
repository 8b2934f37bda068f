import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { berlinDate } from '../../../contract/contracts';
import type { Db } from '../db/client';
import { enqueueMail } from '../db/mail-outbox';
import { contracts } from '../db/schema/contracts';
import { paymentCheckouts, type CheckoutPurpose } from '../db/schema/payments';
import type { Env } from '../env';
import type { CompletedSession } from './provider';
import { paymentProvider } from './providers';

type ContractForCheckout = Pick<
  typeof contracts.$inferSelect,
  'contractKey' | 'email' | 'firstName' | 'lastName' | 'contractNumber' | 'stripeCustomerId'
>;

/**
 * Makes a checkout link for the contract's SEPA mandate and mails it to the customer, in the
 * caller's transaction: the mail goes out only if the request commits. `configure` for a new
 * contract, `reconfigure` for the redo (spec 2 §4).
 */
export async function startMandateCheckout(db: Db, env: Env, contract: ContractForCheckout, purpose: CheckoutPurpose): Promise<string> {
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
  await enqueueMail(db, checkoutMail(env, contract, purpose, checkout.url));
  return checkout.url;
}

function checkoutMail(env: Env, c: ContractForCheckout, purpose: CheckoutPurpose, url: string) {
  const redo = purpose === 'reconfigure';
  return {
    to: c.email,
    from: env.MAIL_FROM,
    subject: redo
      ? 'Neues SEPA-Lastschriftmandat erteilen / Set up a new SEPA direct-debit mandate'
      : 'SEPA-Lastschriftmandat erteilen / Set up your SEPA direct-debit mandate',
    text: [
      `Hallo ${c.firstName} ${c.lastName},`,
      '',
      redo
        ? 'Sie wurden gebeten, Ihre Zahlungsdaten neu einzurichten. Bitte erteilen Sie über diesen Link ein neues SEPA-Lastschriftmandat:'
        : 'für Ihren Ladevertrag ziehen wir die Rechnungen per SEPA-Lastschrift ein. Bitte erteilen Sie über diesen Link das Mandat:',
      '',
      url,
      '',
      `Vertragsnummer: ${c.contractNumber}`,
      '',
      '---',
      '',
      `Hello ${c.firstName} ${c.lastName},`,
      '',
      redo
        ? 'Please set up your payment details again: give a new SEPA direct-debit mandate with the link above.'
        : 'The bills of your charging contract are collected by SEPA direct debit. Please give the mandate with the link above.',
      `Contract number: ${c.contractNumber}`,
    ].join('\n'),
  };
}

/**
 * A completed setup checkout (the provider's `checkout.session.completed`): the contract gets the
 * mandate, unless a newer one was set already (events may come out of order). Answers whether it
 * changed the contract.
 */
export async function applyCompletedCheckout(db: Db, env: Env, session: CompletedSession): Promise<boolean> {
  const [checkout] = await db.select().from(paymentCheckouts).where(eq(paymentCheckouts.sessionId, session.id));
  // A session of another application on the same Stripe account: not ours to apply.
  if (!checkout) return false;
  const mandate = await paymentProvider(env).mandateOf(db, session);
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
