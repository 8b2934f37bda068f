import contentDisposition from 'content-disposition';
import type { Context } from 'hono';
import { berlinDate } from '../../../contract/contracts';
import { downloadFileNames, standardCsvQuerySchema } from '../../../contract/downloads';
import { routeTable } from '../http/route-table';
import type { AppBindings } from '../http/types';
import { parseQuery } from '../http/validate';
import { billingCsv } from './billing-csv';

/** A streamed file, or 204 when the range holds nothing (spec 1 §8). */
export function fileAnswer(c: Context<AppBindings>, file: ReadableStream | undefined, name: string, type: string) {
  if (!file) return c.body(null, 204);
  return c.body(file, 200, {
    'Content-Type': type,
    'Content-Disposition': contentDisposition(name),
    'Cache-Control': 'private, no-store',
  });
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
]);
