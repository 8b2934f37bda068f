import { parseArgs } from 'node:util';
import { billingMonthSchema } from '../../../contract/bills';
import { createDb } from '../db/client';
import { loadEnv } from '../env';
import { runBills } from './run';

/**
 * `npm run bills -- --period 2026-10 [--now 2026-11-02T06:00:00Z]`
 * Runs the bills of a month on the configured database (DATABASE_URL or DATA_DIR), as the server's
 * daily job does; safe to run again and beside running servers (nothing is billed twice).
 */
const { values } = parseArgs({ options: { period: { type: 'string' }, now: { type: 'string' } } });
const period = billingMonthSchema.safeParse(values.period);
if (!period.success) {
  console.error('--period must be a month as YYYY-MM, e.g. --period 2026-10');
  process.exit(2);
}
const now = values.now ? new Date(values.now) : new Date();
if (Number.isNaN(now.getTime())) {
  console.error('--now must be an ISO date and time');
  process.exit(2);
}

const env = loadEnv();
const handle = await createDb({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
try {
  await handle.migrate();
  const started = performance.now();
  const answer = await runBills(handle.db, period.data, { now, log: (m) => console.error(m) });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `Bills for ${period.data}: ${answer.created} created, ${answer.skipped} skipped, ${answer.failed} failed in ${seconds.toFixed(1)} s` +
      ` (${Math.round(answer.created / Math.max(seconds, 0.001))} bills/s)`,
  );
  if (answer.locked > 0)
    console.log(`${answer.locked} contracts were being billed by another run: run again to bill any it did not finish.`);
  process.exitCode = answer.failed > 0 ? 1 : 0;
} finally {
  await handle.close();
}
