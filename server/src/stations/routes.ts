import * as z from 'zod/mini';
import {
  changeAvailabilityBodySchema,
  createStationsBodySchema,
  parkingLotUpdateBodySchema,
  stationListQuerySchema,
} from '../../../contract/stations';
import { ok, paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { changeAvailability, createStations, updateParkingLots } from './handlers';
import { getStationDetail, listStations } from './queries';
import { itemVersionsToCheck, okWithVersion } from '../http/versions';
import { routeTable } from '../http/route-table';
import { assertVisible, foundOr404 } from '../auth/scope';
import { sendAvailability } from '../ocpp/availability';

const idParams = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

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
      await assertVisible(c.get('db'), c.get('auth').scope, 'location', q.locationId ? [...q.locationIds, q.locationId] : q.locationIds);
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
      const items = itemVersionsToCheck(c, await parseBody(c, parkingLotUpdateBodySchema));
      const out = await updateParkingLots(c.get('db'), c.get('auth').scope, items);
      return okWithVersion(c, out, out.length === 1 ? out[0].version : undefined);
    },
  },

  {
    method: 'PUT',
    path: '/ocpp-client/change-availability',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, changeAvailabilityBodySchema);
      const items = itemVersionsToCheck(c, body.changeAvailabilityRequest);
      const out = await changeAvailability(c.get('db'), c.get('auth').scope, items);
      const requestedBy = c.get('auth').user.email;
      c.set('afterCommit', () => sendAvailability(c.get('env'), requestedBy, out));
      return okWithVersion(c, out, out.length === 1 ? out[0].version : undefined);
    },
  },

  {
    method: 'GET',
    path: '/connectors/:id',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, idParams);
      const detail = await foundOr404('connector', id, getStationDetail(c.get('db'), c.get('auth').scope, id));
      return okWithVersion(c, detail, detail.version);
    },
  },
]);
