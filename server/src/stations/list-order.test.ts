import { and, asc, eq, getTableColumns, ilike, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScope, type Scope } from '../auth/scope';
import { locations } from '../db/schema/locations';
import { connectors } from '../db/schema/stations';
import { containsPattern } from '../db/sql-helpers';
import { createHarness, type Harness } from '../test/harness';
import { DEEP_PAGE_ROWS, listStations } from './queries';

/**
 * The connector list's page statement walks the locations in name order, deep pages join and sort
 * (stations/queries.ts); their pages must be those of the plain statement: every visible connector joined to its location,
 * sorted by location name (none last), station id and connector id, then cut.
 */
describe('connector list order', () => {
  let h: Harness;
  let operatorIds: string[];
  let sharedName: string;

  beforeAll(async () => {
    h = await createHarness();
    const db = h.db;
    // Ten times the small data set's connectors (copies without a lot), so deep pages exist.
    const columns = Object.values(getTableColumns(connectors)).map((c) => c.name);
    const copied = columns.map((n) => (n === 'connector_id' || n === 'cp_id' ? `${n} || '-' || g` : n === 'parking_lot' ? 'null' : n));
    await db.execute(
      sql.raw(`insert into connectors (${columns.join(', ')}) select ${copied.join(', ')} from connectors, generate_series(1, 9) g`),
    );
    // Two locations with the same name (their connectors interleave by station id), and
    // connectors without a location.
    const [first, second] = await db.select().from(locations).orderBy(asc(locations.locationId)).limit(2);
    sharedName = first.locationName;
    // Station ids against the connector ids' order there, so an order by the wrong key shows.
    await db.execute(sql`update ${connectors} c set cp_id = 'OLI' || (900000 - r.n)::text
      from (select connector_id, row_number() over (order by connector_id) as n from ${connectors}
            where location_id in (${first.locationId}, ${second.locationId})) r
      where c.connector_id = r.connector_id`);
    await db.update(locations).set({ locationName: first.locationName }).where(eq(locations.locationId, second.locationId));
    const some = await db
      .select({ id: connectors.connectorId })
      .from(connectors)
      .where(eq(connectors.removed, false))
      .orderBy(asc(connectors.connectorId))
      .limit(40);
    await db
      .update(connectors)
      .set({ locationId: null, parkingLot: null })
      .where(
        inArray(
          connectors.connectorId,
          some.filter((_, i) => i % 4 === 0).map((r) => r.id),
        ),
      );
    operatorIds = (await db.selectDistinct({ cpoId: connectors.cpoId }).from(connectors).orderBy(connectors.cpoId)).map((r) => r.cpoId);
  }, 120_000);

  afterAll(async () => h?.close());

  type Filters = { cpId?: string; addressParkingLot?: string; locationIds?: string[]; wallboxModels?: string[]; locationId?: string };

  /** The plain statement: join, sort everything, cut. */
  async function reference(scope: Scope, f: Filters, page: number, size: number) {
    const where = and(
      scope.where(connectors.cpoId),
      eq(connectors.removed, false),
      f.cpId ? ilike(connectors.cpId, containsPattern(f.cpId)) : undefined,
      f.addressParkingLot ? ilike(connectors.parkingLot, containsPattern(f.addressParkingLot)) : undefined,
      f.locationIds?.length ? inArray(connectors.locationId, f.locationIds) : undefined,
      f.wallboxModels?.length ? inArray(connectors.wallboxModel, f.wallboxModels) : undefined,
      f.locationId ? eq(connectors.locationId, f.locationId) : undefined,
    );
    const rows = await h.db
      .select({ connectorId: connectors.connectorId, locationName: locations.locationName })
      .from(connectors)
      .leftJoin(locations, eq(locations.locationId, connectors.locationId))
      .where(where)
      .orderBy(sql`${locations.locationName} asc nulls last`, asc(connectors.cpId), asc(connectors.connectorId));
    return { total: rows.length, ids: rows.slice(page * size, (page + 1) * size).map((r) => r.connectorId) };
  }

  const list = async (scope: Scope, f: Filters, page: number, size: number) => {
    const answer = await listStations(h.db, scope, { locationIds: [], wallboxModels: [], ...f, page, size } as Parameters<
      typeof listStations
    >[2]);
    return { total: answer.total, ids: answer.rows.map((r) => r.connectorId) };
  };

  it('gives the pages of the plain statement, for every scope, filter and page', async () => {
    const [anyConnector] = await h.db.select().from(connectors).where(eq(connectors.removed, false)).limit(1);
    const located = await h.db.select({ id: locations.locationId }).from(locations).orderBy(asc(locations.locationId)).limit(3);
    const scopes = [makeScope('all'), makeScope(operatorIds.slice(0, 1)), makeScope(operatorIds.slice(1, 3)), makeScope([])];
    const filters: Filters[] = [
      {},
      { cpId: anyConnector.cpId.slice(0, 4) },
      { addressParkingLot: 'P' },
      { locationIds: located.map((l) => l.id) },
      { wallboxModels: [anyConnector.wallboxModel] },
      { locationId: located[0].id },
    ];
    let compared = 0;
    let deep = 0;
    for (const scope of scopes)
      for (const f of filters) {
        const { total } = await reference(scope, f, 0, 1);
        for (const size of [10, 25, 100])
          for (let page = 0; page * size <= total + size; page++) {
            expect({ scope: scope.operatorIds, f, page, size, ...(await list(scope, f, page, size)) }).toEqual({
              scope: scope.operatorIds,
              f,
              page,
              size,
              ...(await reference(scope, f, page, size)),
            });
            compared++;
            if ((page + 1) * size > DEEP_PAGE_ROWS) deep++;
          }
      }
    expect(compared).toBeGreaterThan(50);
    // Both statements were compared: pages by location and deep pages by the plain join.
    expect(deep).toBeGreaterThan(5);
    expect(compared - deep).toBeGreaterThan(5);
  }, 120_000);

  it('lists connectors without a location last, and those of locations sharing a name in one block', async () => {
    const all = await list(makeScope('all'), {}, 0, 10_000);
    const rows = await h.db
      .select({ id: connectors.connectorId, locationId: connectors.locationId, locationName: locations.locationName })
      .from(connectors)
      .leftJoin(locations, eq(locations.locationId, connectors.locationId))
      .where(inArray(connectors.connectorId, all.ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ordered = all.ids.map((id) => byId.get(id)!);
    const firstUnlocated = ordered.findIndex((r) => r.locationId === null);
    expect(firstUnlocated).toBeGreaterThan(0);
    expect(ordered.slice(firstUnlocated).every((r) => r.locationId === null)).toBe(true);
    // The shared name's connectors come from both locations, mixed by station id.
    const shared = ordered.filter((r) => r.locationName === sharedName);
    expect(new Set(shared.map((r) => r.locationId)).size).toBe(2);
    // One block of rows, not one location's after the other's: ordered by station id across both.
    const at = ordered.findIndex((r) => r.locationName === sharedName);
    expect(ordered.slice(at, at + shared.length)).toEqual(shared);
  });
});
