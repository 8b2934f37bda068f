import { existsSync } from 'node:fs';
import { Server as HttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { createCentralSystem, type CentralSystem } from './ocpp/central-system';
import { registerOcppRuntime } from './ocpp/runtime';
import { noRelay, type Relay } from './ocpp/operations';
import { startPgRelay } from './ocpp/relay';
import { LIVE_CHANNEL } from './ocpp/live';
import { createDb, isPostgresUrl, pgliteDataDir, type Db } from './db/client';
import type { Env } from './env';
import { pruneIdempotencyKeys } from './http/idempotency';
import { logFault } from './http/faults';
import { startJob } from './http/jobs';
import { createMailSender } from './mail/sender';
import { applyDueTariffChanges } from './contracts/tariff-history';
import { startBillJob } from './bills/job';
import { collectSentBills } from './payments/collection';
import { makeOpenCheckouts } from './payments/checkout-requests';
import { berlinDate } from '../../contract/contracts';
import { seedInChildProcess } from './seed/child-process';
import { seedIfEmpty, type SeedResult } from './seed/seed';
import { recoverStationImports } from './stations/import/write-import';

/** The bound host as a URL's host: `localhost` for every interface, an IPv6 address in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return 'localhost';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export interface RunningServer {
  url: string;
  port: number;
  /** The server's database (on PGlite: the proxy to its worker thread), for tests and benches. */
  db: Db;
  /** The OCPP 1.6J central system on this server's port (ws://…/ocpp/{cpId}). */
  centralSystem: CentralSystem;
  /** On PGlite: the memory of its worker thread. */
  workerMemory?: () => Promise<NodeJS.MemoryUsage>;
  /** The HTTP server's open connections (for tests: what a cut or a cap leaves open). */
  openConnections: () => Promise<number>;
  close: () => Promise<void>;
}

/**
 * Idle and half-open connections each hold a file of the process's limit (about 19,800 idle ones
 * locked every client out): so many in all (`maxConnections`), so many per client address, and
 * idle ones cut early. A client gets HEADERS_TIMEOUT_MS for its headers (and a connection that
 * sends nothing is closed after it) and REQUEST_TIMEOUT_MS for its whole request; nothing waits for
 * it meanwhile, since bodies are read before any transaction opens.
 */
function limitConnections(server: HttpServer, env: Env): { release: (socket: Socket) => void } {
  server.maxConnections = env.MAX_CONNECTIONS;
  server.keepAliveTimeout = env.KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = env.HEADERS_TIMEOUT_MS;
  server.requestTimeout = env.REQUEST_TIMEOUT_MS;
  // Node's headersTimeout starts with a request's first byte: a connection that never sends one
  // would stay open for good. The socket's own timeout (Node's timer list, not a global timer) ends
  // it: with no other 'timeout' listener, Node's HTTP server destroys a socket that times out. The
  // first request clears it (Node sets its keep-alive timeout after each answer), and so does a
  // WebSocket upgrade (a station's answer may take longer than the headers did).
  server.on('connection', (socket: Socket) => socket.setTimeout(env.HEADERS_TIMEOUT_MS));
  server.on('request', (req: IncomingMessage) => req.socket.setTimeout(0));
  server.on('upgrade', (req: IncomingMessage) => req.socket.setTimeout(0));
  const cap = env.MAX_CONNECTIONS_PER_ADDRESS;
  const released = new WeakSet<Socket>();
  const open = new Map<string, number>();
  const leave = (address: string) => {
    const left = (open.get(address) ?? 1) - 1;
    if (left === 0) open.delete(address);
    else open.set(address, left);
  };
  // An accepted station's socket leaves the per-address count (a site's stations share one address
  // behind its router); OCPP_MAX_STATIONS and MAX_CONNECTIONS still bound them.
  const release = (socket: Socket) => {
    if (cap === 0 || released.has(socket)) return;
    released.add(socket);
    leave(socket.remoteAddress ?? 'unknown');
  };
  if (cap === 0) return { release };
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = (open.get(address) ?? 0) + 1;
    if (count > cap) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      if (!released.has(socket)) leave(address);
    });
  });
  return { release };
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
  // A station import this process (on PGlite: any process) was moving when it died is undone.
  await recoverStationImports(handle.db, !isPostgresUrl(env.DATABASE_URL));

  const app = createApp({ db: handle.db, env, log });
  const mail = createMailSender({ db: handle.db, smtpUrl: env.SMTP_URL, intervalMs: 10_000 });
  // Every background job runs the one way (http/jobs.ts): one round at a time across instances,
  // its start, end, duration and failure logged. Hourly upkeep: old idempotency records go, tariff
  // changes whose day has come take effect.
  const jobs = [
    startJob(handle.db, { name: 'idempotency-prune', everyMs: 3600_000, log, run: () => pruneIdempotencyKeys(handle.db) }),
    startJob(handle.db, {
      name: 'tariff-changes',
      everyMs: 3600_000,
      atStart: true,
      log,
      run: () => applyDueTariffChanges(handle.db, berlinDate(new Date())),
    }),
    // SENT STRIPE_SEPA bills are collected by this job, not by the send (payments/collection.ts says why).
    startJob(handle.db, {
      name: 'bill-collection',
      everyMs: env.COLLECTION_INTERVAL_SECONDS * 1000,
      log,
      run: () => collectSentBills(handle.db, env, { log }),
      summary: (n) => `${n} collected`,
    }),
    // Mandate links the write's own after-commit call could not make (provider slow or down, process gone).
    startJob(handle.db, {
      name: 'checkout-links',
      everyMs: env.COLLECTION_INTERVAL_SECONDS * 1000,
      log,
      run: () => makeOpenCheckouts(handle.db, env, log),
      summary: (n) => `${n} made`,
    }),
  ];
  // Daily, and now: the previous month's bills (each bill is made once).
  const billJob = startBillJob(handle.db, { clock: opts.now ? () => opts.now! : undefined, log });

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: env.PORT,
        hostname: env.HOST,
        // Node checks the timeouts below this often (30 s by default, which let idle sockets pile up).
        serverOptions: { connectionsCheckingInterval: Math.min(5000, env.HEADERS_TIMEOUT_MS) },
      },
      () => resolve(s),
    );
  });
  const centralSystem = createCentralSystem({ db: handle.db, env, log });
  let relay: Relay = noRelay;
  const ocpp = registerOcppRuntime(env, handle.db, centralSystem, { timeoutMs: env.OCPP_CALL_TIMEOUT_MS, relay: () => relay, log });
  if (isPostgresUrl(env.DATABASE_URL)) {
    relay = startPgRelay(
      env.DATABASE_URL,
      handle.db,
      {
        announced: (id) =>
          void ocpp.operations.pickUp(id).catch((err: unknown) => logFault(log, `ocpp operation ${id}: picking it up failed`, err)),
        finished: (id) => ocpp.operations.onFinished(id),
        channel: (_, payload) => {
          const [cpId, cpoId] = payload.split(' ');
          if (cpId && cpoId) ocpp.live.deliver(cpId, cpoId);
        },
      },
      log,
      [LIVE_CHANNEL],
    );
    await relay.ready;
  }
  if (server instanceof HttpServer) {
    const limits = limitConnections(server, env);
    centralSystem.events.on('accepted', (socket: Socket) => limits.release(socket));
    server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
      if (!centralSystem.handleUpgrade(req, socket, head)) socket.destroy();
    });
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${urlHost(env.HOST)}:${port}`;
  log(`CPO Cockpit listening on ${url} (${handle.kind})`);

  let closed = false;
  return {
    url,
    port,
    db: handle.db,
    centralSystem,
    workerMemory: handle.workerMemory,
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server instanceof HttpServer ? server.getConnections((err, n) => (err ? reject(err) : resolve(n))) : resolve(0),
      ),
    close: async () => {
      if (closed) return;
      closed = true;
      mail.stop();
      await billJob.stop();
      await Promise.all(jobs.map((job) => job.stop()));
      await centralSystem.close();
      await relay.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handle.close();
    },
  };
}
