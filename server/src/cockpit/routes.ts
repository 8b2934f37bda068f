import type { Hono } from 'hono';
import {
  COCKPIT_TIME_ZONE,
  chargingHistoryQuerySchema,
  cleanChargingRequestsBodySchema,
  graphQuerySchema,
  locationDropdownQuerySchema,
} from '../../../contract/cockpit';
import { requireAuth } from '../auth/middleware';
import { ApiError } from '../http/errors';
import { ok, paged } from '../http/respond';
import type { AppBindings } from '../http/types';
import { parseBody, parseQuery, parseWith } from '../http/validate';
import { cleanStuckRequests, getChargingHistory, getGraph, getLocationsForDropdown } from './queries';

const berlinDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: COCKPIT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
/** yyyy-MM-dd of `now` in Europe/Berlin. */
export const berlinToday = (now = new Date()) => berlinDay.format(now);

/** Cockpit reads on the BFF: KPIs + chart, the location select, and the admin clean action. */
export function registerCockpitBffRoutes(bff: Hono<AppBindings>) {
  bff.get('/kpi/get-graph', requireAuth, async (c) => {
    const q = parseQuery(c, graphQuerySchema);
    return ok(c, await getGraph(c.var.db, c.var.auth.scope, q, berlinToday()));
  });

  bff.get('/locations/get-by-cpo-for-dropdown', requireAuth, async (c) => {
    const { cpoId } = parseQuery(c, locationDropdownQuerySchema);
    if (cpoId && !c.var.auth.scope.canSeeOperator(cpoId)) throw new ApiError(404, 'OPERATOR_NOT_FOUND', `Operator ${cpoId} not found`);
    return ok(c, await getLocationsForDropdown(c.var.db, c.var.auth.scope, cpoId));
  });

  bff.put('/charging-requests/clean', requireAuth, async (c) => {
    if (!c.var.auth.isAdmin) throw new ApiError(403, 'FORBIDDEN', 'Only platform admins may clean charging requests');
    // The threshold may come as JSON body or, as some clients send it, as a query parameter.
    const query = c.req.query('minutesThreshold');
    const { minutesThreshold } =
      query !== undefined ? parseWith(cleanChargingRequestsBodySchema, { minutesThreshold: query }) : await parseBody(c, cleanChargingRequestsBodySchema);
    const changed = await cleanStuckRequests(c.var.db, c.var.auth.scope, minutesThreshold, new Date());
    return ok(c, { changed });
  });
}

/** Booking service: the charging history (cockpit table, user page, station page). */
export function registerCockpitBookingRoutes(bookingService: Hono<AppBindings>) {
  bookingService.get('/bookings/get-charging-history', requireAuth, async (c) => {
    const q = parseQuery(c, chargingHistoryQuerySchema);
    const { total, rows } = await getChargingHistory(c.var.db, c.var.auth.scope, q);
    return paged(c, total, rows);
  });
}
