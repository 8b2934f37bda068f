import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { throttles } from '../db/schema/http';
import { ApiError } from './errors';

/**
 * Limits on what an anonymous caller can repeat (wrong passwords, reset mails, support mails):
 * counted in the database, so several instances share them. `limit` hits within `windowSeconds`
 * block the key for `blockSeconds`, each further block of the same key twice as long (up to
 * `maxBlockSeconds`); a key quiet for a day starts over.
 */
export interface ThrottleRule {
  limit: number;
  windowSeconds: number;
  blockSeconds: number;
  maxBlockSeconds: number;
}

const QUIET_RESET_SECONDS = 24 * 3600;

export function tooManyRequests(retryAfterSeconds: number) {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many attempts', { retryAfterSeconds: seconds }, undefined, {
    'Retry-After': String(seconds),
  });
}

/** Throws 429 TOO_MANY_REQUESTS (with Retry-After) while any of `keys` is blocked. */
export async function checkThrottles(db: Db, keys: string[], now = new Date()) {
  let wait = 0;
  for (const key of keys) {
    const [row] = await db.select({ blockedUntil: throttles.blockedUntil }).from(throttles).where(eq(throttles.key, key));
    if (row?.blockedUntil && row.blockedUntil > now) wait = Math.max(wait, (row.blockedUntil.getTime() - now.getTime()) / 1000);
  }
  if (wait > 0) throw tooManyRequests(wait);
}

/** Counts one hit on `key`; reaching the rule's limit blocks it. Returns how long it is blocked now (0: not). */
export async function hitThrottle(db: Db, key: string, rule: ThrottleRule, now = new Date()): Promise<number> {
  const row = await countHit(db, key, rule.windowSeconds, now);
  if (row.hits < rule.limit) return 0;
  const seconds = Math.min(rule.maxBlockSeconds, rule.blockSeconds * 2 ** row.blocks);
  await db
    .update(throttles)
    .set({ hits: 0, windowStart: now, blocks: row.blocks + 1, blockedUntil: new Date(now.getTime() + seconds * 1000) })
    .where(eq(throttles.key, key));
  return seconds;
}

/**
 * Counts one hit on `key` and returns the hits within the window, never blocking: for a limit that
 * slows a caller down instead of refusing everyone who shares the key (a sign-in's account).
 */
export async function countHits(db: Db, key: string, windowSeconds: number, now = new Date()): Promise<number> {
  return (await countHit(db, key, windowSeconds, now)).hits;
}

async function countHit(db: Db, key: string, windowSeconds: number, now: Date): Promise<{ hits: number; blocks: number }> {
  const windowStart = sql`${now.toISOString()}::timestamptz - make_interval(secs => ${windowSeconds})`;
  const quietSince = sql`${now.toISOString()}::timestamptz - make_interval(secs => ${QUIET_RESET_SECONDS})`;
  const [row] = await db
    .insert(throttles)
    .values({ key, hits: 1, windowStart: now, blocks: 0 })
    .onConflictDoUpdate({
      target: throttles.key,
      set: {
        hits: sql`case when ${throttles.windowStart} <= ${windowStart} then 1 else ${throttles.hits} + 1 end`,
        blocks: sql`case when ${throttles.windowStart} <= ${quietSince} then 0 else ${throttles.blocks} end`,
        windowStart: sql`case when ${throttles.windowStart} <= ${windowStart} then ${now.toISOString()}::timestamptz else ${throttles.windowStart} end`,
      },
    })
    .returning({ hits: throttles.hits, blocks: throttles.blocks });
  return row;
}

/** A success forgets the failures (a correct password ends the count of wrong ones). */
export async function clearThrottle(db: Db, key: string) {
  await db.delete(throttles).where(eq(throttles.key, key));
}
