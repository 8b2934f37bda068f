import type { z } from 'zod/mini';
import {
  canAssignParkingLot,
  canChangeAvailability,
  type changeAvailabilityBodySchema,
  type ConnectorWriteAnswer,
  type createStationsBodySchema,
  type CreateStationsAnswer,
  OCCUPIED_STATUSES,
  type parkingLotUpdateBodySchema,
} from '../../../contract/stations';
import { foundOr404, lockAtVersions, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/pg-errors';
import { ApiError } from '../http/errors';
import { followLotRenames } from '../contracts/queries';
import { findLocation } from '../locations/queries';
import { newStationRows } from './import/new-stations';
import { clearLots, findModel, insertConnectors, lockConnectors, lotsAt, nextCpNumber, writeConnector, type ConnectorRow } from './queries';

/** The rules of the stations area (spec 2 §4/§5): what a write may do, and which error says why not. */

export async function createStations(db: Db, scope: Scope, body: z.output<typeof createStationsBodySchema>): Promise<CreateStationsAnswer> {
  const loc = await foundOr404('location', body.locationId, findLocation(db, scope, body.locationId));
  const model = await findModel(db, body.chargingStationModel);
  if (!model) {
    throw new ApiError(400, 'VALIDATION_ERROR', `Unknown charging station model: ${body.chargingStationModel}`, undefined, [
      { path: 'chargingStationModel', message: 'unknownModel' },
    ]);
  }
  const first = await nextCpNumber(db);
  const cpIds = Array.from({ length: body.numOfChargingStations }, (_, i) => `OLI${String(first + i).padStart(6, '0')}`);
  const rows = newStationRows(
    cpIds.map((cpId) => ({
      cpId,
      cpoId: loc.cpoId,
      locationId: loc.locationId,
      wallboxModel: model.name,
      connectorCount: model.connectorsPerStation,
    })),
  );
  await insertConnectors(db, rows);
  return { id: loc.locationId, cpIds, connectorIds: rows.map((r) => r.connectorId) };
}

/** The connectors a write names, locked, in scope and at the versions the user saw (`lockAtVersions`). */
const lockRequested = (db: Db, scope: Scope, items: { connectorId: string; version?: number }[]) =>
  lockAtVersions(
    'connector',
    items.map((it) => ({ id: it.connectorId, version: it.version })),
    {
      lock: (ids) => lockConnectors(db, scope, ids),
      current: (row: ConnectorRow) => ({ parkingLot: row.parkingLot, connectorStatus: row.status }),
    },
  );

const answerOf = (r: ConnectorRow) => ({
  connectorId: r.connectorId,
  cpId: r.cpId,
  parkingLot: r.parkingLot,
  connectorStatus: r.status,
  version: r.version,
});

const refusalDetail = (rows: ConnectorRow[]) => ({
  connectorIds: rows.map((r) => r.connectorId),
  cpIds: [...new Set(rows.map((r) => r.cpId))],
});

export async function updateParkingLots(
  db: Db,
  scope: Scope,
  items: z.output<typeof parkingLotUpdateBodySchema>,
): Promise<ConnectorWriteAnswer> {
  const byId = await lockRequested(db, scope, items);
  const mismatched = items
    .map((it, i) => ({ it, i, row: byId.get(it.connectorId)! }))
    .filter(({ it, row }) => row.cpId !== it.cpId || row.locationId !== it.locationId);
  if (mismatched.length > 0) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      `cpId or locationId do not match the connector: ${mismatched.map((m) => m.it.connectorId).join(', ')}`,
      undefined,
      mismatched.map(({ i }) => ({ path: `${i}.locationId`, message: 'connectorMismatch' })),
    );
  }

  const inactive = items.map((it) => byId.get(it.connectorId)!).filter((r) => !canAssignParkingLot(r.status));
  if (inactive.length > 0) {
    throw new ApiError(
      409,
      'CONNECTOR_INACTIVE',
      `Inactive charging stations cannot be edited: ${refusalDetail(inactive).cpIds.join(', ')}`,
      refusalDetail(inactive),
    );
  }

  const unchanged = items.map((it, i) => ({ it, i })).filter(({ it }) => byId.get(it.connectorId)!.parkingLot === it.parkingLotNumber);
  if (unchanged.length > 0) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      'fildnchange',
      { connectorIds: unchanged.map((u) => u.it.connectorId) },
      unchanged.map(({ i }) => ({ path: `${i}.parkingLotNumber`, message: 'fildnchange' })),
    );
  }

  // The lots a location ends up with: those of its other connectors plus the requested ones.
  const requested = new Set(items.map((it) => it.connectorId));
  const locationIds = [...new Set(items.map((it) => it.locationId))];
  const others = await lotsAt(db, locationIds);
  const taken = new Set(others.filter((o) => !requested.has(o.connectorId)).map((o) => `${o.locationId}\u0000${o.parkingLot}`));
  const duplicates: { locationId: string; parkingLot: string }[] = [];
  for (const it of items) {
    const key = `${it.locationId}\u0000${it.parkingLotNumber}`;
    if (taken.has(key)) duplicates.push({ locationId: it.locationId, parkingLot: it.parkingLotNumber });
    taken.add(key);
  }
  if (duplicates.length > 0) throw duplicateLots(duplicates);

  // Two steps, so that lots may be swapped between connectors without tripping the unique index.
  const ids = [...requested];
  try {
    await clearLots(db, ids);
    const out: ConnectorWriteAnswer = [];
    for (const it of items) out.push(answerOf(await writeConnector(db, it.connectorId, { parkingLot: it.parkingLotNumber })));
    // Contracts name their lots by number: they follow the rename, so none is left with a lot that is gone.
    await followLotRenames(
      db,
      items.flatMap((it) => {
        const from = byId.get(it.connectorId)!.parkingLot;
        return from ? [{ locationId: it.locationId, from, to: it.parkingLotNumber }] : [];
      }),
    );
    return out;
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateLots(items.map((it) => ({ locationId: it.locationId, parkingLot: it.parkingLotNumber })));
    throw err;
  }
}

function duplicateLots(duplicates: { locationId: string; parkingLot: string }[]) {
  const names = [...new Set(duplicates.map((d) => d.parkingLot))].join(', ');
  return new ApiError(409, 'DATA_INCONSISTENCY', `Parking lot already exists at the location: ${names}`, duplicates);
}

export async function changeAvailability(
  db: Db,
  scope: Scope,
  items: z.output<typeof changeAvailabilityBodySchema>['changeAvailabilityRequest'],
): Promise<ConnectorWriteAnswer> {
  const byId = await lockRequested(db, scope, items);
  const rows = items.map((it) => byId.get(it.connectorId)!);
  const refused = rows.filter((r) => !canChangeAvailability(r.status, r.parkingLot));
  const notChangeable = refused.filter((r) => !OCCUPIED_STATUSES.includes(r.status));
  if (notChangeable.length > 0) {
    throw new ApiError(
      409,
      'CONNECTOR_STATUS_NOT_CHANGEABLE',
      `The charging stations must be Standby or Active to be edited: ${refusalDetail(notChangeable).cpIds.join(', ')}`,
      refusalDetail(notChangeable),
    );
  }
  if (refused.length > 0) {
    throw new ApiError(
      409,
      'CONNECTOR_IN_OPERATION',
      `Charging stations in operation cannot be changed: ${refusalDetail(refused).cpIds.join(', ')}`,
      refusalDetail(refused),
    );
  }
  // Every accepted write moves the version on by one, also 'Aktiv' on a connector that already is:
  // a client that queued further writes offline can count on it (withQueuedVersions).
  const out: ConnectorWriteAnswer = [];
  for (const it of items) out.push(answerOf(await writeConnector(db, it.connectorId, { status: it.connectorStatus })));
  return out;
}
