import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobLocks } from '../db/schema/http';
import { createHarness, type Harness } from '../test/harness';
import { startJob, type Job } from './jobs';

/**
 * Issue 34: one way to run a background job. Two runners of one job on one database (two
 * instances: two lease holders) run it once at a time, never overlapping, also when a round
 * outlasts the lease (it is renewed); start, end, duration and a failure (its kind, not its
 * message) are logged; a lease left by a dead instance is taken once it ran out.
 */

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the job runner', () => {
  it('runs a job once at a time across two instances, a round longer than the lease included', { timeout: 30_000 }, async () => {
    let active = 0;
    let most = 0;
    let rounds = 0;
    const logged: string[] = [];
    const run = async () => {
      active++;
      most = Math.max(most, active);
      rounds++;
      // Longer than the lease: it holds only because the runner renews it.
      await sleep(rounds === 1 ? 900 : 150);
      active--;
      return rounds;
    };
    const two: Job<number>[] = ['instance-a', 'instance-b'].map((holder) =>
      startJob(h.db, {
        name: 'test-overlap',
        everyMs: 20,
        atStart: true,
        leaseMs: 300,
        holder,
        log: (m) => logged.push(`${holder} ${m}`),
        run,
      }),
    );
    // Until both instances ran rounds (on a loaded machine one may win several ticks in a row).
    const holders = () => new Set(logged.filter((m) => m.endsWith('job test-overlap started')).map((m) => m.split(' ')[0]));
    for (const end = Date.now() + 15_000; Date.now() < end && !(rounds > 3 && holders().size === 2);) await sleep(50);
    await Promise.all(two.map((job) => job.stop()));
    expect(most).toBe(1);
    expect(rounds).toBeGreaterThan(3);
    const started = logged.filter((m) => m.endsWith('job test-overlap started'));
    const ended = logged.filter((m) => /job test-overlap ended in \d+ ms$/.test(m));
    expect(started).toHaveLength(rounds);
    expect(ended).toHaveLength(rounds);
    // Both instances ran rounds: the lease moves between them, it is not kept by one.
    expect(new Set(started.map((m) => m.split(' ')[0]))).toEqual(new Set(['instance-a', 'instance-b']));
    const [row] = await h.db.select().from(jobLocks).where(eq(jobLocks.name, 'test-overlap'));
    expect(row).toMatchObject({ holder: null, leaseUntil: null, lastFailure: null });
    expect(row.lastDurationMs).toBeGreaterThanOrEqual(100);
  });

  it('a tick while its own round runs starts none', async () => {
    let rounds = 0;
    const job = startJob(h.db, {
      name: 'test-busy',
      everyMs: 0,
      log: () => {},
      run: async () => {
        rounds++;
        await sleep(200);
      },
    });
    const first = job.runNow();
    expect(await job.runNow()).toEqual({ ran: false, why: 'busy' });
    expect(await first).toMatchObject({ ran: true });
    await job.stop();
    expect(await job.runNow()).toEqual({ ran: false, why: 'stopped' });
    expect(rounds).toBe(1);
  });

  it('logs a failure once with its kind and duration, never its message, and keeps it on the row', async () => {
    const logged: string[] = [];
    const job = startJob(h.db, {
      name: 'test-failure',
      everyMs: 0,
      log: (m) => logged.push(m),
      run: () => Promise.reject(Object.assign(new TypeError('erika.mustermann@example.de has no IBAN'), { code: '23505' })),
    });
    expect(await job.runNow()).toMatchObject({ ran: true, failed: expect.any(TypeError) });
    await job.stop();
    const failures = logged.filter((m) => m.includes('failed'));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/^job test-failure failed after \d+ ms: TypeError 23505/);
    expect(logged.join('\n')).not.toContain('erika');
    const [row] = await h.db.select().from(jobLocks).where(eq(jobLocks.name, 'test-failure'));
    expect(row).toMatchObject({ holder: null, lastFailure: 'TypeError 23505' });
  });

  it('takes a lease left by an instance that died once it ran out, never before', async () => {
    await h.db.insert(jobLocks).values({ name: 'test-dead', holder: 'dead-instance', leaseUntil: sql`now() + interval '1 minute'` });
    let rounds = 0;
    const job = startJob(h.db, {
      name: 'test-dead',
      everyMs: 0,
      log: () => {},
      run: () => Promise.resolve(++rounds),
    });
    expect(await job.runNow()).toEqual({ ran: false, why: 'elsewhere' });
    await h.db
      .update(jobLocks)
      .set({ leaseUntil: sql`now() - interval '1 second'` })
      .where(eq(jobLocks.name, 'test-dead'));
    expect(await job.runNow()).toEqual({ ran: true, result: 1 });
    await job.stop();
  });
});
