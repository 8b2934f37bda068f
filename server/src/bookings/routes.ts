import contentDisposition from 'content-disposition';
import { berlinDate } from '../../../contract/contracts';
import { billingStatusUpdateBodySchema, historyExportFileName, historyExportQuerySchema } from '../../../contract/contract-bookings';
import { locationHistoryExportQuerySchema } from '../../../contract/downloads';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody, parseQuery } from '../http/validate';
import { historyCsv, updateBillingStatuses } from './handlers';

/** Booking service calls of the users area (spec 2 §7): payment statuses and the history file. */
export const bookingRoutes = routeTable('bookingService', [
  {
    method: 'PUT',
    path: '/bookings/billing-status-update',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, billingStatusUpdateBodySchema);
      return ok(c, await updateBillingStatuses(c.get('db'), c.get('auth').scope, body));
    },
  },

  {
    method: 'GET',
    path: '/bookings/charging-history/export',
    access: 'user',
    download: true,
    handler: async (c) => {
      // One contract's history (the users area) or that of locations (the download center).
      const q =
        c.req.query('contractKey') === undefined
          ? parseQuery(c, locationHistoryExportQuerySchema)
          : parseQuery(c, historyExportQuerySchema);
      const file = await historyCsv(c.get('db'), c.get('auth').scope, q);
      if (!file) return c.body(null, 204);
      return c.body(file, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': contentDisposition(historyExportFileName(berlinDate(new Date()))),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  },
]);
