import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from './env';
import { startServer, type RunningServer } from './server';

/**
 * The real server (as `npm start`, the e2e tests and the benches run it): on PGlite the database
 * runs in a worker thread, so a long query holds no other request.
 */
describe('startServer', () => {
  let server: RunningServer;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = mkdtempSync(path.join(os.tmpdir(), 'cpo-static-'));
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>CPO</title>');
    writeFileSync(path.join(staticDir, 'hello.txt'), 'hello');
    // DATABASE_URL from the environment: the same test runs on PostgreSQL (scripts/with-postgres.sh).
    server = await startServer(
      testEnv({ DATA_DIR: 'memory://', SEED: 'small', PORT: 0, STATIC_DIR: staticDir, DATABASE_URL: process.env.DATABASE_URL }),
      {
        log: () => {},
      },
    );
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    rmSync(staticDir, { recursive: true, force: true });
  });

  it('answers /config.json and a static file while a long query runs', async () => {
    const order: string[] = [];
    const slow = server.db.execute(sql`select pg_sleep(2)`).then(() => order.push('slow query'));
    // Let the query reach the database first.
    await new Promise((r) => setTimeout(r, 200));
    const config = await fetch(`${server.url}/config.json`);
    expect(config.status).toBe(200);
    order.push('config.json');
    const file = await fetch(`${server.url}/hello.txt`);
    expect(await file.text()).toBe('hello');
    order.push('static file');
    await slow;
    expect(order).toEqual(['config.json', 'static file', 'slow query']);
  }, 30_000);

  const rowsOf = async <T>(q: Promise<unknown>) => ((await q) as { rows: T[] }).rows;

  it('keeps transactions, their rollback, errors with codes and the seed working through the worker', async () => {
    const { db } = server;
    const rows = await rowsOf<{ n: number }>(db.execute(sql`select count(*)::int as n from charging_requests`));
    expect(rows[0].n).toBeGreaterThan(0);
    await db.execute(sql`create temporary table if not exists t_worker (id int primary key)`);
    await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('t_worker'))`);
      await tx.execute(sql`insert into t_worker values (1)`);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t_worker values (2)`);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    const err = await db.execute(sql`insert into t_worker values (1)`).catch((e: unknown) => e);
    const code = (e: unknown): unknown => (e as { code?: unknown; cause?: unknown }).code ?? code((e as { cause?: unknown }).cause);
    expect(code(err)).toBe('23505');
    const ids = await rowsOf<{ id: number }>(db.execute(sql`select id from t_worker order by id`));
    expect(ids.map((r) => r.id)).toEqual([1]);
    // A statement outside a transaction waits for it, as on one PGlite connection.
    const order: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.execute(sql`select pg_sleep(0.3)`);
      order.push('transaction');
    });
    const outside = db.execute(sql`select 1`).then(() => order.push('outside'));
    await Promise.all([tx, outside]);
    if (!process.env.DATABASE_URL) expect(order).toEqual(['transaction', 'outside']);
  }, 30_000);
});

/** A first start on PGlite on disk seeds in a child process (seed/child-process.ts); a restart keeps the data. */
describe.skipIf(!!process.env.DATABASE_URL)('startServer on a fresh PGlite data directory', () => {
  it('seeds in a child process that exits, then serves the data; a second start does not seed again', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cpo-first-start-'));
    const env = testEnv({
      DATA_DIR: dataDir,
      SEED: 'small',
      PORT: 0,
      STATIC_DIR: path.join(dataDir, 'no-static'),
      DATABASE_URL: undefined,
    });
    const logs: string[] = [];
    try {
      const first = await startServer(env, { log: (m) => logs.push(m) });
      const n = async (s: RunningServer) =>
        ((await s.db.execute(sql`select count(*)::int as n from customers`)) as unknown as { rows: { n: number }[] }).rows[0].n;
      const customers = await n(first);
      expect(customers).toBeGreaterThan(0);
      await first.close();
      expect(logs.filter((m) => m.startsWith('Seeded "small"'))).toHaveLength(1);

      const second = await startServer(env, { log: (m) => logs.push(m) });
      expect(await n(second)).toBe(customers);
      await second.close();
      expect(logs.filter((m) => m.startsWith('Seeded'))).toHaveLength(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
