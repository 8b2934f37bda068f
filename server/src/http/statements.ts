import { sql, type Column, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * Statements built once per database handle and shape. A list whose filters come and go has one
 * shape per combination of present filters; its values travel as placeholders (lists as one array,
 * `column = any($n)`, so the number of ids does not make another shape). Building a drizzle query
 * costs ~100 µs of the event loop per request; a prepared one only fills in its values, and on
 * PostgreSQL it is a named statement, planned once per connection (PostgreSQL may then keep a
 * generic plan: fine for the small tables of the lists that use this, not for the charging history).
 */
const statements = new WeakMap<Db, Map<string, unknown>>();

/** The statement of `db` under `key`, built by `build` the first time; `key` is also its PostgreSQL name (≤ 63 characters). */
export function preparedOnce<T>(db: Db, key: string, build: () => T): T {
  let byKey = statements.get(db);
  if (!byKey) statements.set(db, (byKey = new Map()));
  let statement = byKey.get(key) as T | undefined;
  if (statement === undefined) byKey.set(key, (statement = build()));
  return statement;
}

/** `1` or `0` per flag: the part of a statement's key that says which optional conditions it has. */
export const shapeKey = (flags: boolean[]) => flags.map((f) => (f ? '1' : '0')).join('');

/**
 * `column = any($name)`: a list of values as one placeholder. Same rows as `inArray` (an empty list
 * matches nothing).
 */
export const anyOf = (column: Column | SQL, name: string): SQL => sql`${column} = any(${sql.placeholder(name)})`;
