import { and, asc, eq, exists, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { paymentCheckouts } from '../db/schema/payments';
import type { Env } from '../env';
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
 * again never debits twice.
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

/** One bill: its intent made and recorded in one transaction (the bill locked, so two rounds never both collect it). */
async function collectOne(
  db: Db,
  env: Env,
  c: Candidate,
  now: Date,
): Promise<{ intent: PaymentIntent; request: PaymentIntentRequest } | null> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ intent: bills.stripeSepaPaymentIntentId, status: bills.billingStatus })
      .from(bills)
      .where(eq(bills.billId, c.billId))
      .for('update');
    if (!locked || locked.intent || locked.status !== 'SENT') return null;
    // The metadata's billId lets an event that outruns this transaction's commit be told apart (payment-states.ts).
    const request: PaymentIntentRequest = {
      amount: centsOf(c.total),
      customerId: c.customerId!,
      paymentMethodId: c.paymentMethodId!,
      description: `Rechnung ${c.billNumber}`,
      idempotencyKey: `bill-${c.billId}`,
      metadata: { billId: c.billId, billNumber: c.billNumber, contractKey: c.contractKey },
    };
    const intent = await paymentProvider(env).createPaymentIntent(tx, request);
    await tx
      .update(bills)
      .set({
        stripeSepaPaymentIntentId: intent.id,
        stripeSepaBillPaymentStatus: intent.status,
        billCollectionDate: now,
        version: sql`${bills.version} + 1`,
      })
      .where(eq(bills.billId, c.billId));
    return { intent, request };
  });
}

/**
 * One round of the collection job: up to `limit` bills, each on its own, so one refused by the
 * provider does not hold back the others (it is tried again next round). Answers how many were collected.
 */
export async function collectSentBills(
  db: Db,
  env: Env,
  opts: { now?: Date; limit?: number; log?: (m: string) => void } = {},
): Promise<number> {
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
      // The kind of failure only: no bill, amount or name in a log.
      opts.log?.(`a bill's collection failed: ${err instanceof Error ? err.name : 'error'}`);
    }
  }
  return collected;
}
