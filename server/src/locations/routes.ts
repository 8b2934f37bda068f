import * as z from 'zod/mini';
import {
  createLocationBodySchema,
  locationDropdownQuerySchema,
  locationListQuerySchema,
  parkingInfoQuerySchema,
  updateLocationBodySchema,
} from '../../../contract/locations';
import { etagFor } from '../../../contract/stations';
import { ok, paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { expectedVersion } from '../http/versions';
import { getLocationDetail, getLocationsForDropdown, getParkingInfo, listLocations, listWallboxTypes } from './queries';
import { assertOperatorVisible, createLocation, locationNotFound, updateLocation } from './handlers';
import { routeTable } from '../http/route-table';

const idParams = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

/** BFF location routes (spec 1 §7, spec 2 §7), with the location select of every other area's forms and filters. */
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
      method: 'GET',
      path: '/locations/get-by-cpo-for-dropdown',
      access: 'user',
      handler: async (c) => {
        const { cpoId } = parseQuery(c, locationDropdownQuerySchema);
        if (cpoId) await assertOperatorVisible(c.get('db'), c.get('auth').scope, cpoId);
        return ok(c, await getLocationsForDropdown(c.get('db'), c.get('auth').scope, cpoId));
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
