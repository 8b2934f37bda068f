import { downloadFileNames, erpExportErrorCodes, sepaDebitErrorCodes } from '../../../../contract/downloads';
import { apiRequest } from '../../../api/client';
import { isApiError } from '../../../api/errors';
import { toWire, todayLocal } from '../../../ui/date-range';
import { ALL_LOCATIONS } from './download-search';

/** The files of the download center (spec 3 §2, §7; DATEV and the SEPA file beyond the spec). */
export type DownloadKind = 'history' | 'invoices' | 'erpXml' | 'datev' | 'sepa';

export interface DownloadQuery {
  /** Ids, or [ALL_LOCATIONS]. */
  locations: readonly string[];
  startDate: string;
  endDate: string;
  chargingType?: 'NORMAL' | 'AD_HOC';
  cpoId?: string;
  paymentMethod?: 'SEPA' | 'BANK_TRANSFER' | 'STRIPE_SEPA' | 'STRIPE_CARD';
  /** The SEPA file's day the bank collects on, yyyy-MM-dd. */
  collectionDate?: string;
}

const paths: Record<DownloadKind, string> = {
  history: '/bookings/charging-history/export',
  invoices: '/bookings/standard-csv',
  erpXml: '/bookings/generate/xml',
  datev: '/bookings/generate/datev',
  sepa: '/bookings/generate/sepa',
};

/** Used when the answer names no file (spec 3 §2: 'else a default'). */
export function fallbackName(kind: DownloadKind, today = toWire(todayLocal())): string {
  if (kind === 'history') return `Ladehistorie_${today.replaceAll('-', '')}.csv`;
  if (kind === 'invoices') return downloadFileNames.standardCsv(today);
  if (kind === 'sepa') return downloadFileNames.sepa('SEPA', today);
  return kind === 'erpXml' ? downloadFileNames.erpXml(today) : downloadFileNames.datev(today);
}

/** The request's query string fields: locations as a comma list or 'all'. */
export function downloadParams(kind: DownloadKind, q: DownloadQuery): Record<string, string> {
  if (kind === 'sepa') return { cpoId: q.cpoId ?? '', collectionDate: q.collectionDate ?? '' };
  const locationIds = q.locations.includes(ALL_LOCATIONS) ? ALL_LOCATIONS : q.locations.join(',');
  const range = { startDate: q.startDate, endDate: q.endDate, locationIds };
  if (kind === 'history') return { ...range, exportType: 'CSV', chargingType: q.chargingType ?? 'NORMAL' };
  if (kind === 'invoices') return { ...range, exportType: 'CSV' };
  return { ...range, cpoId: q.cpoId ?? '', paymentMethod: q.paymentMethod ?? 'SEPA' };
}

export type DownloadOutcome =
  | { kind: 'saved'; blob: Blob; filename: string }
  | { kind: 'noData' }
  | { kind: 'notFound' }
  | { kind: 'missingInfo'; code: string; detail: unknown }
  | { kind: 'oneYear' }
  | { kind: 'failed' };

/** The codes each file kind answers with what is missing (contract/downloads.ts). */
const missingInfoCodes: Partial<Record<DownloadKind, readonly string[]>> = {
  erpXml: erpExportErrorCodes,
  datev: erpExportErrorCodes,
  sepa: sepaDebitErrorCodes,
};

/**
 * Runs one download and says what became of it. ERP codes come before the 404 rule: several of
 * them are 404s that name what is missing (spec 3 §8), not a missing page.
 */
export async function runDownload(
  kind: DownloadKind,
  q: DownloadQuery,
  onProgress: (received: number) => void,
  signal: AbortSignal,
): Promise<DownloadOutcome> {
  try {
    const result = await apiRequest({
      service: 'bookingService',
      path: paths[kind],
      query: downloadParams(kind, q),
      responseType: 'blob',
      background: true,
      onDownloadProgress: (received) => onProgress(received),
      signal,
    });
    if (result.status === 204 || result.blob.size === 0) return { kind: 'noData' };
    return { kind: 'saved', blob: result.blob, filename: result.filename ?? fallbackName(kind) };
  } catch (error) {
    if (signal.aborted) throw error;
    if (!isApiError(error)) throw error;
    const codes = missingInfoCodes[kind];
    if (codes) {
      if (codes.includes(error.errorCodeResponse) || error.status === 422)
        return { kind: 'missingInfo', code: error.errorCodeResponse, detail: error.errorDetail };
      if (error.issues.some((i) => i.message === 'datevOneYear')) return { kind: 'oneYear' };
    }
    if (error.status === 404) return { kind: 'notFound' };
    return { kind: 'failed' };
  }
}
