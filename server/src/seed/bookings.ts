import { asc, count, eq, sql } from 'drizzle-orm';
import type { BillStatus } from '../../../contract/enums';
import { runBills } from '../bills/run';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { operators } from '../db/schema/operators';
import { DAY, type SeedContext } from './common';

/**
 * The demo bills (issue 24) come from the bill run itself, over the seeded contracts, tariff
 * histories and charging requests, one run per seeded month at that month's billing day; so a
 * seeded bill and its regeneration agree to the cent. Only what happened to a bill after it was
 * made is drawn here (sent, paid, disputed, its Stripe payment, when it was collected and
 * downloaded); no amount changes.
 */

/** The run's clock for a month: the 2nd of the next month, 06:00 UTC (the daily job's first day), never after the seed's now. */
const billingDay = (monthStart: Date, now: Date) =>
  new Date(Math.min(now.getTime(), Date.UTC(monthStart.getUTCFullYear(), monthStart.getUTCMonth() + 1, 2, 6)));

/** Runs the bills of the seeded months, oldest first (the first bill of a contract carries its onboarding fee). */
export async function runSeedBills(db: Db, ctx: SeedContext): Promise<number> {
  const { now, spec, rnd } = ctx;
  for (let m = spec.billMonths; m >= 1; m--) {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1));
    const month = monthStart.toISOString().slice(0, 7);
    await runBills(db, month, { now: billingDay(monthStart, now), newId: rnd.uuid, batch: true });
  }
  await drawBillHistory(db, ctx);
  const [{ n }] = await db.select({ n: count() }).from(bills);
  return n;
}

interface BillHistory {
  billId: string;
  status: BillStatus;
  collected: Date | null;
  downloaded: Date | null;
  intentId: string | null;
  intentStatus: string | null;
}

/** What became of each bill: the last month's are mostly open, older ones mostly paid; every status the list filters on occurs. */
async function drawBillHistory(db: Db, ctx: SeedContext) {
  const { rnd, now } = ctx;
  const rows = await db
    .select({
      billId: bills.billId,
      status: bills.billingStatus,
      generated: bills.billGenerationDate,
      paymentMethod: bills.paymentMethod,
      mandate: contracts.stripeSepaPaymentDetailsAreConfigured,
      gapDays: operators.moneyCollectionGapInDays,
    })
    .from(bills)
    .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
    .innerJoin(operators, eq(operators.cpoId, bills.cpoId))
    .orderBy(asc(bills.billGenerationDate), asc(bills.billNumber));
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 20 * DAY);
  const forced: BillStatus[] = ['PAID', 'UNPAID', 'GENERATED', 'SENT', 'DISPUTE_CREATED', 'DISPUTED'];
  const history: BillHistory[] = [];
  for (const b of rows) {
    // Nothing to pay stays NOT_APPLICABLE.
    if (b.status !== 'GENERATED') continue;
    let status: BillStatus;
    if (forced.length > 0) status = forced.shift()!;
    else if (b.generated.getTime() > lastMonth.getTime())
      status = rnd.weighted<BillStatus>({ GENERATED: 30, SENT: 30, UNPAID: 25, PAID: 15 });
    else status = rnd.weighted<BillStatus>({ PAID: 85, UNPAID: 8, DISPUTE_CREATED: 3, DISPUTED: 3, SENT: 1 });
    const stripe = b.paymentMethod === 'STRIPE_SEPA';
    const debited = (stripe && b.mandate) || b.paymentMethod === 'SEPA';
    // A debit is collected on the day the bill announces (its date plus the operator's days until
    // payment, at least one): one whose day is still to come is not PAID yet but SENT, waiting for it.
    const debitDay = new Date(b.generated.getTime() + Math.max(1, b.gapDays ?? 0) * DAY);
    if (status === 'PAID' && debited && debitDay.getTime() > now.getTime()) status = 'SENT';
    const collected = status === 'PAID' && debited;
    const downloaded = rnd.chance(0.3) ? new Date(b.generated.getTime() + rnd.int(1, 20) * DAY) : null;
    const drawnIntent = stripe && status !== 'GENERATED' ? `pi_${rnd.hex(24)}` : null;
    // Stripe collected only with a mandate, and a SENT bill is still to be collected: the collection job takes it.
    const intentId = b.mandate && status !== 'SENT' ? drawnIntent : null;
    history.push({
      billId: b.billId,
      status,
      collected: collected ? debitDay : null,
      downloaded: downloaded && downloaded.getTime() < now.getTime() ? downloaded : null,
      intentId,
      intentStatus: !intentId ? null : status === 'PAID' ? 'succeeded' : 'requires_payment_method',
    });
  }
  // One statement per 1,000 bills instead of one per bill.
  for (let i = 0; i < history.length; i += 1000) {
    const values = history
      .slice(i, i + 1000)
      .map(
        (h) =>
          sql`(${h.billId}, ${h.status}, ${h.collected?.toISOString() ?? null}::timestamptz, ${h.downloaded?.toISOString() ?? null}::timestamptz, ${h.intentId}, ${h.intentStatus})`,
      );
    await db.execute(sql`
      update ${bills} set billing_status = v.status, bill_collection_date = v.collected, bill_download_date = v.downloaded,
        stripe_sepa_payment_intent_id = v.intent_id, stripe_sepa_bill_payment_status = v.intent_status
      from (values ${sql.join(values, sql`, `)}) as v(bill_id, status, collected, downloaded, intent_id, intent_status)
      where ${bills.billId} = v.bill_id`);
  }
}
