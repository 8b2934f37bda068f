import type { z } from 'zod/mini';
import type { billingStatusUpdateBodySchema } from '../../../contract/contract-bookings';
import { assertVisible, notFound, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import de from '../../../locales/de.json' with { type: 'json' };
import { dateTime, decimal, germanCsv, type CsvCell } from './german-csv';
import { historyExportPage, lockBills, setBillingStatus, type HistoryExportFilter, type HistoryExportRow } from './queries';

/** The booking service's rules: payment statuses of bills, the charging-history file (spec 2 §2, §7). */

/** Every named bill gets its status, all or none (spec 2 §2 payment-status change). */
export async function updateBillingStatuses(
  db: Db,
  scope: Scope,
  items: z.output<typeof billingStatusUpdateBodySchema>,
): Promise<{ updated: number }> {
  const numbers = items.map((i) => i.billingNumber);
  const found = new Set((await lockBills(db, scope, numbers)).map((b) => b.billNumber));
  const missing = numbers.filter((n) => !found.has(n));
  if (missing.length > 0) throw notFound('bill', missing);
  let updated = 0;
  for (const status of ['PAID', 'UNPAID'] as const) {
    updated += await setBillingStatus(
      db,
      items.filter((i) => i.billingStatus === status).map((i) => i.billingNumber),
      status,
    );
  }
  return { updated };
}

// ---------------------------------------------------------------------------------------------
// The charging-history file
// ---------------------------------------------------------------------------------------------

/** Rows read per statement: the file streams page by page (keyset), never whole in memory. */
export const EXPORT_PAGE = 1000;

export const historyCsvColumns = [
  'Transaktions-ID',
  'Kundennummer',
  'Name',
  'Standort',
  'Adresse',
  'Parkplatz',
  'Autorisierung',
  'RFID-Seriennummer',
  'RFID-Tag',
  'Ladeart',
  'Status',
  'Beginn',
  'Ende',
  'Letzte Aktualisierung',
  'Energie (kWh)',
  'Kosten (EUR)',
];

/**
 * The file is German throughout (headers, decimal comma, Berlin times), so its enum cells read as the
 * German screens do, from the same messages; an unknown value stays as it is rather than blank.
 */
const germanLabel = (labels: Record<string, string>, value: string) => labels[value] ?? value;
const chargingTypeLabels: Record<string, string> = { NORMAL: 'Normal', AD_HOC: 'Ad-hoc' };

const csvRecord = (r: HistoryExportRow): CsvCell[] => [
  r.transactionId,
  r.endCustomerId,
  r.customerFullName,
  r.locationName,
  [r.careOf ? `c/o ${r.careOf}` : '', r.street, `${r.zipCode} ${r.city}`].filter(Boolean).join(', '),
  r.parkingLot,
  germanLabel(de.users.authTypes, r.authType),
  r.rfidSerialId,
  r.rfidTag,
  germanLabel(chargingTypeLabels, r.chargingType),
  germanLabel(de.chargingRequest.status, r.status),
  dateTime(r.startDate),
  dateTime(r.endDate),
  dateTime(r.lastUpdateTimestamp),
  decimal(r.energyKwh, 3),
  decimal(r.cost, 2),
];

/**
 * Pages of a keyset read, the first one given: each next page is read only when the consumer asks
 * for it, so a client that goes away (the stream is cancelled) stops the reading between pages.
 */
export async function* keysetPages<R, C>(first: R[], size: number, cursorOf: (last: R) => C, next: (after: C) => Promise<R[]>) {
  let rows = first;
  for (;;) {
    yield* rows;
    if (rows.length < size) return;
    rows = await next(cursorOf(rows[rows.length - 1]));
  }
}

/**
 * The charging history of one contract, or of locations (and a charging type), in a date range as
 * CSV for German Excel, or undefined when the range has none. Named ids are checked and the first
 * page is read before answering, so a contract or location outside the scope is a 404 for the whole
 * request and an empty range a 204; the rest streams a page at a time.
 */
export async function historyCsv(
  db: Db,
  scope: Scope,
  f: HistoryExportFilter,
  pageSize = EXPORT_PAGE,
): Promise<ReadableStream | undefined> {
  if (f.contractKey) await assertVisible(db, scope, 'contract', [f.contractKey]);
  if (Array.isArray(f.locationIds)) await assertVisible(db, scope, 'location', f.locationIds);
  const first = await historyExportPage(db, scope, f, pageSize);
  if (first.length === 0) return undefined;
  const rows = keysetPages(
    first,
    pageSize,
    (r) => ({ startDate: r.startDate, transactionId: r.transactionId }),
    (after) => historyExportPage(db, scope, f, pageSize, after),
  );
  return germanCsv(historyCsvColumns, mapAsync(rows, csvRecord));
}

export async function* mapAsync<T, U>(items: AsyncIterable<T>, fn: (item: T) => U) {
  for await (const item of items) yield fn(item);
}
