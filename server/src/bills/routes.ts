import { billListQuerySchema } from '../../../contract/bills';
import { ApiError } from '../http/errors';
import { paged } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseQuery } from '../http/validate';
import { listBills } from './queries';

/** The bills area's calls on the booking service (spec 3 §7). */
export const billRoutes = routeTable('bookingService', [
  {
    method: 'GET',
    path: '/bookings/get-bills/operator',
    access: 'user',
    handler: async (c) => {
      const q = parseQuery(c, billListQuerySchema);
      // Spec 3 §5: the end of the range is not before its start (the screen's rule, said again here).
      if (q.startDate && q.endDate && q.endDate < q.startDate)
        throw new ApiError(400, 'VALIDATION_ERROR', 'endDate before startDate', undefined, [
          { path: 'endDate', message: 'endBeforeStart' },
        ]);
      const { total, rows } = await listBills(c.get('db'), c.get('auth').scope, q);
      return paged(c, total, rows);
    },
  },
]);
