import { and, asc, eq, max } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ocppConfigurations, ocppConnectorStates, ocppStations } from '../db/schema/ocpp';
import { connectors } from '../db/schema/stations';
import type { StationOcpp } from '../../../contract/ocpp';
import { operationHistory } from './operations';
import { outcomeOf } from './operation-calls';

/** A connector in the caller's scope (not removed), with what an operation needs of it. */
export async function visibleConnector(db: Db, scope: Scope, connectorId: string) {
  const [row] = await db
    .select({ connectorId: connectors.connectorId, cpId: connectors.cpId, n: connectors.connectorNumber, status: connectors.status })
    .from(connectors)
    .where(and(eq(connectors.connectorId, connectorId), eq(connectors.removed, false), scope.where(connectors.cpoId)));
  return row;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** What the station detail shows of the station's OCPP side (GET /bff/connectors/{id}/ocpp). */
export async function stationOcpp(db: Db, connectorId: string, cpId: string): Promise<StationOcpp> {
  const [station] = await db.select().from(ocppStations).where(eq(ocppStations.cpId, cpId));
  const [state] = await db.select().from(ocppConnectorStates).where(eq(ocppConnectorStates.connectorId, connectorId));
  const configuration = await db
    .select({ key: ocppConfigurations.key, value: ocppConfigurations.value, readonly: ocppConfigurations.readonly })
    .from(ocppConfigurations)
    .where(eq(ocppConfigurations.cpId, cpId))
    .orderBy(asc(ocppConfigurations.key));
  const [reported] = await db
    .select({ at: max(ocppConfigurations.reportedAt) })
    .from(ocppConfigurations)
    .where(eq(ocppConfigurations.cpId, cpId));
  const operations = await operationHistory(db, cpId);
  return {
    cpId,
    connected: !!station?.connectedInstance,
    hasPassword: !!station?.passwordHash,
    boot: station?.bootedAt
      ? {
          vendor: station.vendor,
          model: station.model,
          serialNumber: station.serialNumber,
          firmwareVersion: station.firmwareVersion,
          bootedAt: iso(station.bootedAt),
        }
      : null,
    lastSeenAt: iso(station?.lastSeenAt),
    ocppStatus: state
      ? { status: state.ocppStatus, errorCode: state.errorCode, info: state.info, reportedAt: iso(state.reportedAt)! }
      : null,
    configuration,
    configurationReportedAt: iso(reported?.at),
    operations: operations.map((o) => ({
      operationId: o.operationId,
      connectorOperationType: o.connectorOperationType,
      requestedBy: o.requestedBy,
      requestedAt: iso(o.requestedAt)!,
      status: o.status,
      stationStatus: o.answer ? outcomeOf(o.answer).stationStatus : null,
      errorCode: o.errorCode,
      answeredAt: iso(o.answeredAt),
    })),
  };
}
