import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createDb } from './db/client';
import type { Env } from './env';
import { pruneIdempotencyKeys } from './http/idempotency';
import { createMailSender } from './mail/sender';
import { seedIfEmpty } from './seed/seed';

export const HEADERS_TIMEOUT_MS = 15_000;
export const REQUEST_TIMEOUT_MS = 120_000;

export interface RunningServer {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/**
 * Boots the whole backend: database, migrations, first-start seed, HTTP server, mail sender.
 * Used by main.ts and usable from Playwright's global setup (`PORT: 0` picks a free port;
 * `DATA_DIR: 'memory://'` keeps nothing on disk).
 */
export async function startServer(env: Env, opts: { now?: Date; log?: (msg: string) => void } = {}): Promise<RunningServer> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const handle = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  await handle.migrate();
  const seeded = await seedIfEmpty(handle.db, env.SEED, opts.now);
  if (seeded) log(`Seeded "${seeded.size}" data in ${(seeded.ms / 1000).toFixed(1)} s`);

  const app = createApp({ db: handle.db, env });
  const mail = createMailSender({ db: handle.db, smtpUrl: env.SMTP_URL, intervalMs: 10_000 });
  const prune = setInterval(() => void pruneIdempotencyKeys(handle.db).catch(() => {}), 3600_000);
  prune.unref();

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: env.PORT }, () => resolve(s));
  });
  if ('keepAliveTimeout' in server) {
    // PGlite runs on this thread, so a long query can hold the event loop past Node's 5 s keep-alive
    // and the socket gets closed under a client that is about to reuse it (ECONNRESET under load).
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
