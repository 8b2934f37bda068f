import contentDisposition from 'content-disposition';
import type { Context } from 'hono';
import { berlinDate } from '../../../contract/contracts';
import { downloadFileNames, erpExportQuerySchema, standardCsvQuerySchema } from '../../../contract/downloads';
import { ApiError } from '../http/errors';
import { routeTable } from '../http/route-table';
import type { AppBindings } from '../http/types';
import { parseQuery } from '../http/validate';
import { billingCsv } from './billing-csv';
import { erpSource, type ErpQuery } from './erp';
import { erpXml } from './erp-xml';
import { assertOneYear, datevFile, datevNumbers } from './datev';

/** A streamed file, or 204 when the range holds nothing (spec 1 §8). */
export function fileAnswer(c: Context<AppBindings>, file: ReadableStream | undefined, name: string, type: string) {
  if (!file) return c.body(null, 204);
  return c.body(file, 200, {
    'Content-Type': type,
    'Content-Disposition': contentDisposition(name),
    'Cache-Control': 'private, no-store',
  });
}

/**
 * The ERP files are for partners and admins only (spec 3 §6: the ERP tab); the ids are checked
 * first, so a foreign operator reads as a missing one to everybody.
 */
export async function checkedErpSource(c: Context<AppBindings>, checkQuery?: (q: ErpQuery) => void) {
  const auth = c.get('auth');
  const q = parseQuery(c, erpExportQuerySchema);
  checkQuery?.(q);
  const mayExport = () => {
    if (!auth.isAdmin && auth.user.customerType !== 'Partner')
      throw new ApiError(403, 'FORBIDDEN', 'ERP exports are for partners and admins');
  };
  return { q, source: await erpSource(c.get('db'), auth.scope, q, mayExport) };
}

/** The download center's files (spec 3 §2, §7; issue 25); the history file is the bookings area's. */
export const downloadRoutes = routeTable('bookingService', [
  {
    method: 'GET',
    path: '/bookings/standard-csv',
    access: 'user',
    download: true,
    handler: async (c) => {
      const q = parseQuery(c, standardCsvQuerySchema);
      const file = await billingCsv(c.get('db'), c.get('auth').scope, q);
      return fileAnswer(c, file, downloadFileNames.standardCsv(berlinDate(new Date())), 'text/csv; charset=utf-8');
    },
  },

  {
    method: 'GET',
    path: '/bookings/generate/xml',
    access: 'user',
    download: true,
    handler: async (c) => {
      const { q, source } = await checkedErpSource(c);
      const file = source && erpXml(q, source);
      return fileAnswer(c, file, downloadFileNames.erpXml(berlinDate(new Date())), 'application/xml; charset=utf-8');
    },
  },

  {
    method: 'GET',
    path: '/bookings/generate/datev',
    access: 'user',
    download: true,
    handler: async (c) => {
      const { q, source } = await checkedErpSource(c, assertOneYear);
      if (source) datevNumbers(source.accounts);
      const file = source && datevFile(q, source);
      return fileAnswer(c, file, downloadFileNames.datev(berlinDate(new Date())), 'text/csv; charset=windows-1252');
    },
  },
]);
