import { and, inArray, isNotNull } from 'drizzle-orm';
import type { ConnectorStatus } from '../../../contract/enums';
import { ocppStations } from '../db/schema/ocpp';
import type { Env } from '../env';
import { logFault } from '../http/faults';
import { registeredRuntime } from './runtime';

/**
 * A status a user set (Aktiv/Standby, PUT /ocpp-client/change-availability) reaches the stations
 * that are connected as ChangeAvailability Operative/Inoperative, recorded like every operation
 * (who asked, the station's answer: Accepted, Rejected or Scheduled), so the operation history
 * the dashboard reloads after the change already holds the answer. It runs after the write's
 * commit (the transaction must not wait for a station, and on PGlite these statements could not
 * run beside it) and the HTTP answer waits for it at most the operations' timeout: a station
 * that is slower is still recorded when it answers, and a station without a socket gets nothing
 * sent. The status change itself stands whatever the stations answer (spec 2 §7 shows no answer
 * of this call).
 */
export async function sendAvailability(
  env: Env,
  requestedBy: string,
  changed: { connectorId: string; cpId: string; connectorStatus: ConnectorStatus }[],
): Promise<void> {
  const runtime = registeredRuntime(env);
  if (!runtime?.central || changed.length === 0) return;
  const { db } = runtime;
  const cpIds = [...new Set(changed.map((c) => c.cpId))];
  const connected = await db
    .select({ cpId: ocppStations.cpId })
    .from(ocppStations)
    .where(and(inArray(ocppStations.cpId, cpIds), isNotNull(ocppStations.connectedInstance)));
  const online = new Set(connected.map((r) => r.cpId));
  const requests: Promise<unknown>[] = [];
  for (const c of changed.filter((x) => online.has(x.cpId))) {
    const n = Number(c.connectorId.slice(c.connectorId.lastIndexOf('_') + 1));
    if (!Number.isInteger(n)) continue;
    requests.push(
      runtime.operations
        .request({
          cpId: c.cpId,
          connectorId: c.connectorId,
          type: 'CHANGE_AVAILABILITY',
          action: 'ChangeAvailability',
          params: { connectorId: n, type: c.connectorStatus === 'CONNECTED_UNAVAILABLE' ? 'Inoperative' : 'Operative' },
          requestedBy,
        })
        .catch((err: unknown) => logFault(runtime.log, `ocpp: ChangeAvailability for station ${c.cpId} not recorded`, err)),
    );
  }
  if (requests.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const patience = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, env.OCPP_CALL_TIMEOUT_MS);
  });
  await Promise.race([Promise.all(requests), patience]);
  clearTimeout(timer);
}
