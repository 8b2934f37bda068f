import { and, asc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { locations } from '../db/schema/locations';

/** The download center's reads (issue 25): bills in keyset pages, in the order accountants read them. */

export interface BillRange {
  locationIds: string[] | 'all';
  startDate: string;
  endDate: string;
}
export interface BillCursor {
  generated: Date;
  billId: string;
}

/** Bills generated on the Berlin days of the range (both included), at the locations. */
export function billsInRange(scope: Scope, f: BillRange): SQL | undefined {
  return and(
    scope.where(bills.cpoId),
    Array.isArray(f.locationIds) ? inArray(bills.locationId, f.locationIds) : undefined,
    gte(bills.billGenerationDate, sql`((${f.startDate}::date)::timestamp at time zone 'Europe/Berlin')`),
    lt(bills.billGenerationDate, sql`(((${f.endDate}::date) + 1)::timestamp at time zone 'Europe/Berlin')`),
  );
}

/** After the cursor's bill in (generation date, bill id) order. */
export const afterBill = (after: BillCursor | undefined) =>
  after
    ? or(
        sql`${bills.billGenerationDate} > ${after.generated.toISOString()}::timestamptz`,
        and(sql`${bills.billGenerationDate} = ${after.generated.toISOString()}::timestamptz`, sql`${bills.billId} > ${after.billId}`),
      )
    : undefined;

export const billCursor = (b: { billGenerationDate: Date; billId: string }): BillCursor => ({
  generated: b.billGenerationDate,
  billId: b.billId,
});

/** One page of the billing CSV: oldest first, as bills are numbered. */
export async function billCsvPage(db: Db, scope: Scope, f: BillRange, size: number, after?: BillCursor) {
  return db
    .select({
      billId: bills.billId,
      billNumber: bills.billNumber,
      billGenerationDate: bills.billGenerationDate,
      startDate: bills.startDate,
      endDate: bills.endDate,
      endCustomerId: bills.endCustomerId,
      firstName: bills.endCustomerFirstName,
      lastName: bills.endCustomerLastName,
      userType: bills.userType,
      paymentMethod: bills.paymentMethod,
      billingStatus: bills.billingStatus,
      locationName: locations.locationName,
      energyLoaded: bills.energyLoaded,
      netCosts: bills.netCosts,
      vatPercent: bills.vatPercent,
      vatCosts: bills.vatCosts,
      totalTaxedCosts: bills.totalTaxedCosts,
    })
    .from(bills)
    .leftJoin(locations, eq(locations.locationId, bills.locationId))
    .where(and(billsInRange(scope, f), afterBill(after)))
    .orderBy(asc(bills.billGenerationDate), asc(bills.billId))
    .limit(size);
}
export type BillCsvRow = Awaited<ReturnType<typeof billCsvPage>>[number];
