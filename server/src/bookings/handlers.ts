import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { z } from 'zod/mini';
import { historyCursor, type ChargingRequestRow } from '../../../contract/cockpit';
import type { billingStatusUpdateBodySchema, historyExportQuerySchema } from '../../../contract/contracts';
import { notFound, type Scope } from '../auth/scope';
import { getChargingHistory } from '../cockpit/queries';
import type { Db } from '../db/client';
import de from '../../../locales/de.json' with { type: 'json' };
import { lockBills, setBillingStatus } from './queries';

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
const EXPORT_PAGE = 1000;

const berlin = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const when = (iso: string | null) => (iso ? berlin.format(new Date(iso)).replace(',', '') : '');
const decimal = (n: number, digits: number) => n.toFixed(digits).replace('.', ',');
/** A cell Excel would read as a formula (=, +, -, @, tab, CR first) is kept as text. */
export const safeCell = (v: string | null | undefined) => {
  const s = v ?? '';
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
};

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

const csvRecord = (r: ChargingRequestRow) => [
  r.transactionId,
  safeCell(r.endCustomerId),
  safeCell(r.customerFullName),
  safeCell(r.locationName),
  safeCell(
    [
      r.locationAddress.careOf ? `c/o ${r.locationAddress.careOf}` : '',
      r.locationAddress.street,
      `${r.locationAddress.zipCode} ${r.locationAddress.city}`,
    ]
      .filter(Boolean)
      .join(', '),
  ),
  safeCell(r.parkingLot),
  germanLabel(de.users.authTypes, r.authType),
  safeCell(r.rfidSerialId),
  safeCell(r.rfidTag),
  germanLabel(de.chargingRequest.status, r.status),
  when(r.startDate),
  when(r.endDate),
  when(r.lastUpdateTimestamp),
  decimal(r.energyCharged, 3),
  decimal(r.sessionCost, 2),
];

/**
 * The history of one contract in a date range as CSV for German Excel (UTF-8 with BOM, `;`,
 * decimal comma, Berlin times), or undefined when the range has none. The first page is read
 * before answering, so a contract outside the scope is a 404 and an empty range a 204; the rest
 * streams a page at a time.
 */
export async function historyCsv(
  db: Db,
  scope: Scope,
  q: z.output<typeof historyExportQuerySchema>,
  pageSize = EXPORT_PAGE,
): Promise<ReadableStream | undefined> {
  const page = (after?: string) =>
    getChargingHistory(db, scope, {
      contractKey: q.contractKey,
      startDate: q.startDate,
      endDate: q.endDate,
      filters: [],
      page: 0,
      size: pageSize,
      after,
    });
  const first = (await page()).rows;
  if (first.length === 0) return undefined;
  async function* pages() {
    let rows = first;
    for (;;) {
      for (const r of rows) yield csvRecord(r);
      if (rows.length < pageSize) return;
      rows = (await page(historyCursor(rows[rows.length - 1]))).rows;
    }
  }
  const csv = stringify({ delimiter: ';', bom: true, header: true, columns: historyCsvColumns, record_delimiter: 'windows' });
  return Readable.toWeb(Readable.from(pages()).pipe(csv)) as ReadableStream;
}
