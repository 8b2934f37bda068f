import { getTableName, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/** An ILIKE pattern matching `s` anywhere, with its own % and _ taken literally. */
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;

/**
 * Serialises, until the transaction ends, everyone who takes the same `name` (e.g. handing out the
 * next id of a kind), across every server instance on one PostgreSQL.
 */
export async function transactionLock(db: Db, name: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${name}))`);
}

/**
 * A column with its table's name, for a correlated subquery: drizzle writes columns inside `sql`
 * bare, so `where ${inner.key} = ${outer.key}` would compare the inner table's column with itself.
 */
export const qualified = (column: AnyPgColumn) => sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;

/** 'YYYY-MM-DD' of the first of the month of `day`, `months` later. */
export const firstOfMonth = (day: string, months = 0) => {
  const d = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};
/** 'YYYY-MM-DD' of the day after `day`. */
export const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The whole calendar months of the days [startDate, endDate] as [from, to) ('YYYY-MM-01'; an
 * undefined end is open on that side), or undefined when the range covers no month entirely.
 */
export function wholeMonthBounds(startDate: string | undefined, endDate: string | undefined): { from?: string; to?: string } | undefined {
  const from = startDate === undefined ? undefined : startDate.endsWith('-01') ? startDate : firstOfMonth(startDate, 1);
  const to = endDate === undefined ? undefined : firstOfMonth(nextDay(endDate));
  return from !== undefined && to !== undefined && from >= to ? undefined : { from, to };
}

/** One roll-up of a month/day pair: its date column and its select with extra conditions ANDed to its own. */
export interface DatedRollup {
  at: AnyPgColumn;
  select: (dated: SQL[]) => SQL;
}

/**
 * Rows of a monthly and a daily roll-up (a row per Berlin month or day and group) that together
 * cover the days [startDate, endDate] exactly (an undefined end is open): each whole month of the
 * range from the monthly one, the days at its ragged ends from the daily one. With `months` false,
 * or no whole month in the range, the daily one alone. Every dated roll-up pair (charging requests,
 * bills) is read through this one split.
 */
export function monthsAndDays(
  range: { startDate?: string; endDate?: string; months: boolean },
  monthly: DatedRollup,
  daily: DatedRollup,
): SQL {
  const whole = range.months ? wholeMonthBounds(range.startDate, range.endDate) : undefined;
  const inRange = [
    range.startDate !== undefined ? sql`${daily.at} >= ${range.startDate}::date` : undefined,
    range.endDate !== undefined ? sql`${daily.at} <= ${range.endDate}::date` : undefined,
  ].filter((c): c is SQL => c !== undefined);
  if (!whole) return daily.select(inRange);
  const months = monthly.select(
    [
      whole.from !== undefined ? sql`${monthly.at} >= ${whole.from}::date` : undefined,
      whole.to !== undefined ? sql`${monthly.at} < ${whole.to}::date` : undefined,
    ].filter((c): c is SQL => c !== undefined),
  );
  // Only the days outside the whole months, each end a range of its own: with both in one condition
  // (`day between start and end and (day < from or day >= to)`) a kept (generic) plan walked the
  // whole range's days and filtered them.
  const head =
    whole.from !== undefined && range.startDate !== undefined && range.startDate < whole.from
      ? daily.select([sql`${daily.at} >= ${range.startDate}::date`, sql`${daily.at} < ${whole.from}::date`])
      : undefined;
  const tail =
    whole.to !== undefined && range.endDate !== undefined && range.endDate >= whole.to
      ? daily.select([sql`${daily.at} >= ${whole.to}::date`, sql`${daily.at} <= ${range.endDate}::date`])
      : undefined;
  return sql.join(
    [months, head, tail].filter((part): part is SQL => part !== undefined),
    sql` union all `,
  );
}
