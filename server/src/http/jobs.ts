import { randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobLocks } from '../db/schema/http';
import { describeError, logFault, type Log } from './faults';

/**
 * The one way the server runs a background job (issue 34): a timer, and for each round a lease on
 * the job's row in `job_locks`, so a round runs once at a time across every instance on the
 * database and never overlaps itself (a tick while a round runs, here or elsewhere, starts none).
 * The lease is renewed while the round runs; a runner whose process died leaves a lease that runs
 * out, and the next tick anywhere takes it. Each round's start, end and duration is logged, a
 * failure once with its kind (`logFault`), and the row keeps how the last one went.
 */

export interface JobOptions<T> {
  /** Fixed text: the row's key and the log's name of the job. */
  name: string;
  /** How often a round is tried; 0 for rounds started only by `runNow`. */
  everyMs: number;
  /** A first round right away. */
  atStart?: boolean;
  /** One round; `shouldStop` turns true when the job is stopped (a long round ends between two steps). */
  run: (ctx: { shouldStop: () => boolean }) => Promise<T>;
  /** What the log's end line says of a round's result (counts only, no personal data). */
  summary?: (result: T) => string;
  log: Log;
  /** How long a round's lease lasts before it is renewed (default 60 s). */
  leaseMs?: number;
  /** Whose lease: one per process by default; tests make two to stand for two instances. */
  holder?: string;
}

/** A round's outcome: it ran (and how), or why it did not. */
export type JobRound<T> = { ran: true; result: T } | { ran: true; failed: unknown } | { ran: false; why: 'busy' | 'elsewhere' | 'stopped' };

export interface Job<T> {
  /** A round now, unless one runs already (here or elsewhere) or the job was stopped. */
  runNow: () => Promise<JobRound<T>>;
  /** The round under way, or the last one. */
  current: () => Promise<JobRound<T> | undefined>;
  /** Stops the timer and waits for a round under way (which sees `shouldStop`). */
  stop: () => Promise<void>;
}

const processHolder = `${process.pid}-${randomUUID()}`;

async function takeLease(db: Db, name: string, holder: string, leaseMs: number): Promise<boolean> {
  await db.insert(jobLocks).values({ name }).onConflictDoNothing();
  const taken = await db
    .update(jobLocks)
    .set({ holder, leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})`, startedAt: sql`now()` })
    .where(and(eq(jobLocks.name, name), or(isNull(jobLocks.holder), lt(jobLocks.leaseUntil, sql`now()`))))
    .returning({ name: jobLocks.name });
  return taken.length === 1;
}

const renewLease = (db: Db, name: string, holder: string, leaseMs: number) =>
  db
    .update(jobLocks)
    .set({ leaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(and(eq(jobLocks.name, name), eq(jobLocks.holder, holder)))
    .returning({ name: jobLocks.name });

const endLease = (db: Db, name: string, holder: string, ms: number, failure: string | null) =>
  db
    .update(jobLocks)
    .set({ holder: null, leaseUntil: null, endedAt: sql`now()`, lastDurationMs: Math.round(ms), lastFailure: failure })
    .where(and(eq(jobLocks.name, name), eq(jobLocks.holder, holder)));

/** Starts a job: its timer, and a first round now when `atStart`. */
export function startJob<T>(db: Db, opts: JobOptions<T>): Job<T> {
  const { name, log } = opts;
  const leaseMs = opts.leaseMs ?? 60_000;
  const holder = opts.holder ?? processHolder;
  let stopped = false;
  let busy = false;
  let last: Promise<JobRound<T> | undefined> = Promise.resolve(undefined);

  async function round(): Promise<JobRound<T>> {
    if (!(await takeLease(db, name, holder, leaseMs))) return { ran: false, why: 'elsewhere' };
    const started = performance.now();
    log(`job ${name} started`);
    const renew = setInterval(() => {
      renewLease(db, name, holder, leaseMs).then(
        (kept) => {
          if (kept.length === 0) log(`job ${name}: its lease was lost while it ran`);
        },
        (err: unknown) => logFault(log, `job ${name}: renewing its lease failed`, err),
      );
    }, leaseMs / 3);
    renew.unref();
    let outcome: JobRound<T>;
    try {
      const result = await opts.run({ shouldStop: () => stopped });
      outcome = { ran: true, result };
    } catch (err) {
      outcome = { ran: true, failed: err };
    } finally {
      clearInterval(renew);
    }
    const ms = performance.now() - started;
    if ('failed' in outcome) logFault(log, `job ${name} failed after ${Math.round(ms)} ms`, outcome.failed);
    else log(`job ${name} ended in ${Math.round(ms)} ms${opts.summary ? `: ${opts.summary(outcome.result)}` : ''}`);
    try {
      await endLease(db, name, holder, ms, 'failed' in outcome ? describeError(outcome.failed).split('\n')[0] : null);
    } catch (err) {
      // The lease runs out by itself; the next round waits for that.
      logFault(log, `job ${name}: ending its lease failed`, err);
    }
    return outcome;
  }

  const runNow = (): Promise<JobRound<T>> => {
    if (stopped) return Promise.resolve({ ran: false, why: 'stopped' });
    if (busy) return Promise.resolve({ ran: false, why: 'busy' });
    busy = true;
    const p = round()
      .catch((err: unknown): JobRound<T> => {
        // Taking the lease failed (the database is away): this round is skipped, the next tick tries again.
        logFault(log, `job ${name} could not start`, err);
        return { ran: false, why: 'elsewhere' };
      })
      .finally(() => {
        busy = false;
      });
    last = p;
    return p;
  };

  const tick = () => void runNow();
  if (opts.atStart) tick();
  const timer = opts.everyMs > 0 ? setInterval(tick, opts.everyMs) : undefined;
  timer?.unref();
  return {
    runNow,
    current: () => last,
    stop: async () => {
      stopped = true;
      if (timer) clearInterval(timer);
      await last;
    },
  };
}
