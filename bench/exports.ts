/**
 * `npm run bench:exports` (also `BENCH_ONLY=exports npm run bench`): the download center's files
 * against the real server (issue 25). Seeds BENCH_EXPORT_ROWS charging requests (default 1,000,000)
 * of one location and BENCH_DATEV_POSTINGS / 2 bills (default 100,000 postings) into the bench's
 * database, then downloads the charging-history CSV and the DATEV file and prints rows per second,
 * time to first byte, the whole time and the server's peak RSS above its idle RSS (goal ≤ 150 MB).
 * The server runs as `npm start` runs it, in a child process (its RSS is its own).
 *
 * On PGlite, then on PostgreSQL, and a table of both at the end: PostgreSQL is BENCH_DATABASE_URL
 * (or TEST_DATABASE_URL, as under scripts/with-postgres.sh); without either, and when Debian's
 * PostgreSQL is installed, the bench runs itself once more under scripts/with-postgres.sh (a
 * throw-away cluster, deleted afterwards). BENCH_EXPORTS_POSTGRES=0 skips PostgreSQL,
 * BENCH_POSTGRES_ONLY=1 skips PGlite. On a given server a fresh database is made for the run
 * and dropped after it, so the bench never meets (or leaves) data of its own from before.
 * Never part of the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb } from '../server/src/db/client';
import { benchEnv, signIn } from './bench-kit';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const POSTINGS = Number(process.env.BENCH_DATEV_POSTINGS ?? 100_000);

async function startServer(dataDir: string, databaseUrl: string | undefined): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    env: benchEnv(dataDir, { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', DATABASE_URL: databaseUrl ?? '' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening:\n${out}`)));
  });
  child.stdout!.resume();
  return { child, base };
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** One operator with ERP values, a location, a contract, ROWS requests and POSTINGS / 2 bills, all in 2025. */
async function seedBig(dataDir: string, databaseUrl: string | undefined) {
  const handle = await createDb({ databaseUrl, dataDir });
  const db = handle.db;
  const t0 = performance.now();
  await db.execute(sql`insert into operators (cpo_id, cpo_name, street, zip_code, city, customer_id)
    select 'BENCH-OP', 'Bench Lade GmbH', 'Weg 1', '80331', 'München', customer_id from customers where customer_type = 'Partner' limit 1`);
  await db.execute(sql`insert into erp_values (cpo_id, client_number, net_ledger_account_nr, tax_ledger_account_nr, payment_method)
    values ('BENCH-OP', '29098/55003', '8400', '1776', 'SEPA')`);
  await db.execute(sql`insert into locations (location_id, location_name, street, zip_code, city, cpo_id)
    values ('BENCH-L', 'Bench Parkhaus Süd', 'Weg 2', '80331', 'München', 'BENCH-OP')`);
  await db.execute(sql`insert into connectors (connector_id, cp_id, connector_number, cpo_id, location_id, wallbox_model)
    select 'BENCH-CP_1', 'BENCH-CP', 1, 'BENCH-OP', 'BENCH-L', name from wallbox_models limit 1`);
  await db.execute(sql`insert into contracts (contract_key, contract_id, contract_number, end_customer_id, cpo_id, location_id, contract_status,
      user_type, first_name, last_name, email, street, zip_code, city, billing_type, debit_account_nr, cost_center_number, vat_id)
    values ('BENCH-C', 'BENCH-C-ID', 'BENCH-C-NR', '777777', 'BENCH-OP', 'BENCH-L', 'ACTIVE', 'REGULAR', 'Jürgen', 'Weiß',
      'bench@bench.example', 'Weg 3', '80331', 'München', 'WITH_BILLING', '10001', '100', 'DE811907980')`);
  for (let from = 1; from <= ROWS; from += 100_000) {
    const to = Math.min(ROWS, from + 99_999);
    await db.execute(sql`insert into charging_requests (transaction_id, contract_key, end_customer_id, customer_full_name, cpo_id, location_id,
        connector_id, auth_type, charging_type, status, start_date, end_date, last_update_timestamp, energy_kwh, cost)
      select 'BX' || lpad(g::text, 10, '0'), 'BENCH-C', '777777', 'Jürgen Weiß ' || (g % 1000), 'BENCH-OP', 'BENCH-L', 'BENCH-CP_1', 'APP',
        'NORMAL', 'finished', timestamptz '2025-01-01 00:00:00+00' + g * interval '30 seconds',
        timestamptz '2025-01-01 01:00:00+00' + g * interval '30 seconds', timestamptz '2025-01-01 01:00:00+00' + g * interval '30 seconds',
        (g % 50) + 0.123, (g % 30) + 0.45
      from generate_series(${from}::int, ${to}::int) g`);
  }
  await db.execute(sql`insert into bills (bill_id, bill_number, contract_key, cpo_id, location_id, end_customer_id, end_customer_first_name,
      end_customer_last_name, user_type, start_date, end_date, bill_generation_date, payment_method, month_number, year_number, net_costs,
      vat_percent, vat_costs, total_taxed_costs, billing_status, charging_request_id)
    select 'BB-' || g, 'RE-2025-B-' || lpad(g::text, 7, '0'), 'BENCH-C', 'BENCH-OP', 'BENCH-L', '777777', 'Jürgen', 'Weiß', 'REGULAR',
      date '2025-01-01', date '2025-01-01', timestamptz '2025-01-01 00:00:00+00' + g * interval '5 minutes', 'SEPA', 1, 2025,
      100 + g % 100, 19, round((100 + g % 100) * 0.19, 2), 100 + g % 100 + round((100 + g % 100) * 0.19, 2), 'GENERATED', 'BX' || lpad(g::text, 10, '0')
    from generate_series(1, ${Math.ceil(POSTINGS / 2)}::int) g`);
  await db.execute(sql`analyze`);
  await handle.close();
  return (performance.now() - t0) / 1000;
}

interface Figures {
  lines: number;
  bytes: number;
  ttfbMs: number;
  totalS: number;
  peakAboveIdleMb: number;
}

/** Downloads one file, counting its lines as they arrive, while the server's RSS is sampled. */
async function download(base: string, pid: number, token: string, pathAndQuery: string): Promise<Figures> {
  const idle = rssOf(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50);
  const t0 = performance.now();
  const res = await fetch(`${base}${pathAndQuery}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
  if (res.status !== 200) throw new Error(`${pathAndQuery}: ${res.status} ${await res.text()}`);
  let ttfb = 0;
  let bytes = 0;
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!ttfb) ttfb = performance.now() - t0;
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) lines++;
  }
  const total = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  return { lines, bytes, ttfbMs: ttfb, totalS: total, peakAboveIdleMb: (peak - idle) / 2 ** 20 };
}

const show = (label: string, f: Figures, dataLines: number) =>
  console.log(
    `${label}: ${dataLines.toLocaleString('en')} lines, ${(f.bytes / 2 ** 20).toFixed(0)} MB in ${f.totalS.toFixed(1)} s ` +
      `(${Math.round(dataLines / f.totalS).toLocaleString('en')} lines/s), first byte after ${f.ttfbMs.toFixed(0)} ms, ` +
      `server RSS peak ${f.peakAboveIdleMb.toFixed(0)} MB above idle (goal ≤ 150 MB)`,
  );

type Run = { database: string; history: Figures; datev: Figures };

/** One database: the demo seed, the big data set beside it, then both files downloaded. */
async function benchOn(database: string, databaseUrl: string | undefined): Promise<Run> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-exports-bench-'));
  try {
    // The first start migrates and seeds the demo data; then the big data set goes in beside it.
    await stop((await startServer(dataDir, databaseUrl)).child);
    console.log(
      `${database}: seeding ${ROWS.toLocaleString('en')} charging requests and ${Math.ceil(POSTINGS / 2).toLocaleString('en')} bills…`,
    );
    console.log(`seeded in ${(await seedBig(dataDir, databaseUrl)).toFixed(0)} s`);
    const { child, base } = await startServer(dataDir, databaseUrl);
    try {
      const admin = (await signIn(base, 'admin')).access_token;
      await new Promise((r) => setTimeout(r, 2000));
      const history = await download(
        base,
        child.pid!,
        admin,
        '/booking-service/bookings/charging-history/export?locationIds=BENCH-L&startDate=2025-01-01&endDate=2025-12-31&chargingType=NORMAL',
      );
      show(`${database} history CSV`, history, history.lines - 1);
      if (history.lines - 1 !== ROWS) throw new Error(`history CSV: ${history.lines - 1} rows, expected ${ROWS}`);
      const datev = await download(
        base,
        child.pid!,
        admin,
        '/booking-service/bookings/generate/datev?cpoId=BENCH-OP&locationIds=BENCH-L&paymentMethod=SEPA&startDate=2025-01-01&endDate=2025-12-31',
      );
      show(`${database} DATEV file`, datev, datev.lines - 2);
      if (datev.lines - 2 !== 2 * Math.ceil(POSTINGS / 2)) throw new Error(`DATEV file: ${datev.lines - 2} postings`);
      return { database, history, datev };
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A fresh database on the PostgreSQL server of `url` for the run, dropped afterwards. */
async function withFreshDatabase<T>(url: string, run: (dbUrl: string) => Promise<T>): Promise<T> {
  const name = `cockpit_exports_bench_${process.pid}_${Date.now()}`;
  const admin = await createDb({ databaseUrl: url, dataDir: 'memory://' });
  await admin.db.execute(sql.raw(`create database ${name}`));
  try {
    const u = new URL(url);
    u.pathname = `/${name}`;
    return await run(u.toString());
  } finally {
    await admin.db.execute(sql.raw(`drop database if exists ${name} with (force)`));
    await admin.close();
  }
}

/** Debian's PostgreSQL binaries, as scripts/with-postgres.sh looks for them (it would install them; the bench does not). */
const postgresInstalled = () =>
  existsSync('/usr/lib/postgresql') && readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));

/** This bench once more, on PostgreSQL only, under scripts/with-postgres.sh; its runs, read from the file it writes. */
async function underThrowawayPostgres(): Promise<Run[]> {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'cockpit-exports-pg-')), 'runs.json');
  const child = spawn('bash', ['scripts/with-postgres.sh', process.execPath, '--import', 'tsx', 'bench/exports.ts'], {
    env: { ...process.env, BENCH_POSTGRES_ONLY: '1', BENCH_EXPORTS_RESULT: out, BENCH_DATABASE_URL: '' },
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`the PostgreSQL run under scripts/with-postgres.sh exited with ${code}`);
  const runs = JSON.parse(readFileSync(out, 'utf8')) as Run[];
  rmSync(path.dirname(out), { recursive: true, force: true });
  return runs;
}

function table(runs: Run[]) {
  console.log(
    `\nExports (${ROWS.toLocaleString('en')} history rows, ${(2 * Math.ceil(POSTINGS / 2)).toLocaleString('en')} DATEV postings):`,
  );
  console.log('database    file         lines/s   first byte   total     RSS above idle');
  for (const r of runs)
    for (const [file, f, n] of [
      ['history CSV', r.history, r.history.lines - 1],
      ['DATEV file', r.datev, r.datev.lines - 2],
    ] as const)
      console.log(
        `${r.database.padEnd(11)} ${file.padEnd(12)} ${Math.round(n / f.totalS)
          .toLocaleString('en')
          .padStart(
            8,
          )}   ${`${f.ttfbMs.toFixed(0)} ms`.padStart(10)}   ${`${f.totalS.toFixed(1)} s`.padStart(7)}   ${`${f.peakAboveIdleMb.toFixed(0)} MB`.padStart(8)} (goal ≤ 150 MB)`,
      );
}

export async function runExportsBench() {
  const runs: Run[] = [];
  if (process.env.BENCH_POSTGRES_ONLY !== '1') runs.push(await benchOn('PGlite', undefined));
  const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (process.env.BENCH_EXPORTS_POSTGRES === '0') console.log('PostgreSQL: skipped (BENCH_EXPORTS_POSTGRES=0).');
  else if (postgresUrl) runs.push(await withFreshDatabase(postgresUrl, (url) => benchOn('PostgreSQL', url)));
  else if (postgresInstalled()) runs.push(...(await underThrowawayPostgres()));
  else console.log('PostgreSQL: skipped (no BENCH_DATABASE_URL and no PostgreSQL installed; see scripts/with-postgres.sh).');
  if (process.env.BENCH_EXPORTS_RESULT) writeFileSync(process.env.BENCH_EXPORTS_RESULT, JSON.stringify(runs));
  else table(runs);
  return runs;
}

if (import.meta.url === `file://${process.argv[1]}`) await runExportsBench();
