import * as z from 'zod/mini';
import { stationOperationBodySchema } from '../../../contract/ocpp';
import { foundOr404 } from '../auth/scope';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody, parseParams } from '../http/validate';
import { rotateStationPassword, runStationOperation } from './handlers';
import { stationOcpp, visibleConnector } from './station-queries';
import { liveStream } from './live';
import { ocppRuntime } from './runtime';

const idParams = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

/**
 * The HTTP side of OCPP (contract/ocpp.ts). An operation waits for a station's answer, so it holds
 * no transaction meanwhile (on PGlite one open transaction holds every other statement): its
 * record is written and finished in statements of their own.
 */
export const ocppRoutes = routeTable('bff', [
  {
    method: 'POST',
    path: '/ocpp-client/change-configuration',
    access: 'user',
    transaction: false,
    handler: async (c) => {
      const body = await parseBody(c, stationOperationBodySchema);
      return ok(c, await runStationOperation(c.get('env'), c.get('db'), c.get('auth'), body));
    },
  },
  {
    method: 'GET',
    path: '/ocpp/live',
    access: 'user',
    // Its success is a stream of events, not JSON; its errors are JSON like everywhere else.
    download: true,
    handler: (c) =>
      liveStream(c, ocppRuntime(c.get('env'), c.get('db')).live.hub, c.get('auth').scope, c.get('env').OCPP_LIVE_STREAM_SECONDS),
  },
  {
    method: 'GET',
    path: '/connectors/:id/ocpp',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, idParams);
      const connector = await foundOr404('connector', id, visibleConnector(c.get('db'), c.get('auth').scope, id));
      return ok(c, await stationOcpp(c.get('db'), connector.connectorId, connector.cpId));
    },
  },
  {
    method: 'POST',
    path: '/connectors/:id/station-password',
    access: 'admin',
    transaction: false,
    handler: async (c) => {
      const { id } = parseParams(c, idParams);
      const connector = await foundOr404('connector', id, visibleConnector(c.get('db'), c.get('auth').scope, id));
      return ok(c, await rotateStationPassword(c.get('db'), connector.cpId));
    },
  },
]);
