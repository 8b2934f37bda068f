import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { BillListQuery, BillRow } from '../../../contract/bills';
import { COCKPIT_TIME_ZONE } from '../../../contract/cockpit';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';

/** SQL of the bills list (spec 3 §2, §7). */

const TZ = sql.raw(`'${COCKPIT_TIME_ZONE}'`);
/** First instant of a Berlin calendar day: a constant expression, so (cpo_id, bill_generation_date) serves the range. */
const dayStart = (day: string): SQL => sql`((${day}::date)::timestamp at time zone ${TZ})`;
const dayAfter = (day: string): SQL => sql`(((${day}::date) + 1)::timestamp at time zone ${TZ})`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * One page of the caller's bills, newest generation first: the range is of Berlin days, both
 * included; every filter has its index (status, payment method, user type, end customer), the
 * scope and range the (cpo_id, bill_generation_date desc) one, which also gives the order.
 */
export async function listBills(db: Db, scope: Scope, q: BillListQuery): Promise<{ total: number; rows: BillRow[] }> {
  const where = and(
    scope.where(bills.cpoId),
    q.startDate ? gte(bills.billGenerationDate, dayStart(q.startDate)) : undefined,
    q.endDate ? lt(bills.billGenerationDate, dayAfter(q.endDate)) : undefined,
    q.userTypes.length > 0 ? inArray(bills.userType, q.userTypes) : undefined,
    q.paymentMethods.length > 0 ? inArray(bills.paymentMethod, q.paymentMethods) : undefined,
    q.billingStatuses.length > 0 ? inArray(bills.billingStatus, q.billingStatuses) : undefined,
    q.endCustomerId ? eq(bills.endCustomerId, q.endCustomerId) : undefined,
    q.contractKey ? eq(bills.contractKey, q.contractKey) : undefined,
  );
  // The total rides along as a column of the page's statement; only a page past the end asks alone.
  const total = db.select({ n: count() }).from(bills).where(where);
  const rows = await db
    .select({
      listTotal: sql<number>`(${total})`.mapWith(Number),
      billId: bills.billId,
      billNumber: bills.billNumber,
      contractKey: bills.contractKey,
      startDate: bills.startDate,
      endDate: bills.endDate,
      energyLoaded: bills.energyLoaded,
      taxedFixCosts: bills.taxedFixCosts,
      taxedVarCosts: bills.taxedVarCosts,
      totalTaxedCosts: bills.totalTaxedCosts,
      billingStatus: bills.billingStatus,
      billGenerationDate: bills.billGenerationDate,
      billCollectionDate: bills.billCollectionDate,
      billDownloadDate: bills.billDownloadDate,
      paymentMethod: bills.paymentMethod,
      stripeSepaPaymentIntentId: bills.stripeSepaPaymentIntentId,
      stripeSepaBillPaymentStatus: bills.stripeSepaBillPaymentStatus,
      monthNumber: bills.monthNumber,
      yearNumber: bills.yearNumber,
      endCustomerId: bills.endCustomerId,
      endCustomerFirstName: bills.endCustomerFirstName,
      endCustomerLastName: bills.endCustomerLastName,
      userType: bills.userType,
    })
    .from(bills)
    .where(where)
    // The number breaks ties, so a page boundary never splits bills generated in the same instant twice.
    .orderBy(desc(bills.billGenerationDate), desc(bills.billNumber))
    .limit(q.size)
    .offset(q.page * q.size);
  return {
    total: rows.length ? rows[0].listTotal : (await total)[0].n,
    rows: rows.map(({ listTotal: _t, billGenerationDate, billCollectionDate, billDownloadDate, ...r }) => ({
      ...r,
      billingStatus: r.billingStatus ?? null,
      paymentMethod: r.paymentMethod ?? null,
      billGenerationDate: billGenerationDate.toISOString(),
      billCollectionDate: iso(billCollectionDate),
      billDownloadDate: iso(billDownloadDate),
    })),
  };
}
