import contentDisposition from 'content-disposition';
import type { Context } from 'hono';
import { berlinDate } from '../../../contract/contracts';
import {
  downloadFileNames,
  erpExportQuerySchema,
  mayUseDownloadTab,
  sepaDebitQuerySchema,
  standardCsvQuerySchema,
  type DownloadTabName,
} from '../../../contract/downloads';
import { ApiError } from '../http/errors';
import { routeTable } from '../http/route-table';
import type { AppBindings } from '../http/types';
import { parseQuery } from '../http/validate';
import { billingCsv } from './billing-csv';
import { erpSource, type ErpQuery } from './erp';
import { erpXml } from './erp-xml';
import { assertOneYear, datevDebtorDigits, datevFile } from './datev';
import { sepaSource } from './sepa';
import { sepaXml } from './sepa-xml';

/** A streamed file (or one built whole: the SEPA file), or 204 when the range holds nothing (spec 1 §8). */
export function fileAnswer(c: Context<AppBindings>, file: ReadableStream | string | undefined, name: string, type: string) {
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
export async function checkedErpSource(c: Context<AppBindings>, checkQuery?: (q: ErpQuery) => void, datev = false) {
  const q = parseQuery(c, erpExportQuerySchema);
  checkQuery?.(q);
  const source = await erpSource(
    c.get('db'),
    c.get('auth').scope,
    q,
    partnersAndAdmins(c),
    undefined,
    datev ? datevDebtorDigits : undefined,
  );
  return { q, source };
}

/**
 * A tab's files are for the callers who see the tab (spec 3 §6, `downloadTabCustomerTypes`): the
 * invoices for partners, operators and admins, the ERP files (ERP XML, DATEV, SEPA) for partners
 * and admins.
 */
const tabGuard = (c: Context<AppBindings>, tab: DownloadTabName) => () => {
  const auth = c.get('auth');
  if (!mayUseDownloadTab(tab, { isAdmin: auth.isAdmin, customerType: auth.user.customerType }))
    throw new ApiError(403, 'FORBIDDEN', `The ${tab} downloads are not for this account`, { tab });
};
const partnersAndAdmins = (c: Context<AppBindings>) => tabGuard(c, 'erp');

/** The download center's files (spec 3 §2, §7; issue 25); the history file is the bookings area's. */
export const downloadRoutes = routeTable('bookingService', [
  {
    method: 'GET',
    path: '/bookings/standard-csv',
    access: 'user',
    download: true,
    handler: async (c) => {
      const q = parseQuery(c, standardCsvQuerySchema);
      tabGuard(c, 'invoices')();
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
      const { q, source } = await checkedErpSource(c, assertOneYear, true);
      const file = source && datevFile(q, source);
      return fileAnswer(c, file, downloadFileNames.datev(berlinDate(new Date())), 'text/csv; charset=windows-1252');
    },
  },

  {
    // The SEPA direct-debit file of one operator and collection date (issue 26). It records which
    // mandates it collected (FRST, then RCUR) in a transaction of its own, so a refusal records
    // nothing; not the route table's write transaction, whose Idempotency-Key replay answers JSON,
    // never a file.
    method: 'GET',
    path: '/bookings/generate/sepa',
    access: 'user',
    download: true,
    handler: async (c) => {
      const q = parseQuery(c, sepaDebitQuerySchema);
      // The file is made inside: a bill the library refuses leaves no collection recorded either.
      const xml = await c.get('db').transaction(async (tx) => {
        const source = await sepaSource(tx, c.get('auth').scope, q, partnersAndAdmins(c));
        return source && sepaXml(source);
      });
      return fileAnswer(c, xml, downloadFileNames.sepa(q.cpoId, q.collectionDate), 'application/xml; charset=utf-8');
    },
  },
]);
