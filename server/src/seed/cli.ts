import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { createDb } from '../db/client';
import { loadEnv } from '../env';
import { isDatabaseEmpty, seedDatabase, type SeedSize } from './seed';

/**
 * `npm run seed [-- --size small|demo] [--reset] [--now 2026-01-15T12:00:00Z]`
 * Seeds the configured database (DATABASE_URL or DATA_DIR). Without --reset an existing data set
 * is left alone.
 */
const { values } = parseArgs({
  options: {
    size: { type: 'string' },
    reset: { type: 'boolean', default: false },
    now: { type: 'string' },
  },
});

const env = loadEnv();
const size = (values.size ?? (env.SEED === 'none' ? 'demo' : env.SEED)) as SeedSize;
if (size !== 'small' && size !== 'demo') throw new Error(`--size must be small or demo, not ${size}`);
const now = values.now ? new Date(values.now) : new Date();

const handle = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await handle.migrate();
  if (values.reset) {
    const result = await handle.db.execute(sql`select tablename from pg_tables where schemaname = 'public'`);
    const { rows } = result as unknown as { rows: { tablename: string }[] };
    const names = rows.map((r) => `"${r.tablename}"`).join(', ');
    if (names) await handle.db.execute(sql.raw(`truncate ${names} restart identity cascade`));
  }
  if (!(await isDatabaseEmpty(handle.db))) {
    console.log('Database already holds data; use --reset to replace it.');
  } else {
    const result = await seedDatabase(handle.db, { size, now });
    console.log(`Seeded "${size}" in ${(result.ms / 1000).toFixed(1)} s:`, result.counts);
  }
} finally {
  await handle.close();
}
