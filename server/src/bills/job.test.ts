import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { count, eq, and } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../db/client';
import { bills } from '../db/schema/bookings';
import { createSeededTestDatabaseUrl, testDatabaseUrl } from '../test/databases';
import { createHarness, type Harness } from '../test/harness';
import { monthToBill, startBillJob } from './job';
import { contractsToBill } from './run-queries';

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
    // Two instances on one database: the job's lease lets one run, the other's tick starts none.
    const first = startBillJob(h.db, { clock, log: (m) => logged.push(m), holder: 'instance-a' });
    const second = startBillJob(h.db, { clock, log: (m) => logged.push(m), holder: 'instance-b' });
    const answers = (await Promise.all([first.current(), second.current()])).filter((a) => a !== undefined);
    expect(answers).toHaveLength(1);
    expect(answers[0].failed).toBe(0);
    const made = await marchBills();
    expect(made).toBeGreaterThan(10);
    expect(answers[0].created).toBe(made);
    await first.stop();
    await second.stop();
    const again = startBillJob(h.db, { clock, log: () => {} });
    expect(await again.current()).toMatchObject({ created: 0, failed: 0 });
    await again.stop();
    expect(await marchBills()).toBe(made);
    expect(logged.some((m) => /^job bill-run ended in \d+ ms: bill run: \d+ created/.test(m))).toBe(true);
  });
});

describe.runIf(testDatabaseUrl())('the daily job beside an instance that holds a contract and rolls back (PostgreSQL)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let handle: DbHandle;
  let other: pg.Client;
  beforeAll(async () => {
    database = await createSeededTestDatabaseUrl(testDatabaseUrl()!);
    handle = await createDb({ databaseUrl: database.url, dataDir: '' });
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await handle?.close();
    await database?.drop();
  });

  it('does not mark the month done while a contract was skipped for a lock, and bills it at the next tick', async () => {
    const due = (await contractsToBill(handle.db, '2026-03-01', '2026-03-31')).find(
      (c) => c.billingCycle === 'MONTHLY' && !c.billedThisMonth,
    )!;
    expect(due).toBeDefined();
    const billsOfDue = async () => (await handle.db.select({ n: count() }).from(bills).where(eq(bills.contractKey, due.contractKey)))[0].n;
    const before = await billsOfDue();
    // Another instance is billing this contract: its transaction holds the row.
    await other.query('begin');
    await other.query('select 1 from contracts where contract_key = $1 for update', [due.contractKey]);
    const logged: string[] = [];
    const job = startBillJob(handle.db, { clock: () => new Date('2026-04-02T06:00:00Z'), log: (m) => logged.push(m), intervalMs: 300 });
    try {
      const first = await job.current();
      expect(first).toMatchObject({ failed: 0, locked: 1 });
      expect(first!.created).toBeGreaterThan(0);
      expect(await billsOfDue()).toBe(before);
      // The other instance fails and rolls back: nothing of it is billed. The next tick bills it.
      await other.query('rollback');
      for (let i = 0; i < 100 && (await billsOfDue()) === before; i++) await new Promise((r) => setTimeout(r, 100));
      expect(await billsOfDue()).toBe(before + 1);
      expect(logged.some((m) => m.includes('(1 locked elsewhere)'))).toBe(true);
    } finally {
      await job.stop();
    }
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
