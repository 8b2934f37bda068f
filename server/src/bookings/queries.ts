import { and, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { chargingTypes } from '../../../contract/enums';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { locations } from '../db/schema/locations';

/** The bills with these numbers among the caller's operators', locked until the transaction ends. */
export async function lockBills(db: Db, scope: Scope, billNumbers: string[]) {
  return db
    .select({ billNumber: bills.billNumber, billingStatus: bills.billingStatus })
    .from(bills)
    .where(and(inArray(bills.billNumber, billNumbers), scope.where(bills.cpoId)))
    .for('update');
}

/** Sets the status of the bills that do not have it yet; answers how many changed. */
export async function setBillingStatus(db: Db, billNumbers: string[], status: 'PAID' | 'UNPAID'): Promise<number> {
  if (billNumbers.length === 0) return 0;
  const changed = await db
    .update(bills)
    .set({ billingStatus: status })
    .where(and(inArray(bills.billNumber, billNumbers), or(isNull(bills.billingStatus), ne(bills.billingStatus, status))))
    .returning({ billNumber: bills.billNumber });
  return changed.length;
}

/** Which charging requests a history file holds: one contract's, or those of locations (all: the scope's). */
export interface HistoryExportFilter {
  contractKey?: string;
  locationIds?: string[] | 'all';
  chargingType?: (typeof chargingTypes)[number];
  startDate: string;
  endDate: string;
}
export interface HistoryExportCursor {
  startDate: Date;
  transactionId: string;
}

/** First instant of a Berlin calendar day, and of the day after: constants, so the start-date indexes apply. */
const dayStart = (day: string) => sql`((${day}::date)::timestamp at time zone 'Europe/Berlin')`;
const dayAfter = (day: string) => sql`(((${day}::date) + 1)::timestamp at time zone 'Europe/Berlin')`;

/**
 * One page of a history file, newest first, read on after `after` (keyset: the (start, transaction)
 * order of the indexes), so the millionth row costs what the first does. No total: a file needs none.
 */
export async function historyExportPage(db: Db, scope: Scope, f: HistoryExportFilter, size: number, after?: HistoryExportCursor) {
  const r = chargingRequests;
  return db
    .select({
      transactionId: r.transactionId,
      endCustomerId: r.endCustomerId,
      customerFullName: r.customerFullName,
      parkingLot: r.parkingLot,
      authType: r.authType,
      rfidTag: r.rfidTag,
      rfidSerialId: r.rfidSerialId,
      chargingType: r.chargingType,
      status: r.status,
      startDate: r.startDate,
      endDate: r.endDate,
      lastUpdateTimestamp: r.lastUpdateTimestamp,
      energyKwh: r.energyKwh,
      cost: r.cost,
      locationName: locations.locationName,
      careOf: locations.careOf,
      street: locations.street,
      zipCode: locations.zipCode,
      city: locations.city,
    })
    .from(r)
    .innerJoin(locations, eq(locations.locationId, r.locationId))
    .where(
      and(
        scope.where(r.cpoId),
        f.contractKey ? eq(r.contractKey, f.contractKey) : undefined,
        Array.isArray(f.locationIds) ? inArray(r.locationId, f.locationIds) : undefined,
        f.chargingType ? eq(r.chargingType, f.chargingType) : undefined,
        gte(r.startDate, sql`${dayStart(f.startDate)}`),
        lt(r.startDate, sql`${dayAfter(f.endDate)}`),
        // The redundant `start <= cursor` lets the index range start at the cursor: the OR alone is
        // no index bound, and every page would walk the index from the newest row (quadratic).
        after ? lte(r.startDate, sql`${after.startDate.toISOString()}::timestamptz`) : undefined,
        after
          ? sql`(${r.startDate} < ${after.startDate.toISOString()}::timestamptz or (${r.startDate} = ${after.startDate.toISOString()}::timestamptz and ${r.transactionId} < ${after.transactionId}))`
          : undefined,
      ),
    )
    .orderBy(sql`${r.startDate} desc nulls last`, sql`${r.transactionId} desc nulls last`)
    .limit(size);
}
export type HistoryExportRow = Awaited<ReturnType<typeof historyExportPage>>[number];
