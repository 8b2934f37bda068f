import { getTableName, sql } from 'drizzle-orm';
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
