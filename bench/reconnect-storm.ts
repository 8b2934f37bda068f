/**
 * `BENCH_ONLY=storm npm run bench`: a reconnect storm (issue 34). BENCH_STORM_STATIONS (default
 * 300) OCPP stations (ocpp-rpc's client, from 50 loopback addresses) open their sockets at once and
 * boot; a station told 503 or 429 comes back after its Retry-After plus up to half a second. Three
 * rounds on one server (PGlite, in this process): the demo's stations after a restart (one
 * password hash shared by all, the server has checked none yet); stations with their own passwords
 * after a restart (one scrypt each); the same stations again after a network blip (their passwords
 * were just checked). Prints the time until all are open and booted, the 503s, and the p99 and max
 * of another tenant's list (the partner's `/bff/cpos`, read one after another from this process)
 * meanwhile. Never part of the tests.
 */
import { asc, eq } from 'drizzle-orm';
import { RPCClient } from 'ocpp-rpc';
import { hashPassword, hashStationPassword } from '../server/src/auth/passwords';
import { loadAuthUser, scopeFor } from '../server/src/auth/scope';
import { dashboardUsers } from '../server/src/db/schema/auth';
import { locations, wallboxModels } from '../server/src/db/schema/locations';
import { ocppStations } from '../server/src/db/schema/ocpp';
import { connectors } from '../server/src/db/schema/stations';
import { loadEnv } from '../server/src/env';
import { demoStationPassword } from '../server/src/seed/ocpp';
import { demoAccounts } from '../server/src/seed/seed';
import { startServer, type RunningServer } from '../server/src/server';
import { newStationRows } from '../server/src/stations/import/new-stations';
import { benchEnv, signIn } from './bench-kit';

const STATIONS = Number(process.env.BENCH_STORM_STATIONS ?? 300);

interface Station {
  cpId: string;
  password: string;
}

async function addStations(server: RunningServer, prefix: string, passwords: (i: number) => Promise<string>): Promise<Station[]> {
  const db = server.db;
  const [op] = await db.select({ id: dashboardUsers.id }).from(dashboardUsers).where(eq(dashboardUsers.email, demoAccounts.operator.email));
  const scope = (await scopeFor(db, (await loadAuthUser(db, op!.id))!)).operatorIds as string[];
  const [location] = await db
    .select({ id: locations.locationId, cpoId: locations.cpoId })
    .from(locations)
    .where(eq(locations.cpoId, scope[0]!))
    .orderBy(asc(locations.locationId))
    .limit(1);
  const [model] = await db.select({ name: wallboxModels.name }).from(wallboxModels).limit(1);
  const stations: Station[] = [];
  for (let i = 0; i < STATIONS; i++) stations.push({ cpId: `${prefix}${String(i).padStart(5, '0')}`, password: await passwords(i) });
  const rows = newStationRows(
    stations.map((s) => ({ cpId: s.cpId, cpoId: location!.cpoId, locationId: location!.id, wallboxModel: model!.name, connectorCount: 1 })),
  ).map((r) => ({ ...r, status: 'IDLE' as const }));
  await db.insert(connectors).values(rows);
  return stations;
}

async function connect(url: string, s: Station, n: number, refusals: number[]): Promise<RPCClient> {
  for (;;) {
    const c = new RPCClient({
      endpoint: `${url.replace('http', 'ws')}/ocpp`,
      identity: s.cpId,
      password: s.password,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
      wsOpts: { localAddress: `127.0.0.${2 + (n % 50)}` },
    } as unknown as ConstructorParameters<typeof RPCClient>[0]);
    try {
      await c.connect();
      await c.call('BootNotification', { chargePointVendor: 'Bench', chargePointModel: 'Storm' });
      return c;
    } catch (err) {
      const e = err as { code?: number; response?: { headers: Record<string, string | undefined> } };
      const retryAfter = Number(e.response?.headers['retry-after']);
      if ((e.code !== 503 && e.code !== 429) || !(retryAfter >= 1)) throw err;
      refusals.push(e.code);
      await new Promise((r) => setTimeout(r, retryAfter * 1000 + Math.random() * 500));
    }
  }
}

async function storm(label: string, server: RunningServer, partner: string, stations: Station[]): Promise<RPCClient[]> {
  const waits: number[] = [];
  let done = false;
  const reading = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/bff/cpos`, { headers: { authorization: `Bearer ${partner}` } });
      await res.arrayBuffer();
      waits.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const refusals: number[] = [];
  const started = performance.now();
  const clients = await Promise.all(stations.map((s, n) => connect(server.url, s, n, refusals))).finally(() => (done = true));
  const seconds = (performance.now() - started) / 1000;
  await reading;
  const sorted = waits.sort((a, b) => a - b);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? NaN;
  console.log(
    `  ${label}: ${stations.length} open and booted in ${seconds.toFixed(1)} s, ${refusals.filter((c) => c === 503).length} × 503; ` +
      `another tenant's list p99 ${p99.toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (${sorted.length} reads)`,
  );
  return clients;
}

export async function runReconnectStormBench() {
  console.log(`\nReconnect storm: ${STATIONS} stations at once (PGlite)`);
  const server = await startServer(loadEnv(benchEnv('memory://', { DATABASE_URL: '', OCPP_MAX_STATIONS: String(STATIONS * 3) })), {
    log: () => {},
  });
  try {
    const [seeded] = await server.db.select({ hash: ocppStations.passwordHash }).from(ocppStations).limit(1);
    const demo = await addStations(server, 'STORMD', async () => demoStationPassword);
    await server.db.insert(ocppStations).values(demo.map((s) => ({ cpId: s.cpId, passwordHash: seeded!.hash, passwordSetAt: new Date() })));
    const ownPassword = async (i: number) => `own-password-${i}-${Math.random().toString(36).slice(2)}`;
    const own = await addStations(server, 'STORMO', ownPassword);
    await server.db
      .insert(ocppStations)
      .values(own.map((s) => ({ cpId: s.cpId, passwordHash: hashStationPassword(s.password), passwordSetAt: new Date() })));
    const older = await addStations(server, 'STORMS', ownPassword);
    for (const s of older)
      await server.db
        .insert(ocppStations)
        .values({ cpId: s.cpId, passwordHash: await hashPassword(s.password), passwordSetAt: new Date() });
    const partner = (await signIn(server.url, 'partner')).access_token;
    await storm('restart, the demo password (one hash)', server, partner, demo);
    const first = await storm('restart, own passwords (station hashes)', server, partner, own);
    await Promise.all(first.map((c) => c.close({ force: true })));
    const legacy = await storm('restart, own passwords with older scrypt hashes (one scrypt each)', server, partner, older);
    await Promise.all(legacy.map((c) => c.close({ force: true })));
    await new Promise((r) => setTimeout(r, 500));
    await storm('network blip, own passwords just checked', server, partner, older);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runReconnectStormBench();
