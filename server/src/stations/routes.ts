import * as z from 'zod/mini';
import {
  changeAvailabilityBodySchema,
  createStationsBodySchema,
  etagFor,
  parkingLotUpdateBodySchema,
  stationListQuerySchema,
} from '../../../contract/stations';
import { ApiError } from '../http/errors';
import { ok, paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { changeAvailability, connectorNotFound, createStations, updateParkingLots } from './handlers';
import { getStationDetail, listStations } from './queries';
import { expectedVersion } from '../http/versions';
import { routeTable } from '../http/route-table';
import { assertLocationsVisible } from '../locations/handlers';

const idParams = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

/**
 * Applies an `If-Match` header to a one-item write (the item's own `version` wins); with several
 * items the versions must travel in the body.
 */
function withIfMatch<T extends { version?: number }>(items: T[], header: string | undefined): T[] {
  const v = expectedVersion(header);
  if (v === undefined) return items;
  if (items.length !== 1) throw new ApiError(400, 'VALIDATION_ERROR', 'If-Match applies to a single connector; send versions in the body');
  return [{ ...items[0], version: items[0].version ?? v }];
}

/** BFF station and connector routes (spec 2 §7). Fixed paths before `/connectors/:id`. */
export const stationRoutes = routeTable('bff', [
  {
    method: 'GET',
    path: '/connectors/get-by-cpo',
    access: 'user',
    // The stations page's list, asked on every visit and refresh: one statement per request.
    callerInStatement: true,
    handler: async (c) => {
      const q = parseQuery(c, stationListQuerySchema);
      await assertLocationsVisible(c.get('db'), c.get('auth').scope, q.locationId ? [...q.locationIds, q.locationId] : q.locationIds);
      const { total, rows } = await listStations(c.get('db'), c.get('auth').scope, q, c.get('callerCheck'));
      return paged(c, total, rows);
    },
  },

  {
    method: 'POST',
    path: '/connectors/create-cp',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, createStationsBodySchema);
      return ok(c, await createStations(c.get('db'), c.get('auth').scope, body));
    },
  },

  {
    method: 'PUT',
    path: '/connectors/update-parking-lots',
    access: 'user',
    handler: async (c) => {
      const items = withIfMatch(await parseBody(c, parkingLotUpdateBodySchema), c.req.header('if-match'));
      const out = await updateParkingLots(c.get('db'), c.get('auth').scope, items);
      if (out.length === 1) c.header('ETag', etagFor(out[0].version));
      return ok(c, out);
    },
  },

  {
    method: 'PUT',
    path: '/ocpp-client/change-availability',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, changeAvailabilityBodySchema);
      const items = withIfMatch(body.changeAvailabilityRequest, c.req.header('if-match'));
      const out = await changeAvailability(c.get('db'), c.get('auth').scope, items);
      if (out.length === 1) c.header('ETag', etagFor(out[0].version));
      return ok(c, out);
    },
  },

  {
    method: 'GET',
    path: '/connectors/:id',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, idParams);
      const detail = await getStationDetail(c.get('db'), c.get('auth').scope, id);
      if (!detail) throw connectorNotFound([id]);
      c.header('ETag', etagFor(detail.version));
      return ok(c, detail);
    },
  },
]);
