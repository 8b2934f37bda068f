/**
 * `npm run bench:ocpp` (also `BENCH_ONLY=ocpp npm run bench`): many simulated OCPP 1.6J stations
 * against the real server (issue 27). BENCH_OCPP_STATIONS (default 1,000) stations connect at once
 * (in batches of 50: the server caps handshakes per client address), heartbeat every
 * BENCH_OCPP_HEARTBEAT_SECONDS (10; the server hands the interval out in BootNotification), report a
 * status change about once a minute each (the simulator's own plug-in-and-out) and run a charging
 * session each per 5 minutes (started by the bench at random times, BENCH_OCPP_SESSION_SECONDS long,
 * default 60, with meter values every 30 s), for BENCH_OCPP_SECONDS (default 120) after all have
 * connected. Prints the stations' messages per second, their answer times (p50/p95/max), and each
 * server's RSS (end and peak) and CPU (share of one core), and the machine's busy CPU.
 *
 * Round 1: one instance on PGlite. Round 2, with BENCH_DATABASE_URL or TEST_DATABASE_URL (e.g.
 * `bash scripts/with-postgres.sh npm run bench:ocpp`): the same stations split over two instances
 * on that PostgreSQL. Each server runs as a process of its own (`node --import tsx
 * server/src/main.ts`, as `npm start`), so its RSS and CPU are its own and not the simulators'.
 * Never part of the tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { asc } from 'drizzle-orm';
import { hashPassword } from '../server/src/auth/passwords';
import { createDb, type Db } from '../server/src/db/client';
import { locations, wallboxModels } from '../server/src/db/schema/locations';
import { ocppStations } from '../server/src/db/schema/ocpp';
import { connectors } from '../server/src/db/schema/stations';
import { planFromDb } from '../server/src/ocpp/simulator/plan';
import type { SimulatedStation, StationPlan } from '../server/src/ocpp/simulator/simulated-station';
import { startSimulation, type Simulation } from '../server/src/ocpp/simulator/simulator';
import { demoStationPassword } from '../server/src/seed/ocpp';
import { seedIfEmpty } from '../server/src/seed/seed';
import { newStationRows } from '../server/src/stations/import/new-stations';
import { benchEnv } from './bench-kit';

const STATIONS = Number(process.env.BENCH_OCPP_STATIONS ?? 1000);
const SECONDS = Number(process.env.BENCH_OCPP_SECONDS ?? 120);
const HEARTBEAT_SECONDS = Number(process.env.BENCH_OCPP_HEARTBEAT_SECONDS ?? 10);
const SESSION_MS = Number(process.env.BENCH_OCPP_SESSION_SECONDS ?? 60) * 1000;
const SESSION_EVERY_MS = 5 * 60_000;
const CONNECTORS = 2;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** The bench's stations: connectors at the seed's first location, active, all with the demo password. */
async function prepare(db: Db): Promise<StationPlan[]> {
  await seedIfEmpty(db, 'small');
  const [location] = await db
    .select({ id: locations.locationId, cpoId: locations.cpoId })
    .from(locations)
    .orderBy(asc(locations.locationId))
    .limit(1);
  const [model] = await db.select({ name: wallboxModels.name }).from(wallboxModels).limit(1);
  const cpIds = Array.from({ length: STATIONS }, (_, i) => `OCPPB${String(i).padStart(5, '0')}`);
  const rows = newStationRows(
    cpIds.map((cpId) => ({
      cpId,
      cpoId: location!.cpoId,
      locationId: location!.id,
      wallboxModel: model!.name,
      connectorCount: CONNECTORS,
    })),
  ).map((r) => ({ ...r, status: 'IDLE' as const }));
  const hash = await hashPassword(demoStationPassword);
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insert(connectors)
      .values(rows.slice(i, i + 500))
      .onConflictDoNothing();
  for (let i = 0; i < cpIds.length; i += 500) {
    await db
      .insert(ocppStations)
      .values(cpIds.slice(i, i + 500).map((cpId) => ({ cpId, passwordHash: hash, passwordSetAt: new Date() })))
      .onConflictDoNothing();
  }
  return planFromDb(db, STATIONS, cpIds);
}

interface Instance {
  pid: number;
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** One server as `npm start` runs it, in a process of its own, without simulated stations of its own. */
function startInstance(env: Record<string, string | undefined>): Promise<Instance> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, 'server/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({
        pid: child.pid!,
        url,
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${stderr.trim()}`)));
  });
}

const TICKS = 100; // USER_HZ on Linux
/** A process's CPU seconds so far (user + system) and its RSS. */
function processStats(pid: number): { cpuSeconds: number; rss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return { cpuSeconds, rss: rssKb * 1024 };
}

/** The whole machine's busy and total CPU time (all cores) from /proc/stat, in ticks. */
function machineTicks(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = values.map(Number);
  const idle = n[3]! + n[4]!;
  const total = n.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : NaN;

/** One charging session per station per 5 minutes, the first at a random time in the first 5 minutes. */
function driveSessions(stations: SimulatedStation[]): () => void {
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };
  for (const station of stations) {
    const session = () => {
      later(SESSION_EVERY_MS, session);
      const n = [1, 2].find((c) => station.connectorStatus(c) === 'Available' && station.runningSession(c) === undefined);
      if (n === undefined || station.tags.length === 0) return;
      const tag = station.tags[Math.floor(Math.random() * station.tags.length)];
      void station
        .runSession(n, tag)
        .then((tx) =>
          tx === undefined ? undefined : later(SESSION_MS, () => void station.endSession(n, 'EVDisconnected').catch(() => {})),
        )
        .catch(() => {});
    };
    later(Math.random() * SESSION_EVERY_MS, session);
  }
  return () => {
    for (const t of timers) clearTimeout(t);
  };
}

async function round(label: string, instances: Instance[], plans: StationPlan[]) {
  const started = performance.now();
  const simulations: Simulation[] = [];
  for (let i = 0; i < instances.length; i++) {
    simulations.push(
      await startSimulation({
        endpoint: `${instances[i]!.url.replace(/^http/, 'ws')}/ocpp`,
        password: demoStationPassword,
        plans: plans.filter((_, k) => k % instances.length === i),
        // Status changes by the simulator itself; sessions by driveSessions.
        timing: { statusEveryMs: 60_000, sessionEveryMs: 2 ** 30, sessionLengthMs: SESSION_MS, powerW: 11_000 },
        batch: 50,
        log: (m) => console.log(`  ${m}`),
      }),
    );
  }
  const stations = simulations.flatMap((s) => s.stations);
  const connected = simulations.reduce((n, s) => n + s.connected, 0);
  console.log(`  ${connected} of ${stations.length} stations connected in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Not measured: each station's boot (BootNotification and a StatusNotification per connector and for itself).
  const booted = () => stations.reduce((n, s) => n + s.answerTimes.length, 0) >= connected * (CONNECTORS + 2);
  for (const deadline = Date.now() + 120_000; !booted() && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 250));
  console.log(`  booted after ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const sent0 = stations.reduce((n, s) => n + s.sent, 0);
  const answers0 = stations.map((s) => s.answerTimes.length);
  const cpu0 = instances.map((i) => processStats(i.pid).cpuSeconds);
  const machine0 = machineTicks();
  const peak = instances.map((i) => processStats(i.pid).rss);
  const sampler = setInterval(
    () => instances.forEach((instance, k) => (peak[k] = Math.max(peak[k]!, processStats(instance.pid).rss))),
    1000,
  );
  const stopSessions = driveSessions(stations);
  // The simulators' own process: a busy event loop here would show as slow answers.
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  const clientCpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  const seconds = (performance.now() - t0) / 1000;
  stopSessions();
  clearInterval(sampler);
  lag.disable();
  const clientCpu = process.cpuUsage(clientCpu0);
  const end = instances.map((i) => processStats(i.pid));
  const machine1 = machineTicks();
  const messages = stations.reduce((n, s) => n + s.sent, 0) - sent0;
  const times = stations.flatMap((s, k) => s.answerTimes.slice(answers0[k])).sort((a, b) => a - b);
  await Promise.all(simulations.map((s) => s.stop()));

  console.log(`\n${label}: ${connected} stations, ${seconds.toFixed(0)} s measured, heartbeat ${HEARTBEAT_SECONDS} s`);
  console.log(`  messages from the stations: ${messages} (${(messages / seconds).toFixed(1)}/s), answered: ${times.length}`);
  console.log(
    `  answer time ms: p50 ${quantile(times, 0.5).toFixed(1)}, p95 ${quantile(times, 0.95).toFixed(1)}, p99 ${quantile(times, 0.99).toFixed(1)}, max ${(times.at(-1) ?? NaN).toFixed(1)}`,
  );
  instances.forEach((_, k) => {
    const cpu = (end[k]!.cpuSeconds - cpu0[k]!) / seconds;
    console.log(`  server ${k + 1}: RSS ${mb(end[k]!.rss)} at the end, peak ${mb(peak[k]!)}; CPU ${(cpu * 100).toFixed(1)} % of one core`);
  });
  const clientShare = (clientCpu.user + clientCpu.system) / 1e6 / seconds;
  console.log(
    `  simulators (this process): CPU ${(clientShare * 100).toFixed(1)} % of one core, event-loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms`,
  );
  const busy = (machine1.busy - machine0.busy) / (machine1.total - machine0.total);
  console.log(
    `  machine: ${(busy * 100).toFixed(1)} % of ${os.cpus().length} cores busy (servers, simulators, database, anything else; load average ${os.loadavg()[0]!.toFixed(1)})`,
  );
}

export async function runOcppStationsBench() {
  const base = benchEnv('', {
    SIMULATED_STATIONS: '0',
    OCPP_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
    OCPP_MAX_STATIONS: String(STATIONS + 100),
    MALLOC_ARENA_MAX: '2',
    NODE_ENV: 'production',
  });
  console.log(`OCPP stations bench: ${STATIONS} stations, ${SECONDS} s (BENCH_OCPP_STATIONS, BENCH_OCPP_SECONDS)`);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cockpit-ocpp-bench-'));
  try {
    const handle = await createDb({ dataDir });
    await handle.migrate();
    const plans = await prepare(handle.db);
    await handle.close();
    const instance = await startInstance({ ...base, DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-static'), DATABASE_URL: '' });
    try {
      await round('One instance, PGlite', [instance], plans);
    } finally {
      await instance.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!postgresUrl) {
    console.log('\nTwo instances on PostgreSQL: skipped (set BENCH_DATABASE_URL, or run under scripts/with-postgres.sh).');
    return;
  }
  const handle = await createDb({ databaseUrl: postgresUrl, dataDir: 'memory://' });
  await handle.migrate();
  const plans = await prepare(handle.db);
  await handle.close();
  const env = { ...base, DATABASE_URL: postgresUrl, DATA_DIR: 'memory://' };
  const instances = [await startInstance(env), await startInstance(env)];
  try {
    await round('Two instances, one PostgreSQL', instances, plans);
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runOcppStationsBench();
