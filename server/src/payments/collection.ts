import { and, asc, eq, exists, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { billCollections, paymentCheckouts } from '../db/schema/payments';
import type { Env } from '../env';
import { describeError, logFault, type Log } from '../http/faults';
import { centsOf } from './payment-states';
import type { PaymentIntent, PaymentIntentRequest } from './provider';
import { paymentProvider } from './providers';
import { receiveEvent, signPayload } from './webhook';

/**
 * Collection of STRIPE_SEPA bills. A job, not the send: sending a bill is the bills area's write
 * (issue 24) and stays a local transaction, while a collection is a call to Stripe that may be
 * slow or fail; the job picks up every SENT bill without a payment intent, so a bill sent while
 * Stripe was down, or before the customer gave the mandate, is collected on a later round. Each
 * bill's intent is made with its id as Stripe's idempotency key, so a round cut short and run
 * again never debits twice. The provider is never asked inside a transaction (issue 34).
 */

/**
 * SENT STRIPE_SEPA bills not collected yet whose contract has a mandate of this provider: one of
 * the test mode (the demo seed's) means nothing to Stripe, and asking it again every round would
 * hold back the bills behind it.
 */
function collectable(db: Db, provider: 'stripe' | 'test', limit: number) {
  const mandateOfProvider = db
    .select({ one: sql`1` })
    .from(paymentCheckouts)
    .where(
      and(
        eq(paymentCheckouts.contractKey, contracts.contractKey),
        eq(paymentCheckouts.provider, provider),
        eq(paymentCheckouts.completedAt, contracts.stripeMandateCompletedAt),
      ),
    );
  return db
    .select({
      billId: bills.billId,
      billNumber: bills.billNumber,
      contractKey: bills.contractKey,
      total: bills.totalTaxedCosts,
      customerId: contracts.stripeCustomerId,
      paymentMethodId: contracts.stripePaymentMethodId,
    })
    .from(bills)
    .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
    .where(
      and(
        eq(bills.billingStatus, 'SENT'),
        isNull(bills.stripeSepaPaymentIntentId),
        eq(contracts.paymentMethod, 'STRIPE_SEPA'),
        eq(contracts.stripeSepaPaymentDetailsAreConfigured, true),
        isNotNull(contracts.stripeCustomerId),
        isNotNull(contracts.stripePaymentMethodId),
        exists(mandateOfProvider),
      ),
    )
    .orderBy(asc(bills.billGenerationDate), asc(bills.billId))
    .limit(limit);
}

type Candidate = Awaited<ReturnType<typeof collectable>>[number];

/** How long a collection's claim holds off another collector: longer than the SDK's call with its retries (3 × 15 s). */
const CLAIM_SECONDS = 300;

/**
 * Step 1, committed before the provider is asked: the bill's collection recorded and claimed.
 * Null when it is not to be asked now: collected meanwhile, or claimed by a call still under way.
 * A claim whose call never answered (crash, lost answer) has run out and is taken again, with the
 * same idempotency key.
 */
async function claimCollection(db: Db, c: Candidate): Promise<string | null> {
  const [claim] = await db
    .insert(billCollections)
    .values({
      billId: c.billId,
      idempotencyKey: `bill-${c.billId}`,
      claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
      attempts: 1,
    })
    .onConflictDoUpdate({
      target: billCollections.billId,
      set: { claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`, attempts: sql`${billCollections.attempts} + 1` },
      setWhere: and(
        isNull(billCollections.answeredAt),
        or(isNull(billCollections.claimedUntil), lt(billCollections.claimedUntil, sql`now()`)),
      ),
    })
    .returning({ key: billCollections.idempotencyKey });
  return claim?.key ?? null;
}

/** Step 3, after the provider answered: the intent on the bill (unless it holds one already) and the collection answered, in one short transaction. */
async function recordIntent(db: Db, c: Candidate, intent: PaymentIntent, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(bills)
      .set({
        stripeSepaPaymentIntentId: intent.id,
        stripeSepaBillPaymentStatus: intent.status,
        billCollectionDate: now,
        version: sql`${bills.version} + 1`,
      })
      .where(and(eq(bills.billId, c.billId), isNull(bills.stripeSepaPaymentIntentId), eq(bills.billingStatus, 'SENT')))
      .returning({ billId: bills.billId });
    await tx
      .update(billCollections)
      .set({ answeredAt: sql`now()`, lastFailure: null })
      .where(eq(billCollections.billId, c.billId));
    return !!updated;
  });
}

/**
 * One bill: the collection recorded, committed, the provider asked with the bill's idempotency key
 * while no transaction is open (a slow provider holds no lock, and on PGlite no other statement),
 * then its answer recorded. A failed call gives the claim back with its kind; the next round asks
 * again with the same key, so the provider makes one intent however often it is asked.
 */
async function collectOne(
  db: Db,
  env: Env,
  c: Candidate,
  now: Date,
): Promise<{ intent: PaymentIntent; request: PaymentIntentRequest } | null> {
  const idempotencyKey = await claimCollection(db, c);
  if (!idempotencyKey) return null;
  // The metadata's billId lets an event that outruns the answer's commit be told apart (payment-states.ts).
  const request: PaymentIntentRequest = {
    amount: centsOf(c.total),
    customerId: c.customerId!,
    paymentMethodId: c.paymentMethodId!,
    description: `Rechnung ${c.billNumber}`,
    idempotencyKey,
    metadata: { billId: c.billId, billNumber: c.billNumber, contractKey: c.contractKey },
  };
  let intent: PaymentIntent;
  try {
    intent = await paymentProvider(env).createPaymentIntent(db, request);
  } catch (err) {
    await db
      .update(billCollections)
      .set({ claimedUntil: null, lastFailure: describeError(err).split('\n')[0] })
      .where(eq(billCollections.billId, c.billId));
    throw err;
  }
  return (await recordIntent(db, c, intent, now)) ? { intent, request } : null;
}

/**
 * One round of the collection job: up to `limit` bills, each on its own, so one refused by the
 * provider does not hold back the others (it is tried again next round). Answers how many were
 * collected. Runs as the job `bill-collection` (server.ts), one round at a time across instances.
 */
export async function collectSentBills(db: Db, env: Env, opts: { now?: Date; limit?: number; log?: Log } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  let collected = 0;
  for (const candidate of await collectable(db, paymentProvider(env).kind, opts.limit ?? 50)) {
    try {
      const made = await collectOne(db, env, candidate, now);
      if (!made) continue;
      collected++;
      // The test mode settles at once what SEPA settles in days: its events go the webhook's way.
      for (const event of paymentProvider(env).simulatedEvents?.(made.intent, made.request) ?? []) {
        const payload = JSON.stringify(event);
        await db.transaction((tx) => receiveEvent(tx, env, payload, signPayload(paymentProvider(env).webhookSecret, payload)));
      }
    } catch (err) {
      // The kind of failure and the bill's id only: no amount or name in a log.
      if (opts.log) logFault(opts.log, `collection of bill ${candidate.billId} failed`, err);
    }
  }
  return collected;
}
