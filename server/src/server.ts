import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createDb, isPostgresUrl, pgliteDataDir, type Db } from './db/client';
import type { Env } from './env';
import { pruneIdempotencyKeys } from './http/idempotency';
import { createMailSender } from './mail/sender';
import { applyDueTariffChanges } from './contracts/queries';
import { berlinDate } from '../../contract/contracts';
import { seedInChildProcess } from './seed/child-process';
import { seedIfEmpty, type SeedResult } from './seed/seed';

export const HEADERS_TIMEOUT_MS = 15_000;
export const REQUEST_TIMEOUT_MS = 120_000;

export interface RunningServer {
  url: string;
  port: number;
  /** The server's database (on PGlite: the proxy to its worker thread), for tests and benches. */
  db: Db;
  /** On PGlite: the memory of its worker thread. */
  workerMemory?: () => Promise<NodeJS.MemoryUsage>;
  close: () => Promise<void>;
}

/**
 * Boots the whole backend: database, migrations, first-start seed, HTTP server, mail sender.
 * Used by main.ts and usable from Playwright's global setup (`PORT: 0` picks a free port;
 * `DATA_DIR: 'memory://'` keeps nothing on disk).
 */
export async function startServer(env: Env, opts: { now?: Date; log?: (msg: string) => void } = {}): Promise<RunningServer> {
  const log = opts.log ?? ((m: string) => console.log(m));
  // PGlite runs in a worker thread: this thread only does HTTP while a query runs.
  // A first start on PGlite (no database files yet) migrates and seeds in a child process, so the
  // seeding's memory leaves with it (seed/child-process.ts); then the worker opens the files.
  const pgliteDir = isPostgresUrl(env.DATABASE_URL) || env.DATA_DIR === 'memory://' ? undefined : pgliteDataDir(env.DATA_DIR);
  let seeded: SeedResult | undefined;
  if (pgliteDir && env.SEED !== 'none' && !existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    seeded = await seedInChildProcess(env.DATA_DIR, env.SEED, opts.now ?? new Date());
  }
  const handle = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR, pgliteWorker: true });
  await handle.migrate();
  seeded ??= await seedIfEmpty(handle.db, env.SEED, opts.now);
  if (seeded) log(`Seeded "${seeded.size}" data in ${(seeded.ms / 1000).toFixed(1)} s`);

  const app = createApp({ db: handle.db, env, log });
  const mail = createMailSender({ db: handle.db, smtpUrl: env.SMTP_URL, intervalMs: 10_000 });
  // Hourly upkeep: old idempotency records go, tariff changes whose day has come take effect.
  const applyTariffs = () =>
    void applyDueTariffChanges(handle.db, berlinDate(new Date())).catch((err) => log(`tariff changes: ${String(err)}`));
  applyTariffs();
  const prune = setInterval(() => {
    void pruneIdempotencyKeys(handle.db).catch(() => {});
    applyTariffs();
  }, 3600_000);
  prune.unref();

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.PORT }, () => resolve(s));
  });
  if ('keepAliveTimeout' in server) {
    // Longer than Node's 5 s, so a client that waits for a slow answer and then reuses its socket
    // does not find it closed under it (ECONNRESET under load; a proxy's idle timeout is often 60 s).
    server.keepAliveTimeout = 65_000;
    // A client gets this long for its headers and for its whole request (a support attachment on one
    // bar of signal). Nothing waits for it meanwhile: bodies are read before any transaction opens.
    server.headersTimeout = HEADERS_TIMEOUT_MS;
    server.requestTimeout = REQUEST_TIMEOUT_MS;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  log(`CPO Cockpit listening on ${url} (${handle.kind})`);

  let closed = false;
  return {
    url,
    port,
    db: handle.db,
    workerMemory: handle.workerMemory,
    close: async () => {
      if (closed) return;
      closed = true;
      mail.stop();
      clearInterval(prune);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.close();
    },
  };
}
