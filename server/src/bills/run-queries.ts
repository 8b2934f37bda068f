import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts, contractTariffs, pendingTariffChanges } from '../db/schema/contracts';
import { operators } from '../db/schema/operators';
import { withIssuedDocuments, type IssuedBill } from './document';

/** The SQL of the bill run and the regeneration (issue 24). */

/** Contract statuses that are billed: the ones a contract has once it has been ACTIVE. */
export const BILLED_CONTRACT_STATUSES = ['ACTIVE', 'BLOCKED', 'EXPIRED'] as const;

/**
 * Which charging requests a bill counts: `finished` only, the Finished group of spec 3 §4 (the
 * history's 'Completed' filter). `broken` is a fault (the 'Failed' filter) and the rest never
 * delivered a session or are still running; none of them is billed.
 */
export const BILLED_REQUEST_STATUS = 'finished';

const contractColumns = {
  contractKey: contracts.contractKey,
  cpoId: contracts.cpoId,
  locationId: contracts.locationId,
  endCustomerId: contracts.endCustomerId,
  firstName: contracts.firstName,
  lastName: contracts.lastName,
  userType: contracts.userType,
  billingCycle: contracts.billingCycle,
  startDate: contracts.startDate,
  endDate: contracts.endDate,
  paymentMethod: contracts.paymentMethod,
  vatRate: contracts.vatId,
  billNumberPrefix: operators.billNumberPrefix,
};

/**
 * The contracts a run for the month `[first, last]` may bill: WITH_BILLING, not GLOBAL_ADMIN, once
 * ACTIVE, started by the month's end and not ended before it began (whose period ends in the month
 * is decided by `periodEndingIn`). In key order, so a run is repeatable.
 */
export async function contractsToBill(db: Db, first: string, last: string, keys?: readonly string[]) {
  const [year, month] = first.split('-').map(Number);
  return db
    .select({
      ...contractColumns,
      // A bill of a period made by this month's run already: nothing left to do for it (an IMMEDIATE
      // contract's bills name their request, and the month may have new ones).
      billedThisMonth: sql<boolean>`exists (select 1 from ${bills} b where b.contract_key = ${contracts.contractKey}
        and b.charging_request_id is null and b.year_number = ${year} and b.month_number = ${month})`,
    })
    .from(contracts)
    .innerJoin(operators, eq(operators.cpoId, contracts.cpoId))
    .where(
      and(
        eq(contracts.billingType, 'WITH_BILLING'),
        sql`${contracts.userType} <> 'GLOBAL_ADMIN'`,
        inArray(contracts.contractStatus, [...BILLED_CONTRACT_STATUSES]),
        lte(contracts.startDate, last),
        or(isNull(contracts.endDate), gte(contracts.endDate, first)),
        keys ? inArray(contracts.contractKey, [...keys]) : undefined,
      ),
    )
    .orderBy(asc(contracts.contractKey));
}

export type BilledContract = Awaited<ReturnType<typeof contractsToBill>>[number];

export type TariffRow = typeof contractTariffs.$inferSelect;

/**
 * The tariff histories of these contracts, each sorted by its start, with the tariff changes not
 * yet applied (`pendingTariffChanges`) in them from their date: the bill run, the CLI and the
 * regeneration never depend on `applyDueTariffChanges` having run first, so a change dated inside a
 * period always gives that period two price blocks. One statement (one snapshot): a change being
 * applied by another instance meanwhile is seen once, as pending or as history. A pending change
 * wins over a history row of the same date (it is the newer word); of two pending ones of a date the later.
 */
export async function tariffHistories(db: Db, keys: readonly string[]): Promise<Map<string, TariffRow[]>> {
  const byContract = new Map<string, TariffRow[]>();
  if (keys.length === 0) return byContract;
  const history = db
    .select({
      contractKey: contractTariffs.contractKey,
      validFrom: sql<string>`${contractTariffs.validFrom}::text`.as('valid_from'),
      fixTariff: sql<string>`${contractTariffs.fixTariff}::text`.as('fix_tariff'),
      varTariff: sql<string>`${contractTariffs.varTariff}::text`.as('var_tariff'),
      onboardingFee: sql<string>`${contractTariffs.onboardingFee}::text`.as('onboarding_fee'),
      fixTariffPerChargingRequest: sql<string>`${contractTariffs.fixTariffPerChargingRequest}::text`.as('fix_tariff_per_charging_request'),
      pendingId: sql<number>`0`.as('pending_id'),
    })
    .from(contractTariffs)
    .where(inArray(contractTariffs.contractKey, [...keys]));
  const pending = db
    .select({
      contractKey: pendingTariffChanges.contractKey,
      validFrom: sql<string>`${pendingTariffChanges.newTariffDate}::text`.as('valid_from'),
      fixTariff: sql<string>`${pendingTariffChanges.fixTariff}::text`.as('fix_tariff'),
      varTariff: sql<string>`${pendingTariffChanges.varTariff}::text`.as('var_tariff'),
      onboardingFee: sql<string>`${pendingTariffChanges.onboardingFee}::text`.as('onboarding_fee'),
      fixTariffPerChargingRequest: sql<string>`${pendingTariffChanges.fixTariffPerChargingRequest}::text`.as(
        'fix_tariff_per_charging_request',
      ),
      pendingId: sql<number>`${pendingTariffChanges.id}`.as('pending_id'),
    })
    .from(pendingTariffChanges)
    .where(and(inArray(pendingTariffChanges.contractKey, [...keys]), isNull(pendingTariffChanges.appliedAt)));
  const rows = await unionAll(history, pending);
  rows.sort(
    (a, b) =>
      (a.contractKey < b.contractKey ? -1 : a.contractKey > b.contractKey ? 1 : 0) ||
      (a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0) ||
      Number(a.pendingId) - Number(b.pendingId),
  );
  for (const { pendingId: _, ...r } of rows) {
    const list = byContract.get(r.contractKey) ?? [];
    // Sorted: a later row of the same date replaces the one before it.
    if (list.at(-1)?.validFrom === r.validFrom) list[list.length - 1] = r;
    else list.push(r);
    byContract.set(r.contractKey, list);
  }
  return byContract;
}

export interface RequestRow {
  transactionId: string;
  /** Berlin date of its start: the day a request is billed on. */
  day: string;
  energyKwh: string;
}

const berlinMidnight = (day: string) => sql`(${day}::date::timestamp at time zone 'Europe/Berlin')`;

/**
 * The finished charging requests of these contracts that started on the Berlin days `[from, to]`,
 * by contract, in start order.
 */
export async function billedRequests(
  db: Db,
  keys: readonly string[],
  from: string,
  to: string,
  transactionId?: string,
): Promise<Map<string, RequestRow[]>> {
  const byContract = new Map<string, RequestRow[]>();
  if (keys.length === 0) return byContract;
  const rows = await db
    .select({
      contractKey: chargingRequests.contractKey,
      transactionId: chargingRequests.transactionId,
      day: sql<string>`to_char(${chargingRequests.startDate} at time zone 'Europe/Berlin', 'YYYY-MM-DD')`,
      energyKwh: chargingRequests.energyKwh,
    })
    .from(chargingRequests)
    .where(
      and(
        inArray(chargingRequests.contractKey, [...keys]),
        eq(chargingRequests.status, BILLED_REQUEST_STATUS),
        sql`${chargingRequests.startDate} >= ${berlinMidnight(from)}`,
        sql`${chargingRequests.startDate} < ${berlinMidnight(to)} + interval '1 day'`,
        transactionId ? eq(chargingRequests.transactionId, transactionId) : undefined,
      ),
    )
    .orderBy(asc(chargingRequests.startDate), asc(chargingRequests.transactionId));
  for (const r of rows) {
    const list = byContract.get(r.contractKey!) ?? [];
    list.push({ transactionId: r.transactionId, day: r.day, energyKwh: r.energyKwh });
    byContract.set(r.contractKey!, list);
  }
  return byContract;
}

export interface BillsSoFar {
  startDate: string;
  endDate: string;
  chargingRequestId: string | null;
  monthNumber: number;
  yearNumber: number;
}

/**
 * Locks the contract for billing (`for update skip locked`: another instance billing it now makes
 * this one skip it) and answers the bills it has; undefined when it is locked. The bills are read
 * in a statement after the lock: one statement's snapshot may predate the commit of the instance
 * that held the lock a moment ago, and would miss the bill it just made.
 */
export async function lockForBilling(db: Db, contractKey: string): Promise<BillsSoFar[] | undefined> {
  const [locked] = await db
    .select({ key: contracts.contractKey })
    .from(contracts)
    .where(eq(contracts.contractKey, contractKey))
    .for('update', { skipLocked: true });
  if (!locked) return undefined;
  return db
    .select({
      startDate: bills.startDate,
      endDate: bills.endDate,
      chargingRequestId: bills.chargingRequestId,
      monthNumber: bills.monthNumber,
      yearNumber: bills.yearNumber,
    })
    .from(bills)
    .where(eq(bills.contractKey, contractKey));
}

/** The bills these contracts have, by contract (the batch way, where nothing else writes bills). */
export async function billsOfContracts(db: Db, keys: readonly string[]): Promise<Map<string, BillsSoFar[]>> {
  const byContract = new Map<string, BillsSoFar[]>();
  if (keys.length === 0) return byContract;
  const rows = await db
    .select({
      contractKey: bills.contractKey,
      startDate: bills.startDate,
      endDate: bills.endDate,
      chargingRequestId: bills.chargingRequestId,
      monthNumber: bills.monthNumber,
      yearNumber: bills.yearNumber,
    })
    .from(bills)
    .where(inArray(bills.contractKey, [...keys]));
  for (const { contractKey, ...b } of rows) byContract.set(contractKey, [...(byContract.get(contractKey) ?? []), b]);
  return byContract;
}

/** Issues bills: each inserted with the snapshot of what its invoice says (`issued_document`, issue 35). */
export async function insertBills(db: Db, rows: (typeof bills.$inferInsert & IssuedBill)[]): Promise<void> {
  if (rows.length > 0) await db.insert(bills).values(await withIssuedDocuments(db, rows));
}
