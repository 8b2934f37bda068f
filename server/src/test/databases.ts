import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, type DbHandle } from '../db/client';
import { seedDatabase, type SeedResult } from '../seed/seed';

/**
 * Databases for server tests. Without TEST_DATABASE_URL each is an in-memory PGlite; with it (a
 * postgres:// URL of an admin database, set by scripts/with-postgres.sh) each is a new database
 * on that server, dropped again by `close`.
 */

/** Fixed clock for seeds, so every run sees the same data. */
export const TEST_NOW = new Date('2026-03-15T10:00:00Z');

export const testDatabaseUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

/** A fresh database, migrated and empty. */
export async function createEmptyTestDb(): Promise<DbHandle> {
  const adminUrl = testDatabaseUrl();
  if (!adminUrl) return createDb({ dataDir: 'memory://', loadDataDir: (await pgliteTemplates()).empty });
  const name = uniqueName();
  await admin(adminUrl, (c) => c.query(`create database ${name}`));
  const handle = await openDropping(adminUrl, name);
  await handle.migrate();
  return handle;
}

/** A fresh database, migrated and seeded with the `small` data set at TEST_NOW. */
export async function createSeededTestDb(): Promise<{ handle: DbHandle; seed: SeedResult }> {
  const adminUrl = testDatabaseUrl();
  if (!adminUrl) {
    const { seeded, seed } = await pgliteTemplates();
    return { handle: await createDb({ dataDir: 'memory://', loadDataDir: seeded }), seed };
  }
  // Seeding once and copying the result is much faster than seeding every test file's database.
  const template = await (templateOnce ??= seededTemplate(adminUrl));
  const name = uniqueName();
  await admin(adminUrl, (c) => c.query(`create database ${name} template ${template.name}`));
  return { handle: await openDropping(adminUrl, name), seed: template.seed };
}

/**
 * A new seeded PostgreSQL database (a copy of the template) by its URL, for tests that start whole
 * servers on it (several instances on one database); `drop` removes it. Needs TEST_DATABASE_URL.
 */
export async function createSeededTestDatabaseUrl(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await (templateOnce ??= seededTemplate(adminUrl));
  const name = uniqueName();
  await admin(adminUrl, (c) => c.query(`create database ${name} template ${template.name}`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => admin(adminUrl, (c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}

// ---- PGlite -------------------------------------------------------------------------------------

/**
 * PGlite's templates: the migrated database and the seeded one as tars of their files, built by the
 * first test process that needs them and kept under node_modules/.cache/cockpit/, named by the
 * sources' fingerprint (so a changed migration, seed or server source builds new ones). A test's
 * database loads its tar instead of running initdb, the migrations and the seed: ~0.7 s instead of
 * ~5 s for each of the ~45 test files that start from the seeded data.
 */
let pgliteOnce: Promise<{ empty: Blob; seeded: Blob; seed: SeedResult }> | undefined;
const pgliteTemplates = () => (pgliteOnce ??= loadPgliteTemplates());

async function loadPgliteTemplates(): Promise<{ empty: Blob; seeded: Blob; seed: SeedResult }> {
  const dir = fileURLToPath(new URL('../../../node_modules/.cache/cockpit/', import.meta.url));
  const base = path.join(dir, `pglite-template-${sourceFingerprint()}`);
  const files = { empty: `${base}-empty.tar`, seeded: `${base}-seeded.tar`, seed: `${base}-seed.json` };
  if (!Object.values(files).every((f) => existsSync(f))) {
    // Two test processes may build at once; each file appears whole (written aside, then renamed).
    const handle = await createDb({ dataDir: 'memory://' });
    const built: Record<keyof typeof files, Uint8Array | string> = { empty: '', seeded: '', seed: '' };
    try {
      await handle.migrate();
      built.empty = new Uint8Array(await (await handle.dumpDataDir!()).arrayBuffer());
      built.seed = JSON.stringify(await seedDatabase(handle.db, { size: 'small', now: TEST_NOW }));
      built.seeded = new Uint8Array(await (await handle.dumpDataDir!()).arrayBuffer());
    } finally {
      await handle.close();
    }
    mkdirSync(dir, { recursive: true });
    for (const key of ['empty', 'seeded', 'seed'] as const) {
      const aside = `${files[key]}.${process.pid}.tmp`;
      writeFileSync(aside, built[key]);
      renameSync(aside, files[key]);
    }
    pruneTemplates(dir);
  }
  return {
    empty: new Blob([readFileSync(files.empty)]),
    seeded: new Blob([readFileSync(files.seeded)]),
    seed: JSON.parse(readFileSync(files.seed, 'utf8')) as SeedResult,
  };
}

/** Keeps the three newest templates (~90 MB each): every change to the sources makes another. */
function pruneTemplates(dir: string) {
  const byFingerprint = new Map<string, { files: string[]; newest: number }>();
  for (const name of readdirSync(dir)) {
    const fp = /^pglite-template-([0-9a-f]{16})-/.exec(name)?.[1];
    if (!fp) continue;
    const entry = byFingerprint.get(fp) ?? { files: [], newest: 0 };
    entry.files.push(path.join(dir, name));
    entry.newest = Math.max(entry.newest, statSync(path.join(dir, name)).mtimeMs);
    byFingerprint.set(fp, entry);
  }
  const old = [...byFingerprint.values()].sort((a, b) => b.newest - a.newest).slice(3);
  for (const f of old.flatMap((e) => e.files)) rmSync(f, { force: true });
}

// ---- PostgreSQL ---------------------------------------------------------------------------------

let templateOnce: Promise<{ name: string; seed: SeedResult }> | undefined;
let counter = 0;

const uniqueName = () => `cockpit_test_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One short admin connection: CREATE/DROP DATABASE cannot run on a database being used. */
async function admin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function openDropping(adminUrl: string, name: string): Promise<DbHandle> {
  const handle = await createDb({ databaseUrl: databaseUrl(adminUrl, name), dataDir: 'memory://' });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      // Not WITH (FORCE): the pool's connections are still closing after pool.end(), and a forced
      // drop would kill them with an error their client reports as unhandled. A plain drop waits
      // up to 5 s for them to go.
      await admin(adminUrl, (c) => c.query(`drop database if exists ${name}`));
    },
  };
}

/**
 * The seeded template, built by the first test process that needs it. Its name carries a hash of
 * the migrations and the seed's code, so a server kept between runs never serves an outdated one;
 * an advisory lock makes parallel test workers wait for the one building it, and the build is
 * renamed into place only when complete. The seed's report travels as the database's comment.
 */
async function seededTemplate(adminUrl: string): Promise<{ name: string; seed: SeedResult }> {
  const name = `cockpit_tpl_${sourceFingerprint()}`;
  const building = `${name}_build`;
  return admin(adminUrl, async (c) => {
    await c.query(`select pg_advisory_lock(hashtext('cockpit test template'))`);
    try {
      const existing = await templateComment(c, name);
      if (existing) return { name, seed: JSON.parse(existing) as SeedResult };
      await c.query(`drop database if exists ${building} with (force)`);
      await c.query(`create database ${building}`);
      const handle = await createDb({ databaseUrl: databaseUrl(adminUrl, building), dataDir: 'memory://' });
      let seed: SeedResult;
      try {
        await handle.migrate();
        seed = await seedDatabase(handle.db, { size: 'small', now: TEST_NOW });
      } finally {
        await handle.close();
      }
      await c.query(`comment on database ${building} is ${c.escapeLiteral(JSON.stringify(seed))}`);
      await c.query(`alter database ${building} rename to ${name}`);
      return { name, seed };
    } finally {
      await c.query(`select pg_advisory_unlock(hashtext('cockpit test template'))`);
    }
  });
}

async function templateComment(c: pg.Client, name: string): Promise<string | undefined> {
  const res = await c.query<{ comment: string | null }>(
    `select shobj_description(oid, 'pg_database') as comment from pg_database where datname = $1`,
    [name],
  );
  return res.rows[0]?.comment ?? undefined;
}

/**
 * Hash of what decides a template's content: the migrations, and the server's and the contract's
 * sources (the seed runs the bill run and much else of the server), and the seed's clock.
 */
function sourceFingerprint(): string {
  const hash = createHash('sha256');
  const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../..');
  const files = (dir: string): string[] =>
    readdirSync(dir)
      .sort()
      .flatMap((f) => {
        const p = path.join(dir, f);
        if (statSync(p).isDirectory()) return f === 'test' ? [] : files(p);
        return f.endsWith('.test.ts') ? [] : [p];
      });
  for (const file of [...files(path.join(root, 'server/src')), ...files(path.join(root, 'contract')), ...files(path.join(root, 'locales'))])
    hash.update(path.relative(root, file)).update(readFileSync(file));
  hash.update(TEST_NOW.toISOString());
  return hash.digest('hex').slice(0, 16);
}
