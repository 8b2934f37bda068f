import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { count, eq, and } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills } from '../db/schema/bookings';
import { createHarness, type Harness } from '../test/harness';
import { monthToBill, startBillJob } from './job';

describe('which month the daily job bills', () => {
  it('bills the previous month from the 2nd (Berlin) on', () => {
    expect(monthToBill(new Date('2026-11-01T12:00:00Z'))).toBeUndefined();
    // 23:30 UTC on 1 November is already the 2nd in Berlin.
    expect(monthToBill(new Date('2026-11-01T23:30:00Z'))).toBe('2026-10');
    expect(monthToBill(new Date('2026-11-25T10:00:00Z'))).toBe('2026-10');
    expect(monthToBill(new Date('2027-01-02T10:00:00Z'))).toBe('2026-12');
  });
});

describe('the daily job', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h?.close());

  const marchBills = async () =>
    (
      await h.db
        .select({ n: count() })
        .from(bills)
        .where(and(eq(bills.yearNumber, 2026), eq(bills.monthNumber, 3)))
    )[0].n;

  it('bills the previous month at start, and a second instance or a later day makes nothing new', async () => {
    expect(await marchBills()).toBe(0);
    const logged: string[] = [];
    const clock = () => new Date('2026-04-02T06:00:00Z');
    const first = startBillJob(h.db, { clock, log: (m) => logged.push(m) });
    const second = startBillJob(h.db, { clock, log: (m) => logged.push(m) });
    const [a, b] = await Promise.all([first.current(), second.current()]);
    expect(a!.failed + b!.failed).toBe(0);
    const made = await marchBills();
    expect(made).toBeGreaterThan(10);
    expect(a!.created + b!.created).toBe(made);
    await first.stop();
    await second.stop();
    const again = startBillJob(h.db, { clock, log: () => {} });
    expect(await again.current()).toMatchObject({ created: 0, failed: 0 });
    await again.stop();
    expect(await marchBills()).toBe(made);
    expect(logged.some((m) => m.startsWith('bill run: '))).toBe(true);
  });
});

describe('npm run bills', () => {
  const run = promisify(execFile);
  // An empty database in memory: migrated, nothing to bill.
  const dir = 'memory://';
  const cli = (...args: string[]) =>
    run('npx', ['tsx', 'server/src/bills/cli.ts', ...args], {
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, SEED: 'none', JWT_SECRET: 'bills-cli-test-secret-'.padEnd(40, 'x') },
    });

  it('refuses a period that is no month', async () => {
    await expect(cli('--period', '2026-13')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('YYYY-MM') });
  });

  it('runs a month and prints its counts and bills per second', { timeout: 60_000 }, async () => {
    const { stdout } = await cli('--period', '2026-10');
    expect(stdout).toMatch(/^Bills for 2026-10: 0 created, 0 skipped, 0 failed in \d+\.\d s \(0 bills\/s\)/);
  });
});
