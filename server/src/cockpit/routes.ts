import { berlinDate } from '../../../contract/contracts';
import { chargingHistoryQuerySchema, cleanChargingRequestsBodySchema, graphQuerySchema } from '../../../contract/cockpit';
import { ok, paged } from '../http/respond';
import { parseBody, parseQuery, parseWith } from '../http/validate';
import { cleanStuckRequests, getChargingHistory, getGraph } from './queries';
import { routeTable } from '../http/route-table';
import { assertVisible } from '../auth/scope';

/** yyyy-MM-dd of `now` in Europe/Berlin. */
export const berlinToday = (now = new Date()) => berlinDate(now);

/** Cockpit reads on the BFF: KPIs + chart, and the admin clean action. */
export const cockpitRoutes = [
  ...routeTable('bff', [
    {
      method: 'GET',
      path: '/kpi/get-graph',
      access: 'user',
      handler: async (c) => {
        const q = parseQuery(c, graphQuerySchema);
        await assertVisible(c.get('db'), c.get('auth').scope, 'location', q.locations);
        return ok(c, await getGraph(c.get('db'), c.get('auth').scope, q, berlinToday()));
      },
    },

    {
      method: 'PUT',
      path: '/charging-requests/clean',
      access: 'admin',
      handler: async (c) => {
        // The threshold may come as JSON body or, as some clients send it, as a query parameter.
        const query = c.req.query('minutesThreshold');
        const { minutesThreshold } =
          query !== undefined
            ? parseWith(cleanChargingRequestsBodySchema, { minutesThreshold: query })
            : await parseBody(c, cleanChargingRequestsBodySchema);
        const changed = await cleanStuckRequests(c.get('db'), c.get('auth').scope, minutesThreshold, new Date());
        return ok(c, { changed });
      },
    },
  ]),

  /** Booking service: the charging history (cockpit table, user page, station page). */
  ...routeTable('bookingService', [
    {
      method: 'GET',
      path: '/bookings/get-charging-history',
      access: 'user',
      handler: async (c) => {
        const q = parseQuery(c, chargingHistoryQuerySchema);
        const { total, rows } = await getChargingHistory(c.get('db'), c.get('auth').scope, q);
        return paged(c, total, rows);
      },
    },
  ]),
];
