import { and, count, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { BillListQuery, BillRow } from '../../../contract/bills';
import { COCKPIT_TIME_ZONE } from '../../../contract/cockpit';
import { callerOkColumn, confirmCaller, type CallerCheck, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { monthsAndDays } from '../db/sql-helpers';
import { billDays, billMonths, billOperatorDays, billOperatorMonths, bills } from '../db/schema/bookings';

/** SQL of the bills list (spec 3 §2, §7). */

const TZ = sql.raw(`'${COCKPIT_TIME_ZONE}'`);
/** First instant of a Berlin calendar day: a constant expression, so (cpo_id, bill_generation_date) serves the range. */
const dayStart = (day: string): SQL => sql`((${day}::date)::timestamp at time zone ${TZ})`;
const dayAfter = (day: string): SQL => sql`(((${day}::date) + 1)::timestamp at time zone ${TZ})`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The list's total from the roll-ups (migrations 0016, 0017), as the charging history's: each whole
 * Berlin month of the range from the monthly roll-up, the days at its ragged ends from the daily
 * one; an open end takes every month on that side. Exactly the count of the bills, since a roll-up
 * day is the Berlin day of a bill's generation. Without a status, method or user type filter it
 * reads bill_operator_months/_days (a row per operator and month), else bill_months/_days.
 */
function rolledTotal(scope: Scope, q: BillListQuery): SQL {
  const filtered = q.userTypes.length > 0 || q.paymentMethods.length > 0 || q.billingStatuses.length > 0;
  const m = filtered ? billMonths : billOperatorMonths;
  const d = filtered ? billDays : billOperatorDays;
  const common = (t: typeof billDays | typeof billMonths | typeof billOperatorDays | typeof billOperatorMonths) => [
    scope.where(t.cpoId),
    ...('userType' in t
      ? [
          q.userTypes.length > 0 ? inArray(t.userType, q.userTypes) : undefined,
          q.paymentMethods.length > 0 ? inArray(t.paymentMethodKey, q.paymentMethods) : undefined,
          q.billingStatuses.length > 0 ? inArray(t.statusKey, q.billingStatuses) : undefined,
        ]
      : []),
  ];
  const rows = monthsAndDays(
    { startDate: q.startDate, endDate: q.endDate, months: true },
    { at: m.month, select: (dated) => sql`select ${m.bills} as bills from ${m} where ${and(...common(m), ...dated) ?? sql`true`}` },
    { at: d.day, select: (dated) => sql`select ${d.bills} as bills from ${d} where ${and(...common(d), ...dated) ?? sql`true`}` },
  );
  return sql`select coalesce(sum(bills), 0)::int as n from (${rows}) r`;
}

/**
 * One page of the caller's bills, newest generation first: the range is of Berlin days, both
 * included. The scope, range and order walk (cpo_id, bill_generation_date desc, bill_number desc),
 * or for the admins' unscoped list (bill_generation_date desc, bill_number desc), and stop at the
 * page; the other filters have their indexes (status, payment method, user type, end customer).
 * The total comes from the roll-ups unless an end customer or contract names a few bills.
 */
export async function listBills(db: Db, scope: Scope, q: BillListQuery, check?: CallerCheck): Promise<{ total: number; rows: BillRow[] }> {
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
  const total = q.endCustomerId || q.contractKey ? db.select({ n: count() }).from(bills).where(where) : rolledTotal(scope, q);
  // With a caller check the statement also answers whether its caller is the assumed one (`readAsCaller`).
  const callerOk = callerOkColumn(db, !!check);
  const rows = await db
    .select({
      listTotal: sql<number>`(${total})`.mapWith(Number),
      callerOk,
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
    .offset(q.page * q.size)
    .execute({ ...check?.values });
  let n: number;
  if (rows.length) {
    confirmCaller(check, rows);
    n = rows[0].listTotal;
  } else {
    // A page past the end has no row: the total alone, which carries the caller check then.
    const alone = await db
      .select({ n: sql<number>`(${total})`.mapWith(Number), callerOk })
      .from(sql`(select 1) as one`)
      .execute({ ...check?.values });
    confirmCaller(check, alone);
    n = alone[0].n;
  }
  return {
    total: n,
    rows: rows.map(({ listTotal: _t, callerOk: _c, billGenerationDate, billCollectionDate, billDownloadDate, ...r }) => ({
      ...r,
      billingStatus: r.billingStatus ?? null,
      paymentMethod: r.paymentMethod ?? null,
      billGenerationDate: billGenerationDate.toISOString(),
      billCollectionDate: iso(billCollectionDate),
      billDownloadDate: iso(billDownloadDate),
    })),
  };
}
