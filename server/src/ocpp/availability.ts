import { and, inArray, isNotNull } from 'drizzle-orm';
import type { ConnectorStatus } from '../../../contract/enums';
import { ocppStations } from '../db/schema/ocpp';
import type { Env } from '../env';
import { registeredRuntime } from './runtime';

/**
 * A status a user set (Aktiv/Standby, PUT /ocpp-client/change-availability) reaches the stations
 * that are connected as ChangeAvailability Operative/Inoperative, recorded like every operation.
 * It runs beside the write, not inside it: the write's transaction must not wait for a station,
 * and on PGlite these statements simply follow its commit.
 */
export function sendAvailability(
  env: Env,
  requestedBy: string,
  changed: { connectorId: string; cpId: string; connectorStatus: ConnectorStatus }[],
) {
  const runtime = registeredRuntime(env);
  if (!runtime?.central || changed.length === 0) return;
  const { db } = runtime;
  void (async () => {
    const cpIds = [...new Set(changed.map((c) => c.cpId))];
    const connected = await db
      .select({ cpId: ocppStations.cpId })
      .from(ocppStations)
      .where(and(inArray(ocppStations.cpId, cpIds), isNotNull(ocppStations.connectedInstance)));
    const online = new Set(connected.map((r) => r.cpId));
    for (const c of changed.filter((x) => online.has(x.cpId))) {
      const n = Number(c.connectorId.slice(c.connectorId.lastIndexOf('_') + 1));
      if (!Number.isInteger(n)) continue;
      await runtime.operations.request({
        cpId: c.cpId,
        connectorId: c.connectorId,
        type: 'CHANGE_AVAILABILITY',
        action: 'ChangeAvailability',
        params: { connectorId: n, type: c.connectorStatus === 'CONNECTED_UNAVAILABLE' ? 'Inoperative' : 'Operative' },
        requestedBy,
      });
    }
  })().catch(() => {});
}
