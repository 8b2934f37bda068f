/**
 * Seeds an empty PGlite database in a process of its own and exits: see `seedInChildProcess`.
 * Arguments: the PGlite data directory, the seed size, the seed's "now" (ISO). Its answer (the seed
 * result, or null when the database already held data) goes to the parent over IPC.
 */
import { createDb } from '../db/client';
import { seedIfEmpty, type SeedSize } from './seed';

const [dataDir, size, now] = process.argv.slice(2);
const handle = await createDb({ dataDir: dataDir! });
try {
  await handle.migrate();
  const result = await seedIfEmpty(handle.db, size as SeedSize, new Date(now!));
  await new Promise<void>((resolve) => process.send!({ result: result ?? null }, () => resolve()));
} finally {
  await handle.close();
}
