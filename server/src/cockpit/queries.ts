import { and, asc, count, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  COCKPIT_TIME_ZONE,
  CLEANED_STATUS,
  KPI_ENERGY_STATUSES,
  STUCK_EARLY_STATUSES,
  filterStatuses,
  statusMapping,
  type ChargingHistoryFilter,
  type ChargingRequestRow,
  type GraphAnswer,
  type GraphType,
  type GraphUnit,
  type KpiInformation,
  type LocationDropdownRow,
} from '../../../contract/cockpit';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { chargingRequestDays, chargingRequestMonths, chargingRequests, connectors, contracts, locations, operators } from '../db/schema';
import { ApiError } from '../http/errors';

const TZ = sql.raw(`'${COCKPIT_TIME_ZONE}'`);

/** First instant of a Berlin calendar day: a constant expression, so the start-date indexes apply. */
const dayStart = (day: string): SQL => sql`((${day}::date)::timestamp at time zone ${TZ})`;
/** First instant of the Berlin day after `day`. */
const dayAfter = (day: string): SQL => sql`(((${day}::date) + 1)::timestamp at time zone ${TZ})`;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

const andAll = (conds: (SQL | undefined)[]) => {
  const present = conds.filter((c): c is SQL => c !== undefined);
  return present.length ? and(...present) : undefined;
};

/** 'YYYY-MM-DD' of the first of the month of `day`, `months` later. */
const firstOfMonth = (day: string, months = 0) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

interface RollupFilter {
  locations?: string[];
  statuses?: readonly string[];
  /** Berlin days, inclusive; undefined: unbounded. */
  startDate?: string;
  endDate?: string;
  /** false: days only (a bucket per day needs them); true: the whole months of the range from the monthly roll-up. */
  months: boolean;
}

/**
 * Roll-up rows (`at`: a Berlin day or the first of a Berlin month; requests, energy_kwh, cost) that
 * together cover exactly the caller's requests in the range: each whole month of it from
 * charging_request_months, the days before the first and after the last whole month from
 * charging_request_days.
 */
function rollupRows(scope: Scope, f: RollupFilter): SQL {
  // Whole months: [fullFrom, fullTo); an undefined bound is open on that side.
  let fullFrom = f.startDate === undefined ? undefined : f.startDate.endsWith('-01') ? f.startDate : firstOfMonth(f.startDate, 1);
  let fullTo = f.endDate === undefined ? undefined : firstOfMonth(nextDay(f.endDate));
  const useMonths = f.months && !(fullFrom !== undefined && fullTo !== undefined && fullFrom >= fullTo);
  if (!useMonths) fullFrom = fullTo = undefined;
  const common = (t: typeof chargingRequestDays | typeof chargingRequestMonths) => [
    scope.where(t.cpoId),
    f.locations?.length ? inArray(t.locationId, f.locations) : undefined,
    f.statuses?.length ? inArray(t.status, [...f.statuses]) : undefined,
  ];
  const m = chargingRequestMonths;
  const d = chargingRequestDays;
  const months = sql`select ${m.month} as at, ${m.requests} as requests, ${m.energyKwh} as energy_kwh, ${m.cost} as cost from ${m} where ${
    andAll([
      ...common(m),
      fullFrom !== undefined ? sql`${m.month} >= ${fullFrom}::date` : undefined,
      fullTo !== undefined ? sql`${m.month} < ${fullTo}::date` : undefined,
    ]) ?? sql`true`
  }`;
  // With months: only the days outside the whole months.
  const edges = [
    fullFrom !== undefined ? sql`${d.day} < ${fullFrom}::date` : undefined,
    fullTo !== undefined ? sql`${d.day} >= ${fullTo}::date` : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const days = sql`select ${d.day} as at, ${d.requests} as requests, ${d.energyKwh} as energy_kwh, ${d.cost} as cost from ${d} where ${
    andAll([
      ...common(d),
      f.startDate !== undefined ? sql`${d.day} >= ${f.startDate}::date` : undefined,
      f.endDate !== undefined ? sql`${d.day} <= ${f.endDate}::date` : undefined,
      edges.length ? sql`(${sql.join(edges, sql` or `)})` : undefined,
    ]) ?? sql`true`
  }`;
  if (!useMonths) return days;
  // Open on both sides: the monthly roll-up alone.
  return edges.length ? sql`${months} union all ${days}` : months;
}

export interface GraphParams {
  graphType: GraphType;
  unit: GraphUnit;
  startDate: string;
  endDate: string;
  locations: string[];
}

/** KPIs and chart points, aggregated in SQL over the caller's operators (and locations, when given; the route checks they are the caller's). */
export async function getGraph(db: Db, scope: Scope, p: GraphParams, today: string): Promise<GraphAnswer> {
  const [series, counts] = await Promise.all([graphSeries(db, scope, p), licenceAndUserCounts(db, scope, p, today)]);
  return {
    kpiInformation: { totalEnergyCharged: series.energy, totalRevenue: series.revenue, ...counts },
    graphUnits: series.points,
  };
}

function requestConditions(scope: Scope, p: GraphParams): SQL[] {
  return [
    scope.where(chargingRequests.cpoId),
    p.locations.length ? inArray(chargingRequests.locationId, p.locations) : undefined,
    sql`${chargingRequests.startDate} >= ${dayStart(p.startDate)}`,
    sql`${chargingRequests.startDate} < ${dayAfter(p.endDate)}`,
  ].filter((c): c is SQL => c !== undefined);
}

/**
 * One pass over the range's requests: per bucket energy, revenue and (for ACTIVE_USERS) distinct
 * end customers, joined onto every bucket of the range so empty days/months answer 0; the range
 * totals of energy and revenue are the sums over the buckets. A request finds its bucket by binary
 * search over the buckets' first instants (Berlin midnight, DST-correct) with width_bucket, which is
 * cheaper than converting every row's timestamp to local time.
 */
async function graphSeries(
  db: Db,
  scope: Scope,
  p: GraphParams,
): Promise<{ energy: number; revenue: number; points: GraphAnswer['graphUnits'] }> {
  const monthly = p.unit === 'MONTHS';
  const step = sql.raw(monthly ? `interval '1 month'` : `interval '1 day'`);
  const trunc = sql.raw(monthly ? `'month'` : `'day'`);
  const labelFormat = sql.raw(monthly ? `'YYYY-MM'` : `'YYYY-MM-DD'`);
  const counted = inArray(chargingRequests.status, [...KPI_ENERGY_STATUSES]);
  const activeUsers = p.graphType === 'ACTIVE_USERS';
  if (!activeUsers) return energySeries(db, scope, p);
  const result = await db.execute(sql`
    with buckets as (
      select (row_number() over (order by g))::int as i, g::date as bucket
      from generate_series(
        date_trunc(${trunc}, ${p.startDate}::date::timestamp),
        date_trunc(${trunc}, ${p.endDate}::date::timestamp),
        ${step}
      ) as g
    ),
    thresholds as (
      select array_agg(bucket::timestamp at time zone ${TZ} order by i) as a from buckets
    ),
    src as (
      select
        width_bucket(${chargingRequests.startDate}, (select a from thresholds)) as i,
        ${chargingRequests.energyKwh} as energy,
        ${chargingRequests.cost} as cost,
        ${counted} as counted,
        ${chargingRequests.endCustomerId} as customer
      from ${chargingRequests}
      where ${and(...requestConditions(scope, p))}
    ),
    agg as (
      select i, sum(energy) filter (where counted) as energy, sum(cost) filter (where counted) as revenue
      from src group by i
    ),
    users as (
      ${
        activeUsers
          ? sql`select i, count(*) as n from (select distinct i, customer from src where customer is not null) d group by i`
          : sql`select null::int as i, 0::bigint as n where false`
      }
    )
    select
      to_char(b.bucket, ${labelFormat}) as label,
      coalesce(round(agg.energy, 3), 0)::float8 as energy,
      coalesce(users.n, 0)::int as users,
      (select coalesce(round(sum(energy), 3), 0) from agg)::float8 as total_energy,
      (select coalesce(round(sum(revenue), 2), 0) from agg)::float8 as total_revenue
    from buckets b
    left join agg on agg.i = b.i
    left join users on users.i = b.i
    order by b.i`);
  const rows = rowsOf<{
    label: string;
    energy: number | string;
    users: number | string;
    total_energy: number | string;
    total_revenue: number | string;
  }>(result);
  return {
    energy: Number(rows[0]?.total_energy ?? 0),
    revenue: Number(rows[0]?.total_revenue ?? 0),
    points: rows.map((r) => ({ label: r.label, value: Number(activeUsers ? r.users : r.energy) })),
  };
}

/**
 * Energy per bucket and the range's energy and revenue from the roll-ups (`rollupRows`: whole
 * months from the monthly one when the buckets are months): the same sums as over the raw requests,
 * since a roll-up day (month) is the Berlin day (month) of a request's start and the range is whole
 * Berlin days.
 */
async function energySeries(
  db: Db,
  scope: Scope,
  p: GraphParams,
): Promise<{ energy: number; revenue: number; points: GraphAnswer['graphUnits'] }> {
  const monthly = p.unit === 'MONTHS';
  const step = sql.raw(monthly ? `interval '1 month'` : `interval '1 day'`);
  const trunc = sql.raw(monthly ? `'month'` : `'day'`);
  const labelFormat = sql.raw(monthly ? `'YYYY-MM'` : `'YYYY-MM-DD'`);
  const rolled = rollupRows(scope, {
    locations: p.locations,
    statuses: KPI_ENERGY_STATUSES,
    startDate: p.startDate,
    endDate: p.endDate,
    months: monthly,
  });
  const result = await db.execute(sql`
    with buckets as (
      select g::date as bucket
      from generate_series(
        date_trunc(${trunc}, ${p.startDate}::date::timestamp),
        date_trunc(${trunc}, ${p.endDate}::date::timestamp),
        ${step}
      ) as g
    ),
    agg as (
      select date_trunc(${trunc}, at::timestamp)::date as bucket, sum(energy_kwh) as energy, sum(cost) as revenue
      from (${rolled}) as rolled
      group by 1
    )
    select
      to_char(b.bucket, ${labelFormat}) as label,
      coalesce(round(agg.energy, 3), 0)::float8 as energy,
      (select coalesce(round(sum(energy), 3), 0) from agg)::float8 as total_energy,
      (select coalesce(round(sum(revenue), 2), 0) from agg)::float8 as total_revenue
    from buckets b
    left join agg on agg.bucket = b.bucket
    order by b.bucket`);
  const rows = rowsOf<{ label: string; energy: number | string; total_energy: number | string; total_revenue: number | string }>(result);
  return {
    energy: Number(rows[0]?.total_energy ?? 0),
    revenue: Number(rows[0]?.total_revenue ?? 0),
    points: rows.map((r) => ({ label: r.label, value: Number(r.energy) })),
  };
}

/** Not range-bound: connectors (not removed) and contracts not expired, in scope and at the locations. */
async function licenceAndUserCounts(
  db: Db,
  scope: Scope,
  p: GraphParams,
  today: string,
): Promise<Pick<KpiInformation, 'totalWallboxLicenses' | 'totalEndUsers'>> {
  // Both counts in one statement.
  const wallboxes = db
    .select({ n: count() })
    .from(connectors)
    .where(
      andAll([
        scope.where(connectors.cpoId),
        eq(connectors.removed, false),
        p.locations.length ? inArray(connectors.locationId, p.locations) : undefined,
      ]),
    );
  const users = db
    .select({ n: count() })
    .from(contracts)
    .where(
      andAll([
        scope.where(contracts.cpoId),
        sql`${contracts.contractStatus} not in ('EXPIRED', 'UNSIGNED_EXPIRED')`,
        sql`(${contracts.endDate} is null or ${contracts.endDate} >= ${today}::date)`,
        p.locations.length ? inArray(contracts.locationId, p.locations) : undefined,
      ]),
    );
  const [counts] = rowsOf<{ wallboxes: number | string; users: number | string }>(
    await db.execute(sql`select (${wallboxes}) as wallboxes, (${users}) as users`),
  );
  return { totalWallboxLicenses: Number(counts.wallboxes), totalEndUsers: Number(counts.users) };
}

// ---------------------------------------------------------------------------------------------

export interface HistoryParams {
  transactionId?: string;
  endCustomerId?: string;
  contractKey?: string;
  connectorId?: string;
  startDate?: string;
  endDate?: string;
  filters: ChargingHistoryFilter[];
  page: number;
  size: number;
}

/** Paged charging requests of the caller's operators, newest first. */
export async function getChargingHistory(db: Db, scope: Scope, p: HistoryParams): Promise<{ total: number; rows: ChargingRequestRow[] }> {
  if (p.contractKey) {
    const [c] = await db.select({ cpoId: contracts.cpoId }).from(contracts).where(eq(contracts.contractKey, p.contractKey));
    if (!c || !scope.canSeeOperator(c.cpoId)) throw new ApiError(404, 'CONTRACT_NOT_FOUND', `Contract ${p.contractKey} not found`);
  }
  if (p.connectorId) {
    const [c] = await db.select({ cpoId: connectors.cpoId }).from(connectors).where(eq(connectors.connectorId, p.connectorId));
    if (!c || !scope.canSeeOperator(c.cpoId)) throw new ApiError(404, 'CONNECTOR_NOT_FOUND', `Connector ${p.connectorId} not found`);
  }
  const statuses = p.filters.flatMap((f) => filterStatuses[f]);
  const where = andAll([
    scope.where(chargingRequests.cpoId),
    p.transactionId ? eq(chargingRequests.transactionId, p.transactionId) : undefined,
    p.endCustomerId ? eq(chargingRequests.endCustomerId, p.endCustomerId) : undefined,
    p.contractKey ? eq(chargingRequests.contractKey, p.contractKey) : undefined,
    p.connectorId ? eq(chargingRequests.connectorId, p.connectorId) : undefined,
    p.startDate ? gte(chargingRequests.startDate, sql`${dayStart(p.startDate)}`) : undefined,
    p.endDate ? lt(chargingRequests.startDate, sql`${dayAfter(p.endDate)}`) : undefined,
    statuses.length ? inArray(chargingRequests.status, statuses) : undefined,
  ]);
  // The total: from the roll-ups when every filter is one of their columns (operator, Berlin day,
  // status), else (transaction, end customer, contract or connector: index-backed and few rows) an
  // exact count. Either way a column of the page's own statement.
  const total =
    p.transactionId || p.endCustomerId || p.contractKey || p.connectorId
      ? db
          .select({ n: sql`count(*)` })
          .from(chargingRequests)
          .where(where)
      : db
          .select({ n: sql`coalesce(sum(rolled.requests), 0)` })
          .from(sql`(${rollupRows(scope, { statuses, startDate: p.startDate, endDate: p.endDate, months: true })}) as rolled`);
  const rows = await db
    .select({
      r: chargingRequests,
      l: {
        careOf: locations.careOf,
        street: locations.street,
        zipCode: locations.zipCode,
        city: locations.city,
        locationName: locations.locationName,
      },
      total: sql<string | number>`(${total})`.mapWith(Number),
    })
    .from(chargingRequests)
    .innerJoin(locations, eq(locations.locationId, chargingRequests.locationId))
    .where(where)
    // NULLS LAST (the columns are NOT NULL anyway) to match the indexes drizzle-kit creates as DESC NULLS LAST.
    .orderBy(sql`${chargingRequests.startDate} desc nulls last`, sql`${chargingRequests.transactionId} desc nulls last`)
    .limit(p.size)
    .offset(p.page * p.size);
  // A page past the end has no row to carry the total.
  const n = rows.length ? rows[0].total : Number((await total)[0].n);
  return {
    total: n,
    rows: rows.map(({ r, l }) => ({
      transactionId: r.transactionId,
      endCustomerId: r.endCustomerId,
      customerFullName: r.customerFullName,
      parkingLot: r.parkingLot,
      locationAddress: { careOf: l.careOf, street: l.street, zipCode: l.zipCode, city: l.city },
      authType: r.authType,
      rfidTag: r.rfidTag,
      rfidSerialId: r.rfidSerialId,
      status: r.status,
      startDate: r.startDate.toISOString(),
      endDate: r.endDate?.toISOString() ?? null,
      lastUpdateTimestamp: r.lastUpdateTimestamp.toISOString(),
      energyCharged: Number(r.energyKwh),
      sessionCost: Number(r.cost),
      chargingRequestStatusMapping: statusMapping(r.status),
      locationId: r.locationId,
      locationName: l.locationName,
      connectorId: r.connectorId,
      cpoId: r.cpoId,
    })),
  };
}

// ---------------------------------------------------------------------------------------------

/** Every location of the caller's operators for selects, sorted by name (then id). */
export async function getLocationsForDropdown(db: Db, scope: Scope, cpoId?: string): Promise<LocationDropdownRow[]> {
  const lots = db
    .select({
      locationId: connectors.locationId,
      lots: sql<string[]>`array_agg(distinct ${connectors.parkingLot} order by ${connectors.parkingLot})`.as('lots'),
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
    .where(andAll([scope.where(locations.cpoId), cpoId ? eq(locations.cpoId, cpoId) : undefined]))
    .orderBy(asc(locations.locationName), asc(locations.locationId));
  return rows.map((r) => ({
    ...r,
    parkingLots: r.parkingLots ?? [],
    locationIdName: `${r.locationId}: ${r.locationName}`,
  }));
}

// ---------------------------------------------------------------------------------------------

/** Closes the caller's requests stuck in an early status since before now − threshold. */
export async function cleanStuckRequests(db: Db, scope: Scope, minutesThreshold: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - minutesThreshold * 60_000);
  const changed = await db
    .update(chargingRequests)
    .set({ status: CLEANED_STATUS, endDate: now, lastUpdateTimestamp: now })
    .where(
      andAll([
        scope.where(chargingRequests.cpoId),
        inArray(chargingRequests.status, [...STUCK_EARLY_STATUSES]),
        lt(chargingRequests.lastUpdateTimestamp, cutoff),
      ]),
    )
    .returning({ transactionId: chargingRequests.transactionId });
  return changed.length;
}
