import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tsz, inList } from './columns';

/** What the HTTP layer keeps across instances: idempotency keys and throttles. */

export const idempotencyStatuses = ['in_progress', 'done'] as const;

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    /** sha256 of method, path and body: the same key with another payload is refused with 422. */
    fingerprint: text('fingerprint').notNull(),
    status: text('status').$type<(typeof idempotencyStatuses)[number]>().notNull().default('in_progress'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    /** When a request took the key; an 'in_progress' claim older than the claim timeout is taken again (its request died). */
    claimedAt: tsz('claimed_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_status_chk', inList('status', idempotencyStatuses)),
  ],
);

/**
 * Counters of the sign-in, password-reset and mail limits (one row per limit and key, such as
 * `login-account:<e-mail>` or `login-address:<ip>`): in the database, so several instances share them.
 */
export const throttles = pgTable('throttles', {
  key: text('key').primaryKey(),
  /** Hits in the window that started at windowStart. */
  hits: integer('hits').notNull().default(0),
  windowStart: tsz('window_start').notNull(),
  /** Refused until then (429 with Retry-After). */
  blockedUntil: tsz('blocked_until'),
  /** How often this key was blocked in a row; each block lasts twice as long as the last. */
  blocks: integer('blocks').notNull().default(0),
});

/**
 * One row per background job (`http/jobs.ts`): who runs it now and until when (a lease the runner
 * renews while it runs), so one runner at a time across instances; and how its last run went.
 */
export const jobLocks = pgTable('job_locks', {
  name: text('name').primaryKey(),
  holder: text('holder'),
  leaseUntil: tsz('lease_until'),
  startedAt: tsz('started_at'),
  endedAt: tsz('ended_at'),
  lastDurationMs: integer('last_duration_ms'),
  /** The last run's failure kind, null when it succeeded. */
  lastFailure: text('last_failure'),
});
