import { and, asc, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod/mini';
import { connectorStatusMapping, type StationDetail, type StationListRow, type stationListQuerySchema } from '../../../contract/stations';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { chargingRequests, connectors, locations, wallboxModels } from '../db/schema';
import { containsPattern, transactionLock } from '../db/sql-helpers';
import { anyOf, preparedOnce, scopeValues, shapeKey } from '../http/statements';

export type ConnectorRow = typeof connectors.$inferSelect;

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

type StationListQuery = z.output<typeof stationListQuerySchema>;

/** The connector list's page and total statements for the filters present (values as placeholders). */
function stationListStatements(db: Db, scope: Scope, q: StationListQuery) {
  const flags = [
    scope.operatorIds !== 'all',
    !!q.cpId,
    !!q.addressParkingLot,
    q.locationIds.length > 0,
    q.wallboxModels.length > 0,
    !!q.locationId,
  ] as const;
  const key = `connector_list_${shapeKey([...flags])}`;
  return preparedOnce(db, key, () => {
    const [scoped, cpId, lot, locationIds, models, locationId] = flags;
    const where = and(
      scoped ? anyOf(connectors.cpoId, 'operatorIds') : undefined,
      eq(connectors.removed, false),
      cpId ? ilike(connectors.cpId, sql.placeholder('cpId')) : undefined,
      lot ? ilike(connectors.parkingLot, sql.placeholder('parkingLot')) : undefined,
      locationIds ? anyOf(connectors.locationId, 'locationIds') : undefined,
      models ? anyOf(connectors.wallboxModel, 'wallboxModels') : undefined,
      locationId ? eq(connectors.locationId, sql.placeholder('locationId')) : undefined,
    );
    // The total rides along as a column of the page's statement (connectors per operator are
    // bounded); only a page past the end asks for it alone.
    const total = db.select({ n: count() }).from(connectors).where(where);
    return {
      page: db
        .select({ ...rowSelection, total: sql<number>`(${total})`.mapWith(Number) })
        .from(connectors)
        .leftJoin(locations, eq(locations.locationId, connectors.locationId))
        .where(where)
        .orderBy(sql`${locations.locationName} asc nulls last`, asc(connectors.cpId), asc(connectors.connectorId))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(`${key}_page`),
      total: total.prepare(`${key}_total`),
    };
  });
}

export async function listStations(db: Db, scope: Scope, q: StationListQuery): Promise<{ total: number; rows: StationListRow[] }> {
  const statements = stationListStatements(db, scope, q);
  const values = {
    ...scopeValues(scope),
    cpId: q.cpId ? containsPattern(q.cpId) : undefined,
    parkingLot: q.addressParkingLot ? containsPattern(q.addressParkingLot) : undefined,
    locationIds: q.locationIds,
    wallboxModels: q.wallboxModels,
    locationId: q.locationId,
    limit: q.size,
    offset: q.page * q.size,
  };
  const rows = await statements.page.execute(values);
  return { total: rows.length ? rows[0].total : (await statements.total.execute(values))[0].n, rows: rows.map(toRow) };
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

// ---- SQL of the writes (the rules are in handlers.ts) ------------------------------------------

export async function findModel(db: Db, name: string) {
  const [model] = await db.select().from(wallboxModels).where(eq(wallboxModels.name, name));
  return model;
}

/** The next free number of `OLI<n>` station ids; holds the id lock until the transaction ends. */
export async function nextCpNumber(db: Db): Promise<number> {
  await transactionLock(db, 'connectors.cp_id');
  const [{ maxNo }] = await db
    .select({ maxNo: sql<number>`coalesce(max(substring(${connectors.cpId} from 4)::int), 0)::int` })
    .from(connectors)
    .where(sql`${connectors.cpId} ~ '^OLI[0-9]{1,9}$'`);
  return maxNo + 1;
}

export async function insertConnectors(db: Db, rows: (typeof connectors.$inferInsert)[]) {
  await db.insert(connectors).values(rows);
}

/** Locks the caller's connectors among `ids` (in id order, so concurrent writers cannot deadlock). */
export async function lockConnectors(db: Db, scope: Scope, ids: string[]): Promise<Map<string, ConnectorRow>> {
  const rows = await db
    .select()
    .from(connectors)
    .where(and(inArray(connectors.connectorId, ids), eq(connectors.removed, false), scope.where(connectors.cpoId)))
    .orderBy(asc(connectors.connectorId))
    .for('update');
  return new Map(rows.map((r) => [r.connectorId, r]));
}

/** The parking lots in use at the locations, with their connectors. */
export function lotsAt(db: Db, locationIds: string[]) {
  return db
    .select({ locationId: connectors.locationId, parkingLot: connectors.parkingLot, connectorId: connectors.connectorId })
    .from(connectors)
    .where(and(inArray(connectors.locationId, locationIds), eq(connectors.removed, false), sql`${connectors.parkingLot} is not null`));
}

export async function clearLots(db: Db, connectorIds: string[]) {
  await db.update(connectors).set({ parkingLot: null }).where(inArray(connectors.connectorId, connectorIds));
}

/** Sets a connector's lot or status and moves its version on by one; answers the new row. */
export async function writeConnector(db: Db, connectorId: string, change: { parkingLot: string } | { status: ConnectorRow['status'] }) {
  const [row] = await db
    .update(connectors)
    .set({ ...change, version: sql`${connectors.version} + 1` })
    .where(eq(connectors.connectorId, connectorId))
    .returning();
  return row!;
}
