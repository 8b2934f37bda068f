import * as z from 'zod/mini';
import {
  createLocationBodySchema,
  locationListQuerySchema,
  parkingInfoQuerySchema,
  updateLocationBodySchema,
} from '../../../contract/locations';
import { etagFor } from '../../../contract/stations';
import { ok, paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { expectedVersion } from '../http/versions';
import { getLocationDetail, getParkingInfo, listLocations, listWallboxTypes } from './queries';
import { assertOperatorVisible, createLocation, locationNotFound, updateLocation } from './handlers';
import { routeTable } from '../http/route-table';

const idParams = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

/**
 * BFF location routes (spec 1 §7, spec 2 §7). Registered after the cockpit's
 * `/locations/get-by-cpo-for-dropdown`, and the fixed paths before `/locations/:id`.
 */
export const locationRoutes = [
  ...routeTable('bff', [
    {
      method: 'GET',
      path: '/locations/get-by-cpo',
      access: 'user',
      // The locations page's list: one statement per request.
      callerInStatement: true,
      handler: async (c) => {
        const q = parseQuery(c, locationListQuerySchema);
        if (q.cpoId) await assertOperatorVisible(c.get('db'), c.get('auth').scope, q.cpoId);
        const { total, rows } = await listLocations(c.get('db'), c.get('auth').scope, q, c.get('callerCheck'));
        return paged(c, total, rows);
      },
    },

    {
      method: 'POST',
      path: '/locations/location',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, createLocationBodySchema);
        return ok(c, await createLocation(c.get('db'), c.get('auth').scope, body));
      },
    },

    { method: 'GET', path: '/locations/wallboxTypes', access: 'user', handler: async (c) => ok(c, await listWallboxTypes(c.get('db'))) },

    {
      method: 'GET',
      path: '/locations/parking-info',
      access: 'user',
      handler: async (c) => {
        const { locationId } = parseQuery(c, parkingInfoQuerySchema);
        const info = await getParkingInfo(c.get('db'), c.get('auth').scope, locationId);
        if (!info) throw locationNotFound(locationId);
        return ok(c, info);
      },
    },

    {
      method: 'PUT',
      path: '/locations/update-location',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, updateLocationBodySchema);
        const version = body.version ?? expectedVersion(c.req.header('if-match'));
        const updated = await updateLocation(c.get('db'), c.get('auth').scope, body, version);
        c.header('ETag', etagFor(updated.version));
        return ok(c, updated);
      },
    },

    {
      method: 'GET',
      path: '/locations/:id',
      access: 'user',
      handler: async (c) => {
        const { id } = parseParams(c, idParams);
        const detail = await getLocationDetail(c.get('db'), c.get('auth').scope, id);
        if (!detail) throw locationNotFound(id);
        c.header('ETag', etagFor(detail.version));
        return ok(c, detail);
      },
    },
  ]),
];
