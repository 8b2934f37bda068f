/**
 * `npm run bench:bills` (also `BENCH_ONLY=bills npm run bench`): the bill run (issue 24,
 * `server/src/bills/run.ts`) for the demo seed's last month, as the server's daily job runs it: on
 * PGlite in its worker thread, a transaction per contract. Seeds the demo data set (BENCH_BILL_SIZE,
 * default demo) into a fresh directory, takes the last month's bills out again (and sets the number
 * counters back), then runs that month: bills per second, and the second run that finds everything
 * billed. Never part of the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { runBills } from '../server/src/bills/run';
import { createDb } from '../server/src/db/client';
import { seedDatabase, type SeedSize } from '../server/src/seed/seed';

const SIZE = (process.env.BENCH_BILL_SIZE ?? 'demo') as SeedSize;

export async function runBillRunBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-bill-bench-'));
  try {
    const now = new Date();
    const seeding = await createDb({ dataDir });
    await seeding.migrate();
    const seeded = await seedDatabase(seeding.db, { size: SIZE, now });
    await seeding.close();
    console.log(`\nBill run — "${SIZE}" data set seeded in ${(seeded.ms / 1000).toFixed(1)} s (${seeded.counts.bills} bills)`);

    const handle = await createDb({ dataDir, pgliteWorker: true });
    try {
      const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
      const month = last.toISOString().slice(0, 7);
      const [year, monthNumber] = month.split('-').map(Number);
      await handle.db.execute(sql`delete from bills where year_number = ${year} and month_number = ${monthNumber}`);
      // Numbers continue from the highest one left, as if the month had never been billed.
      await handle.db.execute(sql`
        update bill_number_counters c set last_number = coalesce(
          (select max(right(b.bill_number, 6)::int) from bills b where b.cpo_id = c.cpo_id and b.bill_number like '%' || c.year || '-%'), 0)`);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const first = await runBills(handle.db, month, { now });
      const seconds = (performance.now() - started) / 1000;
      const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
      const againStarted = performance.now();
      const again = await runBills(handle.db, month, { now });
      const againSeconds = (performance.now() - againStarted) / 1000;
      console.log(
        [
          `month ${month}: ${first.created} bills created, ${first.failed} failed in ${seconds.toFixed(2)} s` +
            ` = ${Math.round(first.created / seconds)} bills/s (${(cpuMs / Math.max(first.created, 1)).toFixed(2)} ms CPU per bill, node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)})`,
          `run again: ${again.created} created, ${again.skipped} skipped in ${againSeconds.toFixed(2)} s`,
        ].join('\n'),
      );
      if (first.failed > 0 || again.created > 0) process.exitCode = 1;
    } finally {
      await handle.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runBillRunBench();
