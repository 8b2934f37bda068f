import type { Hono } from 'hono';
import * as z from 'zod';
import {
  createLocationBodySchema,
  locationContractsQuerySchema,
  locationListQuerySchema,
  parkingInfoQuerySchema,
  updateLocationBodySchema,
} from '../../../contract/locations';
import { etagFor } from '../../../contract/stations';
import { requireAuth } from '../auth/middleware';
import { ok, paged } from '../http/respond';
import type { AppBindings } from '../http/types';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { expectedVersion } from '../stations/versions';
import {
  createLocation,
  findLocation,
  getLocationDetail,
  getParkingInfo,
  listLocationContracts,
  listLocations,
  listWallboxTypes,
  locationNotFound,
  operatorNotFound,
  updateLocation,
} from './queries';

const idParams = z.object({ id: z.string().trim().min(1).max(100) });

/**
 * BFF location routes (spec 1 §7, spec 2 §7). Registered after the cockpit's
 * `/locations/get-by-cpo-for-dropdown`, and the fixed paths before `/locations/:id`.
 */
export function registerLocationBffRoutes(bff: Hono<AppBindings>) {
  bff.get('/locations/get-by-cpo', requireAuth, async (c) => {
    const q = parseQuery(c, locationListQuerySchema);
    if (q.cpoId && !c.var.auth.scope.canSeeOperator(q.cpoId)) throw operatorNotFound(q.cpoId);
    const { total, rows } = await listLocations(c.var.db, c.var.auth.scope, q);
    return paged(c, total, rows);
  });

  bff.post('/locations/location', requireAuth, async (c) => {
    const body = await parseBody(c, createLocationBodySchema);
    return ok(c, await createLocation(c.var.db, c.var.auth.scope, body));
  });

  bff.get('/locations/wallboxTypes', requireAuth, async (c) => ok(c, await listWallboxTypes(c.var.db)));

  bff.get('/locations/parking-info', requireAuth, async (c) => {
    const { locationId } = parseQuery(c, parkingInfoQuerySchema);
    const info = await getParkingInfo(c.var.db, c.var.auth.scope, locationId);
    if (!info) throw locationNotFound(locationId);
    return ok(c, info);
  });

  bff.put('/locations/update-location', requireAuth, async (c) => {
    const body = await parseBody(c, updateLocationBodySchema);
    const version = body.version ?? expectedVersion(c.req.header('if-match'));
    const updated = await updateLocation(c.var.db, c.var.auth.scope, body, version);
    c.header('ETag', etagFor(updated.version));
    return ok(c, updated);
  });

  bff.get('/locations/:id', requireAuth, async (c) => {
    const { id } = parseParams(c, idParams);
    const detail = await getLocationDetail(c.var.db, c.var.auth.scope, id);
    if (!detail) throw locationNotFound(id);
    c.header('ETag', etagFor(detail.version));
    return ok(c, detail);
  });
}

/** Contract management: the contracts (users) of one location, /nutzer row shape. */
export function registerLocationContractRoutes(cm: Hono<AppBindings>) {
  cm.get('/location/:id/contracts', requireAuth, async (c) => {
    const { id } = parseParams(c, idParams);
    const q = parseQuery(c, locationContractsQuerySchema);
    const loc = await findLocation(c.var.db, c.var.auth.scope, id);
    if (!loc) throw locationNotFound(id);
    const { total, rows } = await listLocationContracts(c.var.db, loc.locationId, loc.locationName, q);
    return paged(c, total, rows);
  });
}
