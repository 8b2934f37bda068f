import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PgliteWorkerClient } from './pglite-proxy';
import * as authTables from './schema/auth';
import * as bookingsTables from './schema/bookings';
import * as cockpitTables from './schema/cockpit';
import * as contractsTables from './schema/contracts';
import * as customersTables from './schema/customers';
import * as httpTables from './schema/http';
import * as locationsTables from './schema/locations';
import * as mailTables from './schema/mail';
import * as ocppTables from './schema/ocpp';
import * as operatorsTables from './schema/operators';
import * as rfidTables from './schema/rfid';
import * as sepaTables from './schema/sepa';
import * as stationsTables from './schema/stations';

/** Every area's tables (one schema file per area in schema/), for drizzle's typed `db.query`. */
const schema = {
  ...authTables,
  ...bookingsTables,
  ...cockpitTables,
  ...contractsTables,
  ...customersTables,
  ...httpTables,
  ...locationsTables,
  ...mailTables,
  ...ocppTables,
  ...operatorsTables,
  ...rfidTables,
  ...sepaTables,
  ...stationsTables,
};
export type Schema = typeof schema;
/** Both drivers (and a transaction of either) satisfy this type, so queries are written once. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate: () => Promise<void>;
  close: () => Promise<void>;
  /** PGlite in a worker thread: that thread's memory (heap, buffers; rss is the process's). */
  workerMemory?: () => Promise<NodeJS.MemoryUsage>;
  /** PGlite in this thread: its files as a tar, for `createDb({ loadDataDir })` (the tests' templates). */
  dumpDataDir?: () => Promise<Blob>;
}

/**
 * How PGlite is opened, in the worker and in-process alike. PostgreSQL's default shared_buffers
 * (128 MB) is all touched WASM memory in PGlite, so it stays in the process's RSS for good; PGlite
 * reads its files through the operating system's cache anyway, so 32 MB costs the lists no measurable
 * speed and the idle server ~100 MB less (`bench/idle-memory.ts`).
 */
export function pgliteOptions(dataDir: string | undefined) {
  return {
    ...(dataDir ? { dataDir } : {}),
    startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'],
  };
}

/**
 * Statements that PGlite's worker plans for each call's values instead of preparing them once
 * (`pglite-worker.mjs`): those that read the charging requests themselves, whose date ranges,
 * statuses and operators select anything from a few rows to all of 100,000s, so a generic plan
 * (which PostgreSQL may keep for a prepared statement after five calls) could suit one call and not
 * the next. The roll-ups alone (the KPIs' energy, end users and licences, the bill total) are small
 * tables read by their keys: they keep their plans, as PostgreSQL keeps a named statement's
 * (planning the 12-month KPI statement cost ~1 ms a call). The same reason keeps the charging
 * history out of `http/statements.ts` on PostgreSQL.
 */
export const PER_CALL_PLANS = '"charging_requests"';

export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/** Where PGlite keeps its files for a `DATA_DIR`. */
export const pgliteDataDir = (dataDir: string) => path.resolve(dataDir, 'pglite');

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * `databaseUrl` starting with postgres:// (or postgresql://) selects PostgreSQL; otherwise PGlite
 * stores its files in `dataDir/pglite`, or in memory when dataDir is 'memory://'.
 * `pgliteWorker` runs PGlite in a worker thread (`pglite-worker.ts`), as the server does, so no
 * query blocks the caller's event loop; tests and scripts keep it on their own thread.
 */
export async function createDb(opts: {
  databaseUrl?: string;
  dataDir: string;
  pgliteWorker?: boolean;
  /** PGlite in this thread: start from these files (a `dumpDataDir` tar) instead of an empty database. */
  loadDataDir?: Blob;
}): Promise<DbHandle> {
  if (isPostgresUrl(opts.databaseUrl)) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
    const db = drizzlePg(pool, { schema });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }
  let dataDir: string | undefined;
  if (opts.dataDir !== 'memory://') {
    dataDir = pgliteDataDir(opts.dataDir);
    mkdirSync(dataDir, { recursive: true });
  }
  if (opts.pgliteWorker) {
    const client = await PgliteWorkerClient.start(pgliteOptions(dataDir), { perCallPlans: PER_CALL_PLANS });
    // drizzle's pglite driver only calls query, exec and transaction, which the proxy has.
    const db = drizzlePglite(client as unknown as PGlite, { schema });
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      migrate: () => migratePglite(db, { migrationsFolder }),
      close: () => client.close(),
      workerMemory: () => client.memory(),
    };
  }
  const client = await PGlite.create({ ...pgliteOptions(dataDir), ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  const db = drizzlePglite(client, { schema });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}
