import { and, asc, count, eq, ilike, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod/mini';
import {
  contractStatusColours,
  type LocationDetail,
  type LocationDropdownRow,
  type LocationListRow,
  type locationListQuerySchema,
  type ParkingInfo,
  type updateLocationBodySchema,
  type WallboxType,
} from '../../../contract/locations';
import { connectorDisplayStatus, connectorStatusColours } from '../../../contract/stations';
import { sortParkingLots } from '../../../contract/common';
import { callerOkColumn, confirmCaller, scopeValues, type CallerCheck, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { containsPattern, transactionLock } from '../db/sql-helpers';
import { anyOf, preparedOnce, shapeKey } from '../http/statements';
import { contracts } from '../db/schema/contracts';
import { locationInfrastructure, locations, wallboxModels } from '../db/schema/locations';
import { operators } from '../db/schema/operators';
import { connectorCounts, connectors } from '../db/schema/stations';

export const address = (l: { careOf: string | null; street: string; zipCode: string; city: string; countryCode?: string }) => ({
  careOf: l.careOf,
  street: l.street,
  zipCode: l.zipCode,
  city: l.city,
  ...(l.countryCode ? { countryCode: l.countryCode } : {}),
});

// ---------------------------------------------------------------------------------------------

type LocationListQuery = z.output<typeof locationListQuerySchema>;

/** The location list's page and total statements for the filters present (values as placeholders). */
function locationListStatements(db: Db, scope: Scope, q: LocationListQuery, guarded: boolean) {
  const flags = [guarded, scope.operatorIds !== 'all', !!q.cpoId, !!q.locationName, !!q.address] as const;
  const key = `location_list_${shapeKey([...flags])}`;
  return preparedOnce(db, key, () => {
    const [, scoped, cpoId, locationName, addressFilter] = flags;
    const address = sql.placeholder('address');
    const where = and(
      scoped ? anyOf(locations.cpoId, 'operatorIds') : undefined,
      cpoId ? eq(locations.cpoId, sql.placeholder('cpoId')) : undefined,
      locationName ? ilike(locations.locationName, sql.placeholder('locationName')) : undefined,
      addressFilter
        ? or(
            ilike(locations.street, address),
            ilike(locations.zipCode, address),
            ilike(locations.city, address),
            ilike(sql`coalesce(${locations.careOf}, '')`, address),
          )
        : undefined,
    );
    // The total rides along as a column of the page's statement; only a page past the end asks alone.
    const total = db.select({ n: count() }).from(locations).where(where);
    return {
      page: db
        .select({
          locationId: locations.locationId,
          locationName: locations.locationName,
          careOf: locations.careOf,
          street: locations.street,
          zipCode: locations.zipCode,
          city: locations.city,
          cpoId: locations.cpoId,
          cpoName: operators.cpoName,
          // Per row of the page (subqueries in the select list run after the sort and limit). The
          // connectors' counts come from the roll-up (connector_counts, a row per operator and location),
          // so a location holding thousands of connectors costs its row what any other does. Stations
          // are distinct cpIds (a double station is one station, two Ladepunkte); one removed when
          // none of its connectors is left.
          counts: sql<{ stations: number; removedStations: number; points: number; removedPoints: number }>`(select json_build_object(
            'stations', coalesce(sum(k.stations), 0),
            'removedStations', coalesce(sum(k.stations - k.live_stations), 0),
            'points', coalesce(sum(k.connectors), 0),
            'removedPoints', coalesce(sum(k.connectors - k.live_connectors), 0)
          ) from ${connectorCounts} k where k.location_key = ${locations.locationId})`,
          endCustomers: sql<number>`(select count(*)::int from ${contracts} k where k.location_id = ${locations.locationId})`,
          listTotal: sql<number>`(${total})`.mapWith(Number),
          callerOk: callerOkColumn(db, guarded),
        })
        .from(locations)
        .innerJoin(operators, eq(operators.cpoId, locations.cpoId))
        .where(where)
        .orderBy(asc(locations.locationName), asc(locations.locationId))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(`${key}_page`),
      // A page past the end (or of no rows) asks the total alone, which carries the caller check then.
      total: db
        .select({ n: count(), callerOk: callerOkColumn(db, guarded) })
        .from(locations)
        .where(where)
        .prepare(`${key}_total`),
    };
  });
}

/** A page of the location list; with `check`, its statement also confirms the assumed caller (`CallerCheck`). */
export async function listLocations(
  db: Db,
  scope: Scope,
  q: LocationListQuery,
  check?: CallerCheck,
): Promise<{ total: number; rows: LocationListRow[] }> {
  const statements = locationListStatements(db, scope, q, !!check);
  const values = {
    ...check?.values,
    ...scopeValues(scope),
    cpoId: q.cpoId,
    locationName: q.locationName ? containsPattern(q.locationName) : undefined,
    address: q.address ? containsPattern(q.address) : undefined,
    limit: q.size,
    offset: q.page * q.size,
  };
  const rows = await statements.page.execute(values);
  const alone = rows.length === 0 ? (await statements.total.execute(values))[0] : undefined;
  confirmCaller(check, alone ? [alone] : rows);
  return {
    total: alone ? alone.n : rows[0].listTotal,
    rows: rows.map((r) => ({
      locationId: r.locationId,
      locationName: r.locationName,
      locationAddress: address(r),
      numOfChargingStations: {
        totalNrChargingStation: Number(r.counts.stations),
        removedNrChargingStation: Number(r.counts.removedStations),
        totalNrChargePoints: Number(r.counts.points),
        removedNrChargePoints: Number(r.counts.removedPoints),
      },
      numEndCustomers: r.endCustomers,
      cpoId: r.cpoId,
      cpoName: r.cpoName,
      locationIdName: `${r.locationId}: ${r.locationName}`,
    })),
  };
}

// ---------------------------------------------------------------------------------------------

export async function listWallboxTypes(db: Db): Promise<WallboxType[]> {
  const rows = await db.select().from(wallboxModels).orderBy(asc(wallboxModels.name));
  return rows.map((r) => ({ ...r, maxPowerKw: Number(r.maxPowerKw) }));
}

/** Model names of the list that do not exist. */
export async function unknownModels(db: Db, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const found = await db.select({ name: wallboxModels.name }).from(wallboxModels).where(inArray(wallboxModels.name, names));
  const known = new Set(found.map((f) => f.name));
  return names.filter((n) => !known.has(n));
}

/** The next free `L<n>` location id; holds the id lock until the transaction ends. */
export async function nextLocationId(db: Db): Promise<string> {
  await transactionLock(db, 'locations.location_id');
  const [{ maxNo }] = await db
    .select({ maxNo: sql<number>`coalesce(max(substring(${locations.locationId} from 2)::int), 10000)::int` })
    .from(locations)
    .where(sql`${locations.locationId} ~ '^L[0-9]{1,9}$'`);
  return `L${maxNo + 1}`;
}

export async function insertLocation(
  db: Db,
  location: typeof locations.$inferInsert,
  infrastructure: Omit<typeof locationInfrastructure.$inferInsert, 'locationId'>[],
) {
  await db.insert(locations).values(location);
  if (infrastructure.length > 0) {
    await db.insert(locationInfrastructure).values(infrastructure.map((i) => ({ ...i, locationId: location.locationId })));
  }
}

// ---------------------------------------------------------------------------------------------

/** Every location of the caller's operators for selects, sorted by name (then id). */
export async function getLocationsForDropdown(db: Db, scope: Scope, cpoId?: string): Promise<LocationDropdownRow[]> {
  const lots = db
    .select({
      locationId: connectors.locationId,
      lots: sql<string[]>`array_agg(distinct ${connectors.parkingLot})`.as('lots'),
    })
    .from(connectors)
    .where(and(eq(connectors.removed, false), sql`${connectors.parkingLot} is not null`))
    .groupBy(connectors.locationId)
    .as('pl');
  const rows = await db
    .select({
      locationId: locations.locationId,
      locationName: locations.locationName,
      cpoId: locations.cpoId,
      cpoName: operators.cpoName,
      parkingLots: lots.lots,
    })
    .from(locations)
    .innerJoin(operators, eq(operators.cpoId, locations.cpoId))
    .leftJoin(lots, eq(lots.locationId, locations.locationId))
    .where(and(...[scope.where(locations.cpoId), cpoId ? eq(locations.cpoId, cpoId) : undefined]))
    .orderBy(asc(locations.locationName), asc(locations.locationId));
  return rows.map((r) => ({
    ...r,
    parkingLots: sortParkingLots(r.parkingLots ?? []),
    locationIdName: `${r.locationId}: ${r.locationName}`,
  }));
}

/** The location if it exists inside the scope (optionally locked for update). */
export async function findLocation(db: Db, scope: Scope, locationId: string, forUpdate = false) {
  const q = db
    .select()
    .from(locations)
    .where(and(eq(locations.locationId, locationId), scope.where(locations.cpoId)));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

/** Stations are distinct cpIds, removed when none of their connectors is left; connectors are Ladepunkte. */
function stationCounts(cons: readonly { cpId: string; removed: boolean }[]) {
  const stations = new Set(cons.map((c) => c.cpId));
  const live = new Set(cons.filter((c) => !c.removed).map((c) => c.cpId));
  return {
    totalChargingStations: stations.size,
    removedChargingStations: stations.size - live.size,
    totalChargePoints: cons.length,
    removedChargePoints: cons.filter((c) => c.removed).length,
  };
}

export async function getLocationDetail(db: Db, scope: Scope, locationId: string): Promise<LocationDetail | undefined> {
  const [row] = await db
    .select({ loc: locations, op: operators })
    .from(locations)
    .innerJoin(operators, eq(operators.cpoId, locations.cpoId))
    .where(and(eq(locations.locationId, locationId), scope.where(locations.cpoId)));
  if (!row) return undefined;
  const { loc, op } = row;
  const cons = await db
    .select({ cpId: connectors.cpId, status: connectors.status, parkingLot: connectors.parkingLot, removed: connectors.removed })
    .from(connectors)
    .where(eq(connectors.locationId, locationId));
  const stationSummary: Record<string, { number: number; color: string }> = {};
  const lots = new Set<string>();
  for (const c of cons) {
    if (c.removed) continue;
    if (c.parkingLot) lots.add(c.parkingLot);
    const key = connectorDisplayStatus(c.status, c.parkingLot);
    stationSummary[key] ??= { number: 0, color: connectorStatusColours[key] };
    stationSummary[key].number++;
  }
  const requested = await db
    .select({
      chargingStationModel: locationInfrastructure.chargingStationModel,
      numOfChargingStations: locationInfrastructure.numOfChargingStations,
    })
    .from(locationInfrastructure)
    .where(eq(locationInfrastructure.locationId, locationId))
    .orderBy(asc(locationInfrastructure.id));
  const contractRows = await db
    .select({ status: contracts.contractStatus, n: count() })
    .from(contracts)
    .where(eq(contracts.locationId, locationId))
    .groupBy(contracts.contractStatus);
  const contractSummary: Record<string, { number: number; color: string }> = {};
  for (const r of contractRows) contractSummary[r.status] = { number: r.n, color: contractStatusColours[r.status] };
  return {
    locationId: loc.locationId,
    locationName: loc.locationName,
    locationAddress: address(loc),
    cpoId: loc.cpoId,
    operatorDetail: {
      cpoId: op.cpoId,
      cpoName: op.cpoName,
      cpoAddress: { street: op.street, zipCode: op.zipCode, city: op.city },
    },
    chargingInfrastructureMetrics: {
      ...stationCounts(cons),
      statusesSummary: stationSummary,
    },
    contractMetrics: {
      totalContractStatuses: contractRows.reduce((s, r) => s + r.n, 0),
      statusesSummary: contractSummary,
    },
    isEmsConnected: loc.isEmsConnected,
    emsModel: loc.emsModel,
    emsId: loc.emsId,
    requestedInfrastructure: requested,
    parkingLots: sortParkingLots([...lots]),
    version: loc.version,
  };
}

/** Writes a location's name and address and moves its version on by one. */
export async function writeLocation(db: Db, locationId: string, body: z.output<typeof updateLocationBodySchema>) {
  const [updated] = await db
    .update(locations)
    .set({
      locationName: body.locationName,
      street: body.locationAddress.street,
      city: body.locationAddress.city,
      zipCode: body.locationAddress.zipCode,
      // The edit sends the whole address and clients drop empty values, so a missing c/o means none.
      careOf: body.locationAddress.careOf ?? null,
      version: sql`${locations.version} + 1`,
    })
    .where(eq(locations.locationId, locationId))
    .returning({ locationId: locations.locationId, locationName: locations.locationName, version: locations.version });
  return updated!;
}

export async function getParkingInfo(db: Db, scope: Scope, locationId: string): Promise<ParkingInfo | undefined> {
  const loc = await findLocation(db, scope, locationId);
  if (!loc) return undefined;
  const rows = await db
    .select({ connectorId: connectors.connectorId, cpId: connectors.cpId, parkingLot: connectors.parkingLot })
    .from(connectors)
    .where(and(eq(connectors.locationId, locationId), eq(connectors.removed, false), isNotNull(connectors.parkingLot)));
  const withLots = rows
    .map((r) => ({ ...r, parkingLot: r.parkingLot ?? '' }))
    .sort((a, b) => a.parkingLot.localeCompare(b.parkingLot, 'de', { numeric: true }));
  return { locationId, parkingLots: withLots.map((r) => r.parkingLot), connectors: withLots };
}
