import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  COCKPIT_TIME_ZONE,
  CLEANED_STATUS,
  KPI_ENERGY_STATUSES,
  STUCK_EARLY_STATUSES,
  filterStatuses,
  statusMapping,
  type ChargingHistoryFilter,
  parseHistoryCursor,
  type ChargingRequestRow,
  type GraphAnswer,
  type GraphType,
  type GraphUnit,
} from '../../../contract/cockpit';
import { assertVisible, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { chargingRequestTotals, chargingRequests } from '../db/schema/cockpit';
import { contractEndCounts } from '../db/schema/contracts';
import { locations } from '../db/schema/locations';
import { connectorCounts } from '../db/schema/stations';
import { firstOfMonth, nextDay } from '../db/sql-helpers';
import { activeUserRows, customerMonthRows, monthOf, noRequestsOn, rollupRows, wholeMonths } from './rollups';

const TZ = sql.raw(`'${COCKPIT_TIME_ZONE}'`);

/** First instant of a Berlin calendar day: a constant expression, so the start-date indexes apply. */
const dayStart = (day: string): SQL => sql`((${day}::date)::timestamp at time zone ${TZ})`;
/** First instant of the Berlin day after `day`. */
const dayAfter = (day: string): SQL => sql`(((${day}::date) + 1)::timestamp at time zone ${TZ})`;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

export interface GraphParams {
  graphType: GraphType;
  unit: GraphUnit;
  startDate: string;
  endDate: string;
  locations: string[];
}

/**
 * KPIs and chart points, aggregated in SQL over the caller's operators (and locations, when given;
 * the route checks they are the caller's). Energy and revenue come from the roll-ups; only the
 * active-users series reads the requests themselves (distinct customers do not add up).
 */
export async function getGraph(db: Db, scope: Scope, p: GraphParams, today: string): Promise<GraphAnswer> {
  const b = buckets(p);
  const energy = energyParts(scope, p);
  const users = p.graphType === 'ACTIVE_USERS' ? activeUsersParts(scope, p) : undefined;
  const counts = licenceAndUserCounts(db, scope, p, today);
  // One statement: the buckets, the energy series and totals, the active users, the licences and end users.
  const result = await db.execute(sql`
    with buckets as (${b.rows}),
    ${users ? sql`${users.ctes},` : sql``}
    ${energy.ctes}
    select
      to_char(b.bucket, ${b.label}) as label,
      ${users ? users.column : sql`null::int`} as users,
      ${energy.columns},
      (${counts.wallboxes}) as wallboxes,
      (${counts.users}) as end_users
    from buckets b
    left join agg on agg.bucket = b.bucket
    ${users ? users.join : sql``}
    order by b.i`);
  const rows = rowsOf<{
    label: string;
    users: number | null;
    energy: number | string;
    total_energy: number | string;
    total_revenue: number | string;
    wallboxes: number | string;
    end_users: number | string;
  }>(result);
  const first = rows[0];
  return {
    kpiInformation: {
      totalEnergyCharged: Number(first?.total_energy ?? 0),
      totalRevenue: Number(first?.total_revenue ?? 0),
      totalWallboxLicenses: Number(first?.wallboxes ?? 0),
      totalEndUsers: Number(first?.end_users ?? 0),
    },
    graphUnits: rows.map((r) => ({ label: r.label, value: Number(users ? r.users : r.energy) })),
  };
}

/**
 * The chart's buckets (every Berlin day or month of the range, numbered from 1) and their labels.
 * The days or months are listed here and sent as one array: a set-returning function of the range's
 * values made PostgreSQL's kept (generic) plan guess 1,000 buckets, dearer than planning each call.
 */
function buckets(p: GraphParams) {
  const monthly = p.unit === 'MONTHS';
  const days: string[] = [];
  const last = monthly ? firstOfMonth(p.endDate) : p.endDate;
  for (let d = monthly ? firstOfMonth(p.startDate) : p.startDate; d <= last; d = monthly ? firstOfMonth(d, 1) : nextDay(d)) days.push(d);
  return {
    trunc: sql.raw(monthly ? `'month'` : `'day'`),
    label: sql.raw(monthly ? `'YYYY-MM'` : `'YYYY-MM-DD'`),
    rows: sql`select i::int as i, bucket from unnest(${`{${days.join(',')}}`}::date[]) with ordinality as g(bucket, i)`,
  };
}

/**
 * Energy per bucket and the range's energy and revenue from the roll-ups (`rollupRows`: whole
 * months from the monthly one when the buckets are months): the same sums as over the raw requests,
 * since a roll-up day (month) is the Berlin day (month) of a request's start and the range is whole
 * Berlin days.
 */
function energyParts(scope: Scope, p: GraphParams): { ctes: SQL; columns: SQL } {
  const b = buckets(p);
  const rolled = rollupRows(scope, {
    locations: p.locations,
    statuses: KPI_ENERGY_STATUSES,
    startDate: p.startDate,
    endDate: p.endDate,
    months: p.unit === 'MONTHS',
  });
  return {
    ctes: sql`agg as (
      select date_trunc(${b.trunc}, at::timestamp)::date as bucket, sum(energy_kwh) as energy, sum(cost) as revenue
      from (${rolled}) as rolled
      group by 1
    )`,
    columns: sql`coalesce(round(agg.energy, 3), 0)::float8 as energy,
      (select coalesce(round(sum(energy), 3), 0) from agg)::float8 as total_energy,
      (select coalesce(round(sum(revenue), 2), 0) from agg)::float8 as total_revenue`,
  };
}

/** The range's requests of the caller (and of the chosen locations), by their Berlin start day. */
const requestConditions = (scope: Scope, p: GraphParams) => [
  scope.where(chargingRequests.cpoId),
  p.locations.length ? inArray(chargingRequests.locationId, p.locations) : undefined,
  sql`${chargingRequests.startDate} >= ${dayStart(p.startDate)}`,
  sql`${chargingRequests.startDate} < ${dayAfter(p.endDate)}`,
];

/**
 * (bucket's first day, distinct customers) of month buckets when the range covers at least one whole
 * month: the whole months from the roll-ups, the days of a ragged first or last month from the
 * requests (a ragged end lies in one month, so all of its requests fall in that month's bucket:
 * first or last). Without a location filter the whole months are a row per operator and month
 * (`activeUserRows`), and a ragged last month with no request after the range's end (the chart's
 * month to date) is counted there too; at locations, from charging_request_customer_months.
 */
function monthlyCustomers(scope: Scope, p: GraphParams, whole: { from: string; to: string }): SQL {
  const raggedDays = (month: string, from: SQL, to: SQL, gate?: SQL) =>
    sql`select ${month}::date as bucket, ${chargingRequests.endCustomerId} as customer from ${chargingRequests}
      where ${and(
        scope.where(chargingRequests.cpoId),
        p.locations.length ? inArray(chargingRequests.locationId, p.locations) : undefined,
        sql`${chargingRequests.startDate} >= ${from}`,
        sql`${chargingRequests.startDate} < ${to}`,
        gate,
      )} and ${chargingRequests.endCustomerId} is not null`;
  const distinct = (parts: SQL[]) =>
    sql`select bucket, count(*) as n from (select distinct bucket, customer from (${sql.join(parts, sql` union all `)}) c) d group by bucket`;
  const first = p.startDate < whole.from ? raggedDays(monthOf(p.startDate), dayStart(p.startDate), dayStart(whole.from)) : undefined;
  const lastMonth = monthOf(p.endDate);
  const afterLast = whole.to <= p.endDate ? { from: nextDay(p.endDate), to: firstOfMonth(lastMonth, 1) } : undefined;
  if (p.locations.length) {
    const parts = [
      customerMonthRows(scope, { locations: p.locations, ...whole }),
      first,
      afterLast ? raggedDays(lastMonth, dayStart(whole.to), dayAfter(p.endDate)) : undefined,
    ].filter((part): part is SQL => part !== undefined);
    return distinct(parts);
  }
  // The last month as a whole one when nothing of the caller lies after the range's end in it.
  const empty = afterLast && noRequestsOn(scope, afterLast);
  const raw = [first, afterLast ? raggedDays(lastMonth, dayStart(whole.to), dayAfter(p.endDate), sql`not ${empty}`) : undefined].filter(
    (part): part is SQL => part !== undefined,
  );
  const counted = [
    activeUserRows(scope, whole),
    afterLast ? activeUserRows(scope, { from: lastMonth, to: afterLast.to, gate: empty }) : undefined,
    raw.length ? distinct(raw) : undefined,
  ].filter((part): part is SQL => part !== undefined);
  return sql`select bucket, sum(n) as n from (${sql.join(counted, sql` union all `)}) u group by bucket`;
}

/**
 * Distinct end customers per bucket, joined onto every bucket so empty days/months answer 0.
 * Month buckets that lie wholly in the range read charging_request_customer_months (a customer per
 * operator, location and month); the days of a ragged first or last month, and day buckets, read
 * the requests of those days. The day bucket of a request is found by binary search over the
 * buckets' first instants (Berlin midnight, DST-correct) with width_bucket, which is cheaper than
 * converting every row's timestamp to local time.
 */
function activeUsersParts(scope: Scope, p: GraphParams): { ctes: SQL; column: SQL; join: SQL } {
  const whole = p.unit === 'MONTHS' ? wholeMonths(p.startDate, p.endDate) : undefined;
  const users = whole
    ? monthlyCustomers(scope, p, whole)
    : sql`select i, count(*) as n from (
        select distinct width_bucket(${chargingRequests.startDate}, (select a from thresholds)) as i, ${chargingRequests.endCustomerId} as customer
        from ${chargingRequests}
        where ${and(...requestConditions(scope, p))} and ${chargingRequests.endCustomerId} is not null
      ) d
      group by i`;
  return {
    ctes: sql`thresholds as (
      select array_agg(bucket::timestamp at time zone ${TZ} order by i) as a from buckets
    ),
    users as (${users})`,
    column: sql`coalesce(users.n, 0)::int`,
    join: sql`left join users on ${whole ? sql`users.bucket = b.bucket` : sql`users.i = b.i`}`,
  };
}

/** Not range-bound: connectors (not removed) and contracts not expired, in scope and at the locations. */
function licenceAndUserCounts(db: Db, scope: Scope, p: GraphParams, today: string): Record<'wallboxes' | 'users', SQL | { getSQL(): SQL }> {
  // A licence per station (wallbox), not per connector: a double station is one. Summed from the
  // roll-up (a station's live connectors share its operator and location, so each station is one
  // row's live station), not counted over every connector of the scope.
  const wallboxes = db
    .select({ n: sql<number>`coalesce(sum(${connectorCounts.liveStations}), 0)` })
    .from(connectorCounts)
    .where(
      and(...[scope.where(connectorCounts.cpoId), p.locations.length ? inArray(connectorCounts.locationKey, p.locations) : undefined]),
    );
  // Contracts not expired and ending today or later, from their roll-up by end date (migration 0019_operator_rollups).
  const users = db
    .select({ n: sql<number>`coalesce(sum(${contractEndCounts.contracts}), 0)` })
    .from(contractEndCounts)
    .where(
      and(
        ...[
          scope.where(contractEndCounts.cpoId),
          sql`${contractEndCounts.endDate} >= ${today}::date`,
          p.locations.length ? inArray(contractEndCounts.locationKey, p.locations) : undefined,
        ],
      ),
    );
  return { wallboxes, users };
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
  /** Keyset paging: the rows after this one (contract historyCursorSchema), instead of an offset. */
  after?: string;
}

/** Paged charging requests of the caller's operators, newest first. */
export async function getChargingHistory(db: Db, scope: Scope, p: HistoryParams): Promise<{ total: number; rows: ChargingRequestRow[] }> {
  if (p.contractKey) await assertVisible(db, scope, 'contract', [p.contractKey]);
  if (p.connectorId) await assertVisible(db, scope, 'connector', [p.connectorId]);
  const statuses = p.filters.flatMap((f) => filterStatuses[f]);
  const where = and(
    ...[
      scope.where(chargingRequests.cpoId),
      p.transactionId ? eq(chargingRequests.transactionId, p.transactionId) : undefined,
      p.endCustomerId ? eq(chargingRequests.endCustomerId, p.endCustomerId) : undefined,
      p.contractKey ? eq(chargingRequests.contractKey, p.contractKey) : undefined,
      p.connectorId ? eq(chargingRequests.connectorId, p.connectorId) : undefined,
      p.startDate ? gte(chargingRequests.startDate, sql`${dayStart(p.startDate)}`) : undefined,
      p.endDate ? lt(chargingRequests.startDate, sql`${dayAfter(p.endDate)}`) : undefined,
      statuses.length ? inArray(chargingRequests.status, statuses) : undefined,
    ],
  );
  // The total: from the roll-ups when every filter is one of their columns (operator, Berlin day,
  // status), else (transaction, end customer, contract or connector: index-backed and few rows) an
  // exact count. Either way a column of the page's own statement.
  // Without a date range, from the all-time totals per operator and status.
  const total =
    p.transactionId || p.endCustomerId || p.contractKey || p.connectorId
      ? db
          .select({ n: sql`count(*)` })
          .from(chargingRequests)
          .where(where)
      : p.startDate === undefined && p.endDate === undefined
        ? db
            .select({ n: sql`coalesce(sum(${chargingRequestTotals.requests}), 0)` })
            .from(chargingRequestTotals)
            .where(
              and(scope.where(chargingRequestTotals.cpoId), statuses.length ? inArray(chargingRequestTotals.status, statuses) : undefined),
            )
        : db
            .select({ n: sql`coalesce(sum(rolled.requests), 0)` })
            .from(sql`(${rollupRows(scope, { statuses, startDate: p.startDate, endDate: p.endDate, months: true })}) as rolled`);
  // After the cursor's row in the order below (start desc, transaction desc): the index walks from
  // there instead of over page * size rows. Start instants are written as JS dates, so the cursor's
  // milliseconds are exact.
  const cursor = p.after ? parseHistoryCursor(p.after) : undefined;
  const afterCursor = cursor
    ? sql`(${chargingRequests.startDate} < ${cursor.startDate}::timestamptz or (${chargingRequests.startDate} = ${cursor.startDate}::timestamptz and ${chargingRequests.transactionId} < ${cursor.transactionId}))`
    : undefined;
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
    .where(afterCursor ? and(where, afterCursor) : where)
    // NULLS LAST (the columns are NOT NULL anyway) to match the indexes drizzle-kit creates as DESC NULLS LAST.
    .orderBy(sql`${chargingRequests.startDate} desc nulls last`, sql`${chargingRequests.transactionId} desc nulls last`)
    .limit(p.size)
    .offset(cursor ? 0 : p.page * p.size);
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

/** Closes the caller's requests stuck in an early status since before now − threshold. */
export async function cleanStuckRequests(db: Db, scope: Scope, minutesThreshold: number, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - minutesThreshold * 60_000);
  const changed = await db
    .update(chargingRequests)
    .set({ status: CLEANED_STATUS, endDate: now, lastUpdateTimestamp: now })
    .where(
      and(
        ...[
          scope.where(chargingRequests.cpoId),
          inArray(chargingRequests.status, [...STUCK_EARLY_STATUSES]),
          lt(chargingRequests.lastUpdateTimestamp, cutoff),
        ],
      ),
    )
    .returning({ transactionId: chargingRequests.transactionId });
  return changed.length;
}
