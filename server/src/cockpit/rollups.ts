import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import {
  activeUserCustomerMonths,
  activeUserMonths,
  chargingRequestCustomerMonths,
  chargingRequestOperatorCustomerMonths,
  chargingRequestDays,
  chargingRequestMonths,
  chargingRequestOperatorDays,
  chargingRequestOperatorMonths,
} from '../db/schema/cockpit';
import { firstOfMonth, monthsAndDays, qualified, wholeMonthBounds } from '../db/sql-helpers';

/**
 * The charging-request roll-ups (migration 0004: per operator, location, status and Berlin day, and
 * per Berlin month, kept current by statement triggers on charging_requests), read as rows that
 * sum to exactly what the raw requests would: the energy graph's series and totals and the
 * charging history's total come from here instead of a pass over every request.
 */

export interface RollupFilter {
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
 * charging_request_days (without a location filter: charging_request_operator_months and _days,
 * migration 0019_operator_rollups).
 */
export function rollupRows(scope: Scope, f: RollupFilter): SQL {
  // Without a location filter the per-operator roll-ups hold the same sums in fewer rows.
  const byLocation = !!f.locations?.length;
  const common = (
    t:
      typeof chargingRequestDays | typeof chargingRequestMonths | typeof chargingRequestOperatorDays | typeof chargingRequestOperatorMonths,
  ) => [
    scope.where(t.cpoId),
    f.locations?.length && 'locationId' in t ? inArray(t.locationId, f.locations) : undefined,
    f.statuses?.length ? inArray(t.status, [...f.statuses]) : undefined,
  ];
  const m = byLocation ? chargingRequestMonths : chargingRequestOperatorMonths;
  const d = byLocation ? chargingRequestDays : chargingRequestOperatorDays;
  return monthsAndDays(
    f,
    {
      at: m.month,
      select: (dated) =>
        sql`select ${m.month} as at, ${m.requests} as requests, ${m.energyKwh} as energy_kwh, ${m.cost} as cost from ${m} where ${
          and(...common(m), ...dated) ?? sql`true`
        }`,
    },
    {
      at: d.day,
      select: (dated) =>
        sql`select ${d.day} as at, ${d.requests} as requests, ${d.energyKwh} as energy_kwh, ${d.cost} as cost from ${d} where ${
          and(...common(d), ...dated) ?? sql`true`
        }`,
    },
  );
}

/** 'YYYY-MM-01' of the month of `day`. */
export const monthOf = (day: string) => firstOfMonth(day);

/**
 * The whole Berlin months of [startDate, endDate] as [from, to) ('YYYY-MM-01'), or undefined when
 * the range covers no month entirely.
 */
export function wholeMonths(startDate: string, endDate: string): { from: string; to: string } | undefined {
  const whole = wholeMonthBounds(startDate, endDate);
  return whole && { from: whole.from!, to: whole.to! };
}

/**
 * (month, end customer) of every customer with requests of the caller (at the locations) in the
 * whole months [from, to), from charging_request_customer_months: one row per customer, location
 * and month instead of one per request.
 */
export function customerMonthRows(scope: Scope, f: { locations: string[]; from: string; to: string }): SQL {
  const m = chargingRequestCustomerMonths;
  return sql`select ${m.month} as bucket, ${m.endCustomerId} as customer from ${m} where ${and(
    ...[
      scope.where(m.cpoId),
      f.locations.length ? inArray(m.locationId, f.locations) : undefined,
      sql`${m.month} >= ${f.from}::date`,
      sql`${m.month} < ${f.to}::date`,
      sql`${m.requests} > 0`,
    ],
  )}`;
}

/**
 * (month, n) rows whose n add up, per month of [from, to), to the distinct end customers of the
 * caller's requests in that month, without a location filter (migration 0024): each operator's
 * count from active_user_months, less the customers counted at more than one of the caller's
 * operators (active_user_customer_months' few rows with `operators > 1`; for a caller who sees only
 * some operators, how many of its own each such customer had). `gate`, an uncorrelated condition,
 * is ANDed to every part.
 */
export function activeUserRows(scope: Scope, f: { from: string; to: string; gate?: SQL }): SQL {
  const m = activeUserMonths;
  const c = activeUserCustomerMonths;
  const a = chargingRequestOperatorCustomerMonths;
  const counts = sql`select ${m.month} as bucket, ${m.customers} as n from ${m} where ${and(
    scope.where(m.cpoId),
    sql`${m.month} >= ${f.from}::date`,
    sql`${m.month} < ${f.to}::date`,
    f.gate,
  )}`;
  const shared = [
    sql`${qualified(c.operators)} > 1`,
    sql`${qualified(c.month)} >= ${f.from}::date`,
    sql`${qualified(c.month)} < ${f.to}::date`,
    f.gate,
  ];
  const overlap =
    scope.operatorIds === 'all'
      ? sql`select ${qualified(c.month)} as bucket, 1 - ${qualified(c.operators)} as n from ${c} where ${and(...shared)}`
      : sql`select ${qualified(c.month)} as bucket, 1 - count(*) as n from ${c}
          join ${a} on ${qualified(a.month)} = ${qualified(c.month)} and ${qualified(a.endCustomerId)} = ${qualified(c.endCustomerId)}
          where ${and(...shared, scope.where(qualified(a.cpoId)), sql`${qualified(a.requests)} > 0`)}
          group by ${qualified(c.month)}, ${qualified(c.endCustomerId)} having count(*) > 1`;
  return sql`${counts} union all ${overlap}`;
}

/**
 * Whether the caller has no request (any status, with or without an end customer) on the Berlin
 * days [from, to) (charging_request_operator_days): a condition for a ragged month's bucket to be
 * counted from the monthly roll-ups, since then the month's customers are those of its days in range.
 */
export function noRequestsOn(scope: Scope, f: { from: string; to: string }): SQL {
  const d = chargingRequestOperatorDays;
  return sql`not exists (select 1 from ${d} where ${and(
    scope.where(qualified(d.cpoId)),
    sql`${qualified(d.day)} >= ${f.from}::date`,
    sql`${qualified(d.day)} < ${f.to}::date`,
    sql`${qualified(d.requests)} > 0`,
  )})`;
}
