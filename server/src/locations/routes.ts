import * as z from 'zod/mini';
import {
  createLocationBodySchema,
  locationDropdownQuerySchema,
  locationListQuerySchema,
  parkingInfoQuerySchema,
  updateLocationBodySchema,
} from '../../../contract/locations';
import { ok, paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { okWithVersion, versionToCheck } from '../http/versions';
import { assertVisible, foundOr404 } from '../auth/scope';
import { getLocationDetail, getLocationsForDropdown, getParkingInfo, listLocations, listWallboxTypes } from './queries';
import { createLocation, updateLocation } from './handlers';
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
        if (q.cpoId) await assertVisible(c.get('db'), c.get('auth').scope, 'operator', [q.cpoId]);
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
        if (cpoId) await assertVisible(c.get('db'), c.get('auth').scope, 'operator', [cpoId]);
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
        return ok(c, await foundOr404('location', locationId, getParkingInfo(c.get('db'), c.get('auth').scope, locationId)));
      },
    },

    {
      method: 'PUT',
      path: '/locations/update-location',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, updateLocationBodySchema);
        const updated = await updateLocation(c.get('db'), c.get('auth').scope, body, versionToCheck(c, body));
        return okWithVersion(c, updated, updated.version);
      },
    },

    {
      method: 'GET',
      path: '/locations/:id',
      access: 'user',
      handler: async (c) => {
        const { id } = parseParams(c, idParams);
        const detail = await foundOr404('location', id, getLocationDetail(c.get('db'), c.get('auth').scope, id));
        return okWithVersion(c, detail, detail.version);
      },
    },
  ]),
];
