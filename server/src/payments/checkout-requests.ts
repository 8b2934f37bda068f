import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { enqueueMail } from '../db/mail-outbox';
import { contracts } from '../db/schema/contracts';
import { paymentCheckoutRequests, paymentCheckouts, type CheckoutPurpose } from '../db/schema/payments';
import type { Env } from '../env';
import { describeError, logFault, type Log } from '../http/faults';
import { paymentProvider } from './providers';

/**
 * Checkout links, asked for in a write's transaction and made after its commit (issue 34): the
 * provider is never waited for inside a transaction. Three steps: the request recorded with the
 * write (`recordCheckoutRequest`); after the commit the request claimed and the provider asked with
 * `checkout-<requestId>` as its idempotency key; the answer (the link kept, the customer on the
 * contract, the mail queued, the request done) in one short transaction. A call that failed or
 * whose process died is asked again later by the job with the same key, so the provider answers
 * the same checkout and one link is mailed.
 */

/** How long a claim holds off another caller: longer than the SDK's call with its retries (3 × 15 s). */
const CLAIM_SECONDS = 300;

/** How long the write's answer waits for the link after the commit; a slower provider's link follows by itself (the mail goes out when it comes). */
const AFTER_COMMIT_WAIT_MS = 2_000;

export type CheckoutContract = Pick<
  typeof contracts.$inferSelect,
  'contractKey' | 'email' | 'firstName' | 'lastName' | 'contractNumber' | 'stripeCustomerId'
>;

/** Step 1, in the caller's transaction: the link asked for. Answers the request's id. */
export async function recordCheckoutRequest(db: Db, contractKey: string, purpose: CheckoutPurpose): Promise<string> {
  const requestId = randomUUID();
  await db.insert(paymentCheckoutRequests).values({ requestId, contractKey, purpose });
  return requestId;
}

/** A change away from STRIPE_SEPA, in its transaction: links asked for and not made yet are not made (one under way is dropped at its answer). */
export async function dropOpenCheckoutRequests(db: Db, contractKey: string): Promise<void> {
  await db
    .delete(paymentCheckoutRequests)
    .where(and(eq(paymentCheckoutRequests.contractKey, contractKey), isNull(paymentCheckoutRequests.doneAt)));
}

const claimFree = () => or(isNull(paymentCheckoutRequests.claimedUntil), lt(paymentCheckoutRequests.claimedUntil, sql`now()`));

async function claim(db: Db, requestId: string) {
  const [taken] = await db
    .update(paymentCheckoutRequests)
    .set({ claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, attempts: sql`${paymentCheckoutRequests.attempts} + 1` })
    .where(and(eq(paymentCheckoutRequests.requestId, requestId), isNull(paymentCheckoutRequests.doneAt), claimFree()))
    .returning();
  return taken;
}

/** Step 3: the answer recorded once, unless the request was dropped or answered meanwhile. */
async function recordCheckout(
  db: Db,
  env: Env,
  requestId: string,
  contract: CheckoutContract,
  checkout: { sessionId: string; url: string; customerId: string },
): Promise<void> {
  await db.transaction(async (tx) => {
    const [open] = await tx
      .select({ purpose: paymentCheckoutRequests.purpose, doneAt: paymentCheckoutRequests.doneAt })
      .from(paymentCheckoutRequests)
      .where(eq(paymentCheckoutRequests.requestId, requestId))
      .for('update');
    if (!open || open.doneAt) return;
    await tx
      .insert(paymentCheckouts)
      .values({
        sessionId: checkout.sessionId,
        contractKey: contract.contractKey,
        purpose: open.purpose,
        provider: paymentProvider(env).kind,
        url: checkout.url,
        customerId: checkout.customerId,
      })
      .onConflictDoNothing();
    if (contract.stripeCustomerId !== checkout.customerId)
      await tx.update(contracts).set({ stripeCustomerId: checkout.customerId }).where(eq(contracts.contractKey, contract.contractKey));
    await enqueueMail(tx, checkoutMail(env, contract, open.purpose, checkout.url));
    await tx
      .update(paymentCheckoutRequests)
      .set({ doneAt: sql`now()`, sessionId: checkout.sessionId, claimedUntil: null, lastFailure: null })
      .where(eq(paymentCheckoutRequests.requestId, requestId));
  });
}

/**
 * Steps 2 and 3 for one request, outside any transaction. Answers whether a link was made; a
 * request claimed by another caller, answered or dropped is left alone. A failure gives the claim
 * back with its kind and is thrown.
 */
export async function makeRequestedCheckout(db: Db, env: Env, requestId: string): Promise<boolean> {
  const request = await claim(db, requestId);
  if (!request) return false;
  const [contract] = await db.select().from(contracts).where(eq(contracts.contractKey, request.contractKey));
  if (contract?.paymentMethod !== 'STRIPE_SEPA') {
    // Paid another way since: no link is asked for any more.
    await db
      .update(paymentCheckoutRequests)
      .set({ doneAt: sql`now()`, claimedUntil: null })
      .where(eq(paymentCheckoutRequests.requestId, requestId));
    return false;
  }
  try {
    const checkout = await paymentProvider(env).createSetupCheckout(db, {
      contractKey: contract.contractKey,
      purpose: request.purpose,
      email: contract.email,
      name: `${contract.firstName} ${contract.lastName}`,
      customerId: contract.stripeCustomerId,
      successUrl: `${env.PUBLIC_URL}/stripesepa/${request.purpose}/success/{CHECKOUT_SESSION_ID}`,
      cancelUrl: `${env.END_CUSTOMER_APP_URL}?contractKey=${encodeURIComponent(contract.contractKey)}`,
      idempotencyKey: `checkout-${requestId}`,
    });
    await recordCheckout(db, env, requestId, contract, checkout);
    return true;
  } catch (err) {
    await db
      .update(paymentCheckoutRequests)
      .set({ claimedUntil: null, lastFailure: describeError(err).split('\n')[0] })
      .where(eq(paymentCheckoutRequests.requestId, requestId));
    throw err;
  }
}

/** The open requests (of one contract, or all), oldest first, whose claim is free. */
async function openRequests(db: Db, contractKey: string | undefined, limit: number): Promise<string[]> {
  const rows = await db
    .select({ requestId: paymentCheckoutRequests.requestId })
    .from(paymentCheckoutRequests)
    .where(
      and(
        isNull(paymentCheckoutRequests.doneAt),
        claimFree(),
        contractKey ? eq(paymentCheckoutRequests.contractKey, contractKey) : undefined,
      ),
    )
    .orderBy(asc(paymentCheckoutRequests.createdAt))
    .limit(limit);
  return rows.map((r) => r.requestId);
}

/** Makes the open requests' links one by one; a failure is logged with the request's id and kind, and the rest go on. */
export async function makeOpenCheckouts(db: Db, env: Env, log: Log, opts: { contractKey?: string; limit?: number } = {}): Promise<number> {
  let made = 0;
  for (const requestId of await openRequests(db, opts.contractKey, opts.limit ?? 50)) {
    try {
      if (await makeRequestedCheckout(db, env, requestId)) made++;
    } catch (err) {
      logFault(log, `checkout link of request ${requestId} failed (asked again by the job)`, err);
    }
  }
  return made;
}

/**
 * After a write's commit, on the root handle: its contract's links made now, the answer waiting
 * for them at most AFTER_COMMIT_WAIT_MS. A slow provider's link is made meanwhile; one that fails
 * is made by the job (`server.ts`, `checkout-links`). Never throws: the write is committed.
 */
export async function makeCheckoutsAfterCommit(db: Db, env: Env, contractKey: string, log: Log): Promise<void> {
  const work = makeOpenCheckouts(db, env, log, { contractKey }).catch((err: unknown) => {
    logFault(log, `checkout links of contract ${contractKey} after the commit failed`, err);
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, AFTER_COMMIT_WAIT_MS)))]);
  clearTimeout(timer);
}

function checkoutMail(env: Env, c: CheckoutContract, purpose: CheckoutPurpose, url: string) {
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
