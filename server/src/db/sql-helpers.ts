import { sql } from 'drizzle-orm';
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
