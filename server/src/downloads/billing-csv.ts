import { berlinDate } from '../../../contract/contracts';
import type { Scope } from '../auth/scope';
import { assertVisible } from '../auth/scope';
import { EXPORT_PAGE, keysetPages, mapAsync } from '../bookings/handlers';
import { day, decimal, germanCsv, type CsvCell } from '../bookings/german-csv';
import type { Db } from '../db/client';
import de from '../../../locales/de.json' with { type: 'json' };
import { billCsvPage, billCursor, type BillCsvRow, type BillRange } from './queries';

/** The billing CSV (`GET /bookings/standard-csv`, spec 3 §7): one line per bill, its net, VAT and gross. */

export const billingCsvColumns = [
  'Rechnungsnummer',
  'Rechnungsdatum',
  'Leistungszeitraum von',
  'Leistungszeitraum bis',
  'Kundennummer',
  'Vorname',
  'Nachname',
  'Nutzertyp',
  'Zahlungsart',
  'Status',
  'Standort',
  'Energie (kWh)',
  'Netto (EUR)',
  'USt-Satz (%)',
  'USt (EUR)',
  'Brutto (EUR)',
];

const label = (labels: Record<string, string>, v: string | null) => (v === null ? '' : (labels[v] ?? v));

const billRecord = (b: BillCsvRow): CsvCell[] => [
  b.billNumber,
  day(berlinDate(b.billGenerationDate)),
  day(b.startDate),
  day(b.endDate),
  b.endCustomerId,
  b.firstName,
  b.lastName,
  label(de.users.userTypes, b.userType),
  label(de.users.paymentMethods, b.paymentMethod),
  label(de.users.billStatuses, b.billingStatus),
  b.locationName,
  decimal(b.energyLoaded, 3),
  decimal(b.netCosts, 2),
  decimal(b.vatPercent, 2),
  decimal(b.vatCosts, 2),
  decimal(b.totalTaxedCosts, 2),
];

/** The file, or undefined for a range without bills; a foreign location is a 404 before any byte. */
export async function billingCsv(db: Db, scope: Scope, f: BillRange, pageSize = EXPORT_PAGE): Promise<ReadableStream | undefined> {
  if (Array.isArray(f.locationIds)) await assertVisible(db, scope, 'location', f.locationIds);
  const first = await billCsvPage(db, scope, f, pageSize);
  if (first.length === 0) return undefined;
  const rows = keysetPages(first, pageSize, billCursor, (after) => billCsvPage(db, scope, f, pageSize, after));
  return germanCsv(billingCsvColumns, mapAsync(rows, billRecord));
}
