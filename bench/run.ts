/**
 * `npm run bench`: latency of the cockpit's read calls on a demo-size data set, never part of the
 * tests. Seeds (or reuses) a PGlite database under $BENCH_DATA_DIR (default: <tmp>/cpo-cockpit-bench),
 * starts the real server in-process on a loopback port, signs in and fires each call
 * BENCH_REQUESTS times (default 1000) from BENCH_CONCURRENCY callers (default 20), after a warm-up of
 * the same call that is not counted: rounds of BENCH_WARMUP requests (default 200) until
 * BENCH_WARMUP_SECONDS (default 2) have passed. A warm-up of 200 requests alone left the connector
 * list at ~2,600 req/s on PostgreSQL where 5,000 gave ~3,300: the server's JIT reaches its steady
 * state for a call after thousands of requests, not hundreds.
 * With BENCH_DATABASE_URL (or DATABASE_URL) set the same round runs against that PostgreSQL as
 * well (seeded if empty); BENCH_POSTGRES_ONLY=1 skips the PGlite round. Each call's throughput is
 * also printed as a share of `/config.json`'s (a public answer without the database) in the same
 * round, so figures compare across machines:
 * measured after a warm-up of the fresh server and again at the end of the round, the share is
 * taken of the mean of both (a cold first measurement made every share look better than it was).
 * BENCH_CALLS=<regex> measures only the calls whose name matches (e.g. 'connector|location list').
 * The client (`load-worker.mjs`: node:http, keep-alive, one connection per caller, answers read
 * whole but not decompressed) runs in a worker thread, off the server's event loop. 'CPU ms/req' is
 * the server's CPU time per measured request (its event loop and PGlite worker thread; not the
 * client's thread, not PostgreSQL's processes): it moves less than req/s when other work shares
 * the machine. 'client' is the client thread's CPU time per request, 'machine' the busy time of
 * all CPUs per request (server, client, PostgreSQL, the kernel's network stack and anything else).
 * Then the outbox replay bench (bench/outbox-replay.ts), then the browser benches on the built app
 * (bench/browser.ts: Lighthouse, warm start), then hostile uploads (bench/upload-flood.ts), then the
 * station import of 10,000 stations (bench/station-import.ts), then 1,000 simulated OCPP stations
 * on one instance and on two (bench/ocpp-stations.ts), then the bill run for the demo seed's last
 * month (bench/bill-run.ts) a zip of 500 bills (bench/bills-zip.ts) and the
 * download center's files (bench/exports.ts).
 * Then one station flooding 20,000 Heartbeats beside another tenant's list reads (bench/station-flood.ts)
 * and a reconnect storm of 300 stations (bench/reconnect-storm.ts).
 * BENCH_ONLY=cockpit, outbox, browser, uploads, imports, ocpp, storm, bills, zip, exports or flood runs just that one.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chartRangeQuery, type ChartRange } from '../contract/cockpit';
import { loadEnv } from '../server/src/env';
import { startServer } from '../server/src/server';
import { benchEnv, signIn } from './bench-kit';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const WARMUP = 10;
const WARMUP_REQUESTS = Number(process.env.BENCH_WARMUP ?? 200);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2) * 1000;
const CALLS = process.env.BENCH_CALLS ? new RegExp(process.env.BENCH_CALLS, 'i') : undefined;
const dataDir = process.env.BENCH_DATA_DIR ?? path.join(os.tmpdir(), 'cpo-cockpit-bench');

interface Result {
  name: string;
  n: number;
  errors: number;
  median: number;
  p95: number;
  max: number;
  rps: number;
  /** CPU time of the server's process (its event loop and PGlite worker, not the bench's client thread) per request. */
  cpuMs: number;
  /** CPU time of the bench's client thread per request. */
  clientCpuMs: number;
  /** Busy CPU time of the whole machine per request (/proc/stat: server, client, PostgreSQL, the kernel, anything else running). */
  machineCpuMs: number;
  /** req/s as a share of /config.json's req/s in the same round. */
  share?: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

async function measure(name: string, url: string, token?: string): Promise<Result | undefined> {
  if (CALLS && !CALLS.test(name)) return undefined;
  return measureAlways(name, url, token);
}

/** The HTTP client, in a thread of its own (`load-worker.mjs`); one job at a time. */
let client: Worker | undefined;
function load(job: { url: string; headers: Record<string, string>; count: number; concurrency: number }) {
  client ??= new Worker(new URL('./load-worker.mjs', import.meta.url), { execArgv: [] });
  const worker = client;
  type Answer = { latencies: number[]; errors: number; firstError?: string; cpuMs: number };
  return new Promise<Answer>((resolve, reject) => {
    // Both listeners go when either fires (a `once` left behind per job piled up on the worker).
    const onMessage = (answer: Answer) => {
      worker.off('error', onError);
      resolve(answer);
    };
    const onError = (err: Error) => {
      worker.off('message', onMessage);
      reject(err);
    };
    worker.once('message', onMessage);
    worker.once('error', onError);
    worker.postMessage(job);
  });
}

/** Busy CPU time of all the machine's CPUs so far in ms (/proc/stat; NaN where it is missing). */
function machineBusyMs(): number {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
    const busy = cpu.slice(0, 8).reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0);
    return (busy * 1000) / 100;
  } catch {
    return NaN;
  }
}

async function measureAlways(name: string, url: string, token?: string): Promise<Result> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await load({ url, headers, count: WARMUP, concurrency: 1 });
  // Then a concurrent warm-up, not counted: the server's JIT (and PGlite's WebAssembly tiers) reach
  // their steady state for this call only after thousands of requests.
  const warmUntil = performance.now() + WARMUP_MS;
  do await load({ url, headers, count: WARMUP_REQUESTS, concurrency: CONCURRENCY });
  while (performance.now() < warmUntil);
  const started = performance.now();
  const machineBefore = machineBusyMs();
  const cpuBefore = process.cpuUsage();
  const { latencies, errors, firstError, cpuMs: clientCpuMs } = await load({ url, headers, count: REQUESTS, concurrency: CONCURRENCY });
  const cpu = process.cpuUsage(cpuBefore);
  const machine = machineBusyMs() - machineBefore;
  const wall = (performance.now() - started) / 1000;
  if (firstError) console.log(`  ${name}: ${errors} failed, first: ${firstError}`);
  latencies.sort((a, b) => a - b);
  return {
    name,
    n: latencies.length,
    errors,
    median: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    max: latencies.at(-1) ?? NaN,
    rps: latencies.length / wall,
    cpuMs: ((cpu.user + cpu.system) / 1000 - clientCpuMs) / latencies.length,
    clientCpuMs: clientCpuMs / latencies.length,
    machineCpuMs: machine / latencies.length,
  };
}

async function round(label: string, databaseUrl: string | undefined): Promise<Result[]> {
  const env = loadEnv(benchEnv(dataDir, { DATABASE_URL: databaseUrl ?? '', SEED: 'demo' }));
  const t0 = performance.now();
  const server = await startServer(env, { log: (m) => console.log(`  [${label}] ${m}`) });
  console.log(`  [${label}] ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const admin = (await signIn(base, 'admin')).access_token;
    const operator = (await signIn(base, 'operator')).access_token;
    const history = `${base}/booking-service/bookings/get-charging-history`;
    // "Today" of the data set: the Berlin day of its newest request (a reused seed may be old).
    const newest = (await (await fetch(`${history}?page=0&size=1`, { headers: { authorization: `Bearer ${admin}` } })).json()) as {
      data: { totalNumberOfRecords: number; response: { startDate: string }[] };
    };
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(newest.data.response[0].startDate));
    console.log(`  [${label}] ${newest.data.totalNumberOfRecords} charging requests, newest on ${today}`);

    const results: (Result | undefined)[] = [];
    // A fresh process answers its first thousands of requests slower (JIT): warm it up first.
    for (let i = 0; i < 10; i++) await measureAlways('warm-up', `${base}/config.json`);
    const baselineStart = await measureAlways('/config.json (public, no database), start', `${base}/config.json`);
    results.push(baselineStart);
    const ranges: ChartRange[] = ['DAYS_7', 'DAYS_30', 'MONTHS_12'];
    for (const graphType of ['TOTAL_ENERGY', 'ACTIVE_USERS'] as const)
      for (const range of ranges) {
        const q = new URLSearchParams({ graphType, ...chartRangeQuery(range, today) });
        results.push(await measure(`get-graph ${graphType} ${range} (admin)`, `${base}/bff/kpi/get-graph?${q}`, admin));
      }
    {
      const q = new URLSearchParams({ graphType: 'TOTAL_ENERGY', ...chartRangeQuery('MONTHS_12', today) });
      results.push(await measure('get-graph TOTAL_ENERGY MONTHS_12 (operator)', `${base}/bff/kpi/get-graph?${q}`, operator));
    }
    const lastMonth = chartRangeQuery('DAYS_30', today);
    const cases: [string, Record<string, string>, string][] = [
      ['history page 0 size 10 (admin)', { page: '0', size: '10' }, admin],
      ['history page 0 size 10 Completed (admin)', { page: '0', size: '10', filters: 'Completed' }, admin],
      ['history page 400 size 25 Completed (admin)', { page: '400', size: '25', filters: 'Completed' }, admin],
      ['history page 0 size 10 Failed,Pending (admin)', { page: '0', size: '10', filters: 'Failed,Pending' }, admin],
      [
        'history page 20 size 25 30 days (admin)',
        { page: '20', size: '25', startDate: lastMonth.startDate, endDate: lastMonth.endDate },
        admin,
      ],
      ['history page 0 size 10 (operator)', { page: '0', size: '10' }, operator],
      ['history page 100 size 25 Completed (operator)', { page: '100', size: '25', filters: 'Completed' }, operator],
    ];
    for (const [name, params, token] of cases) results.push(await measure(name, `${history}?${new URLSearchParams(params)}`, token));
    results.push(await measure('locations dropdown (admin)', `${base}/bff/locations/get-by-cpo-for-dropdown`, admin));
    const connectorList = `${base}/bff/connectors/get-by-cpo`;
    results.push(await measure('connector list page 0 size 10 (admin)', `${connectorList}?page=0&size=10`, admin));
    results.push(await measure('connector list page 0 size 10 (operator)', `${connectorList}?page=0&size=10`, operator));
    results.push(await measure('connector list page 20 size 25 (admin)', `${connectorList}?page=20&size=25`, admin));
    const locationList = `${base}/bff/locations/get-by-cpo`;
    results.push(await measure('location list page 0 size 10 (admin)', `${locationList}?page=0&size=10`, admin));
    results.push(await measure('location list page 0 size 10 (operator)', `${locationList}?page=0&size=10`, operator));
    // The bill list over the chart's 12 months (the admins' default view of the bills page).
    const year = chartRangeQuery('MONTHS_12', today);
    const billList = `${base}/booking-service/bookings/get-bills/operator?page=0&size=10&startDate=${year.startDate}&endDate=${year.endDate}`;
    results.push(await measure('bill list page 0 size 10 12 months (admin)', billList, admin));
    results.push(await measure('bill list page 0 size 10 12 months (operator)', billList, operator));
    const baselineEnd = await measureAlways('/config.json (public, no database), end', `${base}/config.json`);
    results.push(baselineEnd);
    // The process holds the server, its PGlite worker (its WASM memory, the statements it keeps) and the client thread.
    console.log(`  [${label}] process RSS after the round: ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`);
    const measured = results.filter((r): r is Result => r !== undefined);
    const baseline = (baselineStart.rps + baselineEnd.rps) / 2;
    for (const r of measured) r.share = r.rps / baseline;
    return measured;
  } finally {
    await server.close();
  }
}

function printTable(label: string, results: Result[]) {
  const head = [
    'call',
    'n',
    'err',
    'median ms',
    'p95 ms',
    'max ms',
    'req/s',
    'CPU ms/req',
    'client',
    'machine',
    '% of config.json (mean of start, end)',
  ];
  const rows = results.map((r) => [
    r.name,
    String(r.n),
    String(r.errors),
    r.median.toFixed(1),
    r.p95.toFixed(1),
    r.max.toFixed(1),
    r.rps.toFixed(0),
    r.cpuMs.toFixed(2),
    r.clientCpuMs.toFixed(2),
    r.machineCpuMs.toFixed(2),
    r.share === undefined ? '' : `${(r.share * 100).toFixed(1)} %`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
  console.log(
    `\n${label} — ${REQUESTS} requests per call, ${CONCURRENCY} concurrent callers, node ${process.version}, ${os.cpus().length} CPUs`,
  );
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
}

const only = process.env.BENCH_ONLY;
if (only && !['cockpit', 'outbox', 'browser', 'uploads', 'imports', 'ocpp', 'storm', 'bills', 'zip', 'exports', 'flood'].includes(only))
  throw new Error(`BENCH_ONLY must be cockpit, outbox, browser, uploads, imports, ocpp, storm, bills, zip, exports or flood, got ${only}`);

if (!only || only === 'cockpit') {
  const targets: [string, string | undefined][] = [];
  const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL;
  if (process.env.BENCH_POSTGRES_ONLY !== '1' || !postgresUrl) targets.push(['PGlite', undefined]);
  if (postgresUrl) targets.push(['PostgreSQL', postgresUrl]);
  console.log(`Bench data dir: ${dataDir} (first run seeds the demo data set, ~30 s)`);
  const all: [string, Result[]][] = [];
  for (const [label, url] of targets) all.push([label, await round(label, url)]);
  await client?.terminate();
  for (const [label, results] of all) printTable(label, results);
  if (all.some(([, rs]) => rs.some((r) => r.errors > 0))) {
    console.log('\nSome requests failed (see err column).');
    process.exitCode = 1;
  }
}

if (!only || only === 'outbox') {
  // Loaded only here: it installs browser stand-ins (IndexedDB, navigator.onLine, localStorage).
  const { runOutboxReplayBench } = await import('./outbox-replay');
  const outbox = await runOutboxReplayBench();
  if (!outbox.ok) process.exitCode = 1;
}

if (!only || only === 'uploads') {
  // Hostile uploads while another tenant works (bench/upload-flood.ts).
  await import('./upload-flood');
}

if (!only || only === 'imports') {
  // The station import of 10,000 stations: dry runs and the write, time and peak RSS.
  const { runStationImportBench } = await import('./station-import');
  await runStationImportBench();
}

if (!only || only === 'ocpp') {
  // 1,000 simulated OCPP stations on one instance, then split over two on PostgreSQL (bench/ocpp-stations.ts).
  const { runOcppStationsBench } = await import('./ocpp-stations');
  await runOcppStationsBench();
}

if (!only || only === 'storm') {
  // 300 stations reconnecting at once after a restart and a network blip (bench/reconnect-storm.ts).
  const { runReconnectStormBench } = await import('./reconnect-storm');
  await runReconnectStormBench();
}

if (!only || only === 'bills') {
  // The bill run for the demo seed's last month: bills per second (bench/bill-run.ts).
  const { runBillRunBench } = await import('./bill-run');
  await runBillRunBench();
}

if (!only || only === 'zip') {
  // A zip of 500 bills' PDFs: time and the server's peak RSS above idle (bench/bills-zip.ts).
  const { runBillsZipBench } = await import('./bills-zip');
  await runBillsZipBench();
}

if (!only || only === 'exports') {
  // The download center's files over 1,000,000 requests and 100,000 postings: rows/s, first byte, RSS.
  const { runExportsBench } = await import('./exports');
  await runExportsBench();
}

if (!only || only === 'flood') {
  // One station's 20,000-Heartbeat flood: another tenant's list p50/p99 and the server's RSS (bench/station-flood.ts).
  const { runStationFloodBench } = await import('./station-flood');
  await runStationFloodBench();
}

if (!only || only === 'browser') {
  // Lighthouse and the warm start, on the built app (skipped with a note when there is no build).
  const { runBrowserBench } = await import('./browser');
  await runBrowserBench();
}
