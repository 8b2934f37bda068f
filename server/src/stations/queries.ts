import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  canAssignParkingLot,
  canChangeAvailability,
  connectorStatusMapping,
  type changeAvailabilityBodySchema,
  type ConnectorWriteAnswer,
  type createStationsBodySchema,
  type CreateStationsAnswer,
  OCCUPIED_STATUSES,
  type parkingLotUpdateBodySchema,
  type StationDetail,
  type StationListRow,
  type stationListQuerySchema,
} from '../../../contract/stations';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/pg-errors';
import { chargingRequests, connectors, locations, wallboxModels } from '../db/schema';
import { ApiError } from '../http/errors';
import { containsPattern, transactionLock } from '../db/sql-helpers';
import { findLocation, locationNotFound } from '../locations/queries';

type ConnectorRow = typeof connectors.$inferSelect;

export const connectorNotFound = (ids: string[]) =>
  new ApiError(404, 'CONNECTOR_NOT_FOUND', `Connector not found: ${ids.join(', ')}`, { connectorIds: ids });

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const rowSelection = {
  connectorId: connectors.connectorId,
  cpId: connectors.cpId,
  cpoId: connectors.cpoId,
  locationId: connectors.locationId,
  locationName: locations.locationName,
  street: locations.street,
  zipCode: locations.zipCode,
  city: locations.city,
  parkingLot: connectors.parkingLot,
  wallboxModel: connectors.wallboxModel,
  status: connectors.status,
  onlineSince: connectors.onlineSince,
  lastHeartbeat: connectors.lastHeartbeat,
  version: connectors.version,
};

interface SelectedRow {
  connectorId: string;
  cpId: string;
  cpoId: string;
  locationId: string | null;
  locationName: string | null;
  street: string | null;
  zipCode: string | null;
  city: string | null;
  parkingLot: string | null;
  wallboxModel: string;
  status: ConnectorRow['status'];
  onlineSince: Date | null;
  lastHeartbeat: Date | null;
  version: number;
}

const toRow = (r: SelectedRow): StationListRow => ({
  connectorId: r.connectorId,
  cpId: r.cpId,
  locationId: r.locationId,
  locationName: r.locationName,
  address: { street: r.street, zipCode: r.zipCode, city: r.city, parkingLot: r.parkingLot },
  wallboxModel: r.wallboxModel,
  connectorStatus: r.status,
  connectorStatusMapping: connectorStatusMapping(r.status, r.parkingLot),
  onlineSince: iso(r.onlineSince),
  lastHeartBeatInterval: iso(r.lastHeartbeat),
  version: r.version,
});

export async function listStations(
  db: Db,
  scope: Scope,
  q: z.output<typeof stationListQuerySchema>,
): Promise<{ total: number; rows: StationListRow[] }> {
  const where = and(
    scope.where(connectors.cpoId),
    eq(connectors.removed, false),
    q.cpId ? ilike(connectors.cpId, containsPattern(q.cpId)) : undefined,
    q.addressParkingLot ? ilike(connectors.parkingLot, containsPattern(q.addressParkingLot)) : undefined,
    q.locationIds.length > 0 ? inArray(connectors.locationId, q.locationIds) : undefined,
    q.wallboxModels.length > 0 ? inArray(connectors.wallboxModel, q.wallboxModels) : undefined,
    q.locationId ? eq(connectors.locationId, q.locationId) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(connectors).where(where);
  const rows = await db
    .select(rowSelection)
    .from(connectors)
    .leftJoin(locations, eq(locations.locationId, connectors.locationId))
    .where(where)
    .orderBy(sql`${locations.locationName} asc nulls last`, asc(connectors.cpId), asc(connectors.connectorId))
    .limit(q.size)
    .offset(q.page * q.size);
  return { total, rows: rows.map(toRow) };
}

export async function getStationDetail(db: Db, scope: Scope, connectorId: string): Promise<StationDetail | undefined> {
  const [r] = await db
    .select(rowSelection)
    .from(connectors)
    .leftJoin(locations, eq(locations.locationId, connectors.locationId))
    .where(and(eq(connectors.connectorId, connectorId), eq(connectors.removed, false), scope.where(connectors.cpoId)));
  if (!r) return undefined;
  const [totals] = await db
    .select({
      energy: sql<string>`coalesce(sum(${chargingRequests.energyKwh}), 0)`,
      revenue: sql<string>`coalesce(sum(${chargingRequests.cost}), 0)`,
    })
    .from(chargingRequests)
    .where(and(eq(chargingRequests.connectorId, connectorId), eq(chargingRequests.status, 'finished')));
  return {
    ...toRow(r),
    cpoId: r.cpoId,
    totalEnergy: Math.round(Number(totals.energy) * 1000) / 1000,
    totalRevenue: Math.round(Number(totals.revenue) * 100) / 100,
  };
}

// ---------------------------------------------------------------------------------------------

export async function createStations(
  db: Db,
  scope: Scope,
  body: z.output<typeof createStationsBodySchema>,
): Promise<CreateStationsAnswer> {
  const loc = await findLocation(db, scope, body.locationId);
  if (!loc) throw locationNotFound(body.locationId);
  const [model] = await db.select().from(wallboxModels).where(eq(wallboxModels.name, body.chargingStationModel));
  if (!model) {
    throw new ApiError(400, 'VALIDATION_ERROR', `Unknown charging station model: ${body.chargingStationModel}`, undefined, [
      { path: 'chargingStationModel', message: 'unknownModel' },
    ]);
  }
  await transactionLock(db, 'connectors.cp_id');
  const [{ maxNo }] = await db
    .select({ maxNo: sql<number>`coalesce(max(substring(${connectors.cpId} from 4)::int), 0)::int` })
    .from(connectors)
    .where(sql`${connectors.cpId} ~ '^OLI[0-9]{1,9}$'`);
  const cpIds = Array.from({ length: body.numOfChargingStations }, (_, i) => `OLI${String(maxNo + 1 + i).padStart(6, '0')}`);
  const rows = cpIds.flatMap((cpId) =>
    Array.from({ length: model.connectorsPerStation }, (_, k) => ({
      connectorId: `${cpId}_${k + 1}`,
      cpId,
      connectorNumber: k + 1,
      cpoId: loc.cpoId,
      locationId: loc.locationId,
      wallboxModel: model.name,
      status: 'INACTIVE' as const,
    })),
  );
  await db.insert(connectors).values(rows);
  return { id: loc.locationId, cpIds, connectorIds: rows.map((r) => r.connectorId) };
}

// ---------------------------------------------------------------------------------------------

/** Locks the requested connectors (in id order, so concurrent writers cannot deadlock); 404 for any missing. */
async function lockConnectors(db: Db, scope: Scope, ids: string[]): Promise<Map<string, ConnectorRow>> {
  const rows = await db
    .select()
    .from(connectors)
    .where(and(inArray(connectors.connectorId, ids), eq(connectors.removed, false), scope.where(connectors.cpoId)))
    .orderBy(asc(connectors.connectorId))
    .for('update');
  const byId = new Map(rows.map((r) => [r.connectorId, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) throw connectorNotFound(missing);
  return byId;
}

/** 409 CONFLICT when any item carries a version other than the connector's. */
function checkVersions(items: { connectorId: string; version?: number }[], byId: Map<string, ConnectorRow>) {
  const conflicts = items
    .filter((it) => it.version !== undefined && it.version !== byId.get(it.connectorId)!.version)
    .map((it) => {
      const row = byId.get(it.connectorId)!;
      return {
        connectorId: row.connectorId,
        currentVersion: row.version,
        current: { parkingLot: row.parkingLot, connectorStatus: row.status },
      };
    });
  if (conflicts.length > 0) {
    throw new ApiError(
      409,
      'CONFLICT',
      `Changed by someone else in the meantime: ${conflicts.map((x) => x.connectorId).join(', ')}`,
      { ...conflicts[0], conflicts },
    );
  }
}

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
  const byId = await lockConnectors(
    db,
    scope,
    items.map((it) => it.connectorId),
  );
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
  checkVersions(items, byId);

  const inactive = items.map((it) => byId.get(it.connectorId)!).filter((r) => !canAssignParkingLot(r.status));
  if (inactive.length > 0) {
    throw new ApiError(
      409,
      'CONNECTOR_INACTIVE',
      `Inactive charging stations cannot be edited: ${refusalDetail(inactive).cpIds.join(', ')}`,
      refusalDetail(inactive),
    );
  }

  const unchanged = items
    .map((it, i) => ({ it, i }))
    .filter(({ it }) => byId.get(it.connectorId)!.parkingLot === it.parkingLotNumber);
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
  const others = await db
    .select({ locationId: connectors.locationId, parkingLot: connectors.parkingLot, connectorId: connectors.connectorId })
    .from(connectors)
    .where(and(inArray(connectors.locationId, locationIds), eq(connectors.removed, false), sql`${connectors.parkingLot} is not null`));
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
    await db.update(connectors).set({ parkingLot: null }).where(inArray(connectors.connectorId, ids));
    const out: ConnectorWriteAnswer = [];
    for (const it of items) {
      const [row] = await db
        .update(connectors)
        .set({ parkingLot: it.parkingLotNumber, version: sql`${connectors.version} + 1` })
        .where(eq(connectors.connectorId, it.connectorId))
        .returning();
      out.push(answerOf(row));
    }
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
  const byId = await lockConnectors(
    db,
    scope,
    items.map((it) => it.connectorId),
  );
  checkVersions(items, byId);
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
  for (const it of items) {
    const [updated] = await db
      .update(connectors)
      .set({ status: it.connectorStatus, version: sql`${connectors.version} + 1` })
      .where(eq(connectors.connectorId, it.connectorId))
      .returning();
    out.push(answerOf(updated));
  }
  return out;
}
