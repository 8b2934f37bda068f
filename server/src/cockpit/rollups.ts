import { and, inArray, sql, type SQL } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import {
  chargingRequestCustomerMonths,
  chargingRequestDays,
  chargingRequestMonths,
  chargingRequestOperatorDays,
  chargingRequestOperatorMonths,
} from '../db/schema/cockpit';

/**
 * The charging-request roll-ups (migration 0004: per operator, location, status and Berlin day, and
 * per Berlin month, kept current by statement triggers on charging_requests), read as rows that
 * sum to exactly what the raw requests would: the energy graph's series and totals and the
 * charging history's total come from here instead of a pass over every request.
 */

/** 'YYYY-MM-DD' of the first of the month of `day`, `months` later. */
const firstOfMonth = (day: string, months = 0) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

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
  // Whole months: [fullFrom, fullTo); an undefined bound is open on that side.
  let fullFrom = f.startDate === undefined ? undefined : f.startDate.endsWith('-01') ? f.startDate : firstOfMonth(f.startDate, 1);
  let fullTo = f.endDate === undefined ? undefined : firstOfMonth(nextDay(f.endDate));
  const useMonths = f.months && !(fullFrom !== undefined && fullTo !== undefined && fullFrom >= fullTo);
  if (!useMonths) fullFrom = fullTo = undefined;
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
  const months = sql`select ${m.month} as at, ${m.requests} as requests, ${m.energyKwh} as energy_kwh, ${m.cost} as cost from ${m} where ${
    and(
      ...[
        ...common(m),
        fullFrom !== undefined ? sql`${m.month} >= ${fullFrom}::date` : undefined,
        fullTo !== undefined ? sql`${m.month} < ${fullTo}::date` : undefined,
      ],
    ) ?? sql`true`
  }`;
  // With months: only the days outside the whole months.
  const edges = [
    fullFrom !== undefined ? sql`${d.day} < ${fullFrom}::date` : undefined,
    fullTo !== undefined ? sql`${d.day} >= ${fullTo}::date` : undefined,
  ].filter((c): c is SQL => c !== undefined);
  const days = sql`select ${d.day} as at, ${d.requests} as requests, ${d.energyKwh} as energy_kwh, ${d.cost} as cost from ${d} where ${
    and(
      ...[
        ...common(d),
        f.startDate !== undefined ? sql`${d.day} >= ${f.startDate}::date` : undefined,
        f.endDate !== undefined ? sql`${d.day} <= ${f.endDate}::date` : undefined,
        edges.length ? sql`(${sql.join(edges, sql` or `)})` : undefined,
      ],
    ) ?? sql`true`
  }`;
  if (!useMonths) return days;
  // Open on both sides: the monthly roll-up alone.
  return edges.length ? sql`${months} union all ${days}` : months;
}

/** 'YYYY-MM-01' of the month of `day`. */
export const monthOf = (day: string) => firstOfMonth(day);

/**
 * The whole Berlin months of [startDate, endDate] as [from, to) ('YYYY-MM-01'), or undefined when
 * the range covers no month entirely.
 */
export function wholeMonths(startDate: string, endDate: string): { from: string; to: string } | undefined {
  const from = startDate.endsWith('-01') ? startDate : firstOfMonth(startDate, 1);
  const to = firstOfMonth(nextDay(endDate));
  return from < to ? { from, to } : undefined;
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
