/**
 * `npm run bench:imports` (also `BENCH_ONLY=imports npm run bench`): the station import
 * (`server/src/stations/import/README.md`) of 10,000 stations (BENCH_IMPORT_ROWS) against the real
 * server on a fresh small data set: a CSV and an XLSX as a dry run, then the CSV written. Prints
 * each request's time and the process's peak RSS while it ran (server, its PGlite worker and the
 * parse worker share the process with the bench), and what another tenant (the partner) saw
 * meanwhile: its connector list and `/config.json`, each asked again 20 ms after its answer, p50
 * and p99. Never part of the tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { like } from 'drizzle-orm';
import { loadEnv } from '../server/src/env';
import { locations } from '../server/src/db/schema/locations';
import { connectors } from '../server/src/db/schema/stations';
import { startServer } from '../server/src/server';
import { csvFile, xlsxFile, type Cells } from '../server/src/test/station-import-files';
import { benchEnv, signIn } from './bench-kit';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export async function runStationImportBench() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-import-bench-'));
  const env = loadEnv(benchEnv(dataDir));
  const server = await startServer(env, { log: () => {} });
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const token = (await signIn(base, 'admin')).access_token;
    const other = (await signIn(base, 'partner')).access_token;
    // Another tenant's requests while `until` is pending, each asked 20 ms after the previous answer.
    const beside = async (path: string, headers: Record<string, string>, until: () => boolean) => {
      const times: number[] = [];
      while (!until()) {
        const t0 = performance.now();
        await (await fetch(`${base}${path}`, { headers })).arrayBuffer();
        times.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
      return times;
    };
    const pct = (times: number[], p: number) => [...times].sort((a, b) => a - b)[Math.max(0, Math.ceil(times.length * p) - 1)] ?? NaN;
    const figures = (times: number[]) => `p50 ${pct(times, 0.5).toFixed(0)} / p99 ${pct(times, 0.99).toFixed(0)} ms (${times.length})`;
    const warm = () => fetch(`${base}/bff/connectors/get-by-cpo?page=0&size=10`, { headers: { authorization: `Bearer ${other}` } });
    for (let i = 0; i < 5; i++) await (await warm()).arrayBuffer();
    const [loc] = await server.db.select({ id: locations.locationId }).from(locations).limit(1);
    // One connector each, a lot of its own (I + four base-36 digits: within the 5 characters).
    const rows: Cells[] = Array.from({ length: ROWS }, (_, i) => ({
      locationId: loc!.id,
      cpId: `BENCH-${i}`,
      wallboxModel: 'ABL eMH1',
      connectorCount: 1,
      parkingLot1: `I${i.toString(36).padStart(4, '0')}`,
    }));
    const files = { csv: csvFile(rows), xlsx: await xlsxFile(rows) };
    console.log(
      `Station import of ${ROWS} stations: CSV ${(files.csv.length / 1024).toFixed(0)} KB, XLSX ${(files.xlsx.length / 1024).toFixed(0)} KB`,
    );
    const send = async (label: string, bytes: Buffer, name: string, dryRun: boolean) => {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes)]), name);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = performance.now();
      let done = false;
      const request = fetch(`${base}/bff/connectors/upload?csvSeparator=%3B&dryRun=${dryRun}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      }).finally(() => (done = true));
      const [res, lists, configs] = await Promise.all([
        request,
        beside('/bff/connectors/get-by-cpo?page=0&size=10', { authorization: `Bearer ${other}` }, () => done),
        beside('/config.json', {}, () => done),
      ]);
      const body = (await res.json()) as { data?: { stationCount: number }; errorCodeResponse?: string };
      const ms = performance.now() - started;
      clearInterval(sampler);
      peak = Math.max(peak, process.memoryUsage().rss);
      const outcome = res.status === 200 ? `${body.data!.stationCount} stations` : `${res.status} ${body.errorCodeResponse}`;
      console.log(
        `  ${label.padEnd(16)} ${ms.toFixed(0).padStart(6)} ms  ${outcome.padEnd(16)} RSS ${mb(before)} before, peak ${mb(peak)}`,
      );
      console.log(`    beside it, another tenant's list ${figures(lists)}, /config.json ${figures(configs)}`);
    };
    await send('CSV dry run', files.csv, 'stationen.csv', true);
    await send('XLSX dry run', files.xlsx, 'stationen.xlsx', true);
    await send('CSV write', files.csv, 'stationen.csv', false);
    const written = await server.db.select({ id: connectors.connectorId }).from(connectors).where(like(connectors.cpId, 'BENCH-%'));
    console.log(`  connectors written: ${written.length}`);
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runStationImportBench();
