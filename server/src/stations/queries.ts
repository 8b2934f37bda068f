import { and, asc, count, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod/mini';
import { connectorStatusMapping, type StationDetail, type StationListRow, type stationListQuerySchema } from '../../../contract/stations';
import { callerOkColumn, confirmCaller, scopeValues, type CallerCheck, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { chargingRequests } from '../db/schema/cockpit';
import { locations, wallboxModels } from '../db/schema/locations';
import { connectorCounts, connectors } from '../db/schema/stations';
import { containsPattern, transactionLock } from '../db/sql-helpers';
import { anyOf, preparedOnce, shapeKey } from '../http/statements';

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

/**
 * From this many rows up to a page's end on, the page is read by the plain join and sort: the walk
 * by location then visits most locations, and its extra sorts cost more than one sort of all rows
 * (demo data, 600 connectors at 40 locations: page 0 ~40 % less time by location, the last pages
 * ~20 % more).
 */
export const DEEP_PAGE_ROWS = 250;
/** The page statements by location stop after one of these many rows (the first that covers the page's end). */
const WALK_BUCKETS = [10, 25, 50, 100, DEEP_PAGE_ROWS];

/** The columns of a connector the list shows, named as the page statement's outer select reads them. */
const connectorColumns = sql`${connectors.connectorId} as connector_id, ${connectors.cpId} as cp_id, ${connectors.cpoId} as cpo_id,
  ${connectors.locationId} as location_id, ${connectors.parkingLot} as parking_lot, ${connectors.wallboxModel} as wallbox_model,
  ${connectors.status} as status, ${connectors.onlineSince} as online_since, ${connectors.lastHeartbeat} as last_heartbeat,
  ${connectors.version} as version`;
const pageColumns = sql.raw(
  'c.connector_id, c.cp_id, c.cpo_id, c.location_id, c.parking_lot, c.wallbox_model, c.status, c.online_since, c.last_heartbeat, c.version',
);

/**
 * The connector list's page and total statements for the filters present (values as placeholders).
 *
 * The page is ordered by location name (connectors without a location last), station id and
 * connector id. Joining every connector to its location and sorting them all for ten rows cost
 * more than the rest of the request; instead the locations are walked in name order (a few dozen
 * rows sorted) and each one's connectors read by the location index, so PostgreSQL (and PGlite)
 * stops after the locations the page needs: an incremental sort orders the connectors within one
 * location name (several locations may share a name), and the connectors without a location
 * follow as a second part. Same rows, in the same order, as the plain join and sort, which deep
 * pages use (`DEEP_PAGE_ROWS`; `stations/list-order.test.ts` compares both with it).
 */
function stationListStatements(db: Db, scope: Scope, q: StationListQuery, guarded: boolean) {
  const flags = [
    guarded,
    scope.operatorIds !== 'all',
    !!q.cpId,
    !!q.addressParkingLot,
    q.locationIds.length > 0,
    q.wallboxModels.length > 0,
    !!q.locationId,
  ] as const;
  const key = `connector_list_${shapeKey([...flags])}`;
  return preparedOnce(db, key, () => {
    const [, scoped, cpId, lot, locationIds, models, locationId] = flags;
    // With a caller check, each page statement also answers whether its caller is the assumed one.
    const callerOk = callerOkColumn(db, guarded);
    const where = and(
      scoped ? anyOf(connectors.cpoId, 'operatorIds') : undefined,
      eq(connectors.removed, false),
      cpId ? ilike(connectors.cpId, sql.placeholder('cpId')) : undefined,
      lot ? ilike(connectors.parkingLot, sql.placeholder('parkingLot')) : undefined,
      locationIds ? anyOf(connectors.locationId, 'locationIds') : undefined,
      models ? anyOf(connectors.wallboxModel, 'wallboxModels') : undefined,
      locationId ? eq(connectors.locationId, sql.placeholder('locationId')) : undefined,
    );
    // The total rides along as a column of the page's statement; only a page past the end asks for
    // it alone. Filtered by operator and location only, it sums the roll-up (connector_counts, a row
    // per operator and location): counting the scope's connectors on every request made a tenant's
    // page cost what an import into its locations had added. A text or model filter counts the rows.
    const rolled = !cpId && !lot && !models;
    const total = rolled
      ? db
          .select({ n: sql<number>`coalesce(sum(${connectorCounts.liveConnectors}), 0)::int` })
          .from(connectorCounts)
          .where(
            and(
              scoped ? anyOf(connectorCounts.cpoId, 'operatorIds') : undefined,
              locationIds ? anyOf(connectorCounts.locationKey, 'locationIds') : undefined,
              locationId ? eq(connectorCounts.locationKey, sql.placeholder('locationId')) : undefined,
            ),
          )
      : db.select({ n: count() }).from(connectors).where(where);
    // The walk's locations: for a scoped caller only those its operators have connectors at (from the
    // roll-up), so another operator's locations are never visited; the location filters narrow them too.
    const walked = and(
      scoped
        ? sql`${locations.locationId} in (select ${connectorCounts.locationKey} from ${connectorCounts}
            where ${anyOf(connectorCounts.cpoId, 'operatorIds')} and ${connectorCounts.liveConnectors} > 0)`
        : undefined,
      locationIds ? anyOf(locations.locationId, 'locationIds') : undefined,
      locationId ? eq(locations.locationId, sql.placeholder('locationId')) : undefined,
    );
    return {
      // Deep pages filtered by operator and location only skip whole location names by their
      // counts (`countedPage`); with a text or model filter, the plain join and one sort.
      deepPage: rolled
        ? countedPage(db, { where, scoped, locationIds, locationId }, sql`(${total})`, callerOk, `${key}_deep`)
        : db
            .select({ ...rowSelection, total: sql<number>`(${total})`.mapWith(Number), callerOk })
            .from(connectors)
            .leftJoin(locations, eq(locations.locationId, connectors.locationId))
            .where(where)
            .orderBy(sql`${locations.locationName} asc nulls last`, asc(connectors.cpId), asc(connectors.connectorId))
            .limit(sql.placeholder('limit'))
            .offset(sql.placeholder('offset'))
            .prepare(`${key}_deep`),
      // A page past the end (or of no rows) asks the total alone, which carries the caller check then.
      total: db
        .select({ n: sql<number>`(${total})`.mapWith(Number), callerOk })
        .from(sql`(select 1) as one`)
        .prepare(`${key}_total`),
      /** The page by location for pages ending at most `upTo` rows in (one statement per bucket). */
      walk: (upTo: number) =>
        preparedOnce(db, `${key}_w${upTo}`, () => walkPage(db, { where, walked }, sql`(${total})`, callerOk, upTo, `${key}_w${upTo}`)),
    };
  });
}

/**
 * A deep page (past `DEEP_PAGE_ROWS`) of a list filtered by operator and location only: the
 * caller's location names in order with their live connectors from connector_counts (a few dozen
 * rows), so the statement skips every name whose connectors all lie before the page and reads only
 * the connectors of the names the page overlaps (locations sharing a name interleave by station id,
 * so a name is one block), then those without a location if the page reaches them. The same rows
 * as the plain join and sort (`list-order.test.ts`), which read and sorted every visible connector.
 */
function countedPage(
  db: Db,
  f: { where: SQL | undefined; scoped: boolean; locationIds: boolean; locationId: boolean },
  total: SQL,
  callerOk: SQL<boolean | null>,
  name: string,
) {
  const counted = and(
    f.scoped ? anyOf(connectorCounts.cpoId, 'operatorIds') : undefined,
    f.locationIds ? anyOf(connectorCounts.locationKey, 'locationIds') : undefined,
    f.locationId ? eq(connectorCounts.locationKey, sql.placeholder('locationId')) : undefined,
    sql`${connectorCounts.liveConnectors} > 0`,
  );
  const end = sql`(${sql.placeholder('offset')}::int + ${sql.placeholder('limit')}::int)`;
  const names = sql`(select ${locations.locationName} as name, sum(${connectorCounts.liveConnectors})::int as n
    from ${connectorCounts} join ${locations} on ${locations.locationId} = ${connectorCounts.locationKey}
    where ${counted} group by 1)`;
  const spans = sql`(select name, n, coalesce(sum(n) over (order by name rows between unbounded preceding and 1 preceding), 0)::int as before
    from ${names} named)`;
  // The rows before the first name the page overlaps (all located rows when it overlaps none).
  const skipped = sql`(select coalesce(min(s.before), (select coalesce(sum(n), 0) from ${names} a)::int) from ${spans} s
    where s.before < ${end} and s.before + s.n > ${sql.placeholder('offset')}::int)`;
  const picked = sql`(select s.name from ${spans} s where s.before < ${end} and s.before + s.n > ${sql.placeholder('offset')}::int)`;
  const located = sql`(select ${pageColumns}, l.location_name, l.street, l.zip_code, l.city, 0 as part
    from (select ${locations.locationId} as id, ${locations.locationName} as location_name, ${locations.street} as street,
            ${locations.zipCode} as zip_code, ${locations.city} as city
          from ${locations} where ${locations.locationName} in ${picked}) l
    cross join lateral (select ${connectorColumns} from ${connectors} where ${connectors.locationId} = l.id and ${f.where}) c)`;
  const unlocated = sql`(select ${connectorColumns}, null::text as location_name, null::text as street, null::text as zip_code,
      null::text as city, 1 as part
    from ${connectors} where ${connectors.locationId} is null and ${f.where}
      and (select coalesce(sum(n), 0) from ${names} b) < ${end})`;
  return db
    .select(pageSelection(total, callerOk))
    .from(
      sql`(select * from (${located} union all ${unlocated}) p order by p.part, p.location_name, p.cp_id, p.connector_id
        limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}::int - ${skipped}) u`,
    )
    .orderBy(sql`u.part, u.location_name, u.cp_id, u.connector_id`)
    .prepare(name);
}

/** The columns of a page statement's union `u`, one shape for both statements. */
function pageSelection(total: SQL, callerOk: SQL<boolean | null>) {
  const u = (column: string) => sql.raw(`u.${column}`);
  return {
    connectorId: sql<string>`${u('connector_id')}`,
    cpId: sql<string>`${u('cp_id')}`,
    cpoId: sql<string>`${u('cpo_id')}`,
    locationId: sql<string | null>`${u('location_id')}`,
    locationName: sql<string | null>`${u('location_name')}`,
    street: sql<string | null>`${u('street')}`,
    zipCode: sql<string | null>`${u('zip_code')}`,
    city: sql<string | null>`${u('city')}`,
    parkingLot: sql<string | null>`${u('parking_lot')}`,
    wallboxModel: sql<string>`${u('wallbox_model')}`,
    status: sql<ConnectorRow['status']>`${u('status')}`,
    onlineSince: sql<Date | null>`${u('online_since')}`.mapWith(connectors.onlineSince),
    lastHeartbeat: sql<Date | null>`${u('last_heartbeat')}`.mapWith(connectors.lastHeartbeat),
    version: sql<number>`${u('version')}`.mapWith(Number),
    total: sql<number>`${total}`.mapWith(Number),
    callerOk,
  };
}

/** The page statement that walks the locations (see `stationListStatements`), for pages ending at most `upTo` rows in. */
function walkPage(
  db: Db,
  { where, walked }: { where: SQL | undefined; walked: SQL | undefined },
  total: SQL,
  callerOk: SQL<boolean | null>,
  upTo: number,
  name: string,
) {
  // Each part stops after `upTo` rows: a constant, so PostgreSQL's plan for the statement does not
  // depend on the page (with a parameter there it kept planning the admin's list anew on every call,
  // its generic plan estimated dearer than one for ten rows).
  const limit = sql.raw(String(upTo));
  // `offset 0` keeps the sorted locations as written. Each location's connectors come in page order
  // from connectors_location_page_idx and stop at `upTo` too, so a location holding thousands
  // of connectors costs a page what the page shows of it.
  const located = sql`(select ${pageColumns}, l.location_name, l.street, l.zip_code, l.city, 0 as part
    from (select ${locations.locationId} as id, ${locations.locationName} as location_name, ${locations.street} as street,
            ${locations.zipCode} as zip_code, ${locations.city} as city
          from ${locations} ${walked ? sql`where ${walked}` : sql``} order by ${locations.locationName} offset 0) l
    cross join lateral (select ${connectorColumns} from ${connectors} where ${connectors.locationId} = l.id and ${where}
      order by ${connectors.cpId}, ${connectors.connectorId} limit ${limit}) c
    order by l.location_name, c.cp_id, c.connector_id limit ${limit})`;
  const unlocated = sql`(select ${connectorColumns}, null::text as location_name, null::text as street, null::text as zip_code,
      null::text as city, 1 as part
    from ${connectors} where ${connectors.locationId} is null and ${where}
    order by ${connectors.cpId}, ${connectors.connectorId} limit ${limit})`;
  return db
    .select(pageSelection(total, callerOk))
    .from(sql`(${located} union all ${unlocated}) u`)
    .orderBy(sql`u.part, u.location_name, u.cp_id, u.connector_id`)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);
}

/** A page of the connector list; with `check`, its statement also confirms the assumed caller (`CallerCheck`). */
export async function listStations(
  db: Db,
  scope: Scope,
  q: StationListQuery,
  check?: CallerCheck,
): Promise<{ total: number; rows: StationListRow[] }> {
  const statements = stationListStatements(db, scope, q, !!check);
  const values = {
    ...check?.values,
    ...scopeValues(scope),
    cpId: q.cpId ? containsPattern(q.cpId) : undefined,
    parkingLot: q.addressParkingLot ? containsPattern(q.addressParkingLot) : undefined,
    locationIds: q.locationIds,
    wallboxModels: q.wallboxModels,
    locationId: q.locationId,
    limit: q.size,
    offset: q.page * q.size,
  };
  const end = values.offset + values.limit;
  const bucket = WALK_BUCKETS.find((b) => end <= b);
  const statement = bucket === undefined ? statements.deepPage : statements.walk(bucket);
  const rows = await statement.execute(values);
  if (rows.length === 0) {
    const [alone] = await statements.total.execute(values);
    confirmCaller(check, [alone]);
    return { total: alone.n, rows: [] };
  }
  confirmCaller(check, rows);
  return { total: rows[0].total, rows: rows.map(toRow) };
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
