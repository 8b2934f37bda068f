import { spawn, type ChildProcess } from 'node:child_process';
import { sql } from 'drizzle-orm';
import type { RPCClient } from 'ocpp-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { demoAccounts } from '../seed/seed';
import { startServer, type RunningServer } from '../server';
import { createSeededTestDatabaseUrl, testDatabaseUrl } from '../test/databases';
import { stationClient } from './station-client';

/**
 * A station's presence is a lease: two instances on one PostgreSQL, the station on the first, which
 * is killed (SIGKILL: no close handler, no cleanup). Within two heartbeat intervals (2 s here, as
 * the station was told at boot) the second instance says not connected and the station list OFFLINE.
 */
const HEARTBEAT_SECONDS = 2;
const presenceEnv = { OCPP_HEARTBEAT_SECONDS: HEARTBEAT_SECONDS, OCPP_LIVENESS_CHECK_MS: 200, OCPP_PRESENCE_FLUSH_MS: 200 };

/** The first instance as a process of its own (npm run serve's entry), so it can die for real. */
async function startInstanceProcess(databaseUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED: 'none',
    SIMULATED_STATIONS: '0',
    DATA_DIR: 'memory://',
    STATIC_DIR: './.no-static-dir',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ...Object.fromEntries(Object.entries(presenceEnv).map(([k, v]) => [k, String(v)])),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`instance did not start: ${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`instance exited (${code}): ${out}`)));
  });
  return { child, url };
}

describe.runIf(testDatabaseUrl())('the presence lease (two instances on one PostgreSQL)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let first: { child: ChildProcess; url: string };
  let second: RunningServer;
  let cp: RPCClient;
  let token: string;

  beforeAll(async () => {
    database = await createSeededTestDatabaseUrl(testDatabaseUrl()!);
    [first, second] = await Promise.all([
      startInstanceProcess(database.url),
      startServer(testEnv({ DATA_DIR: 'memory://', SEED: 'none', PORT: 0, DATABASE_URL: database.url, ...presenceEnv }), {
        log: () => {},
      }),
    ]);
    const res = await fetch(`${second.url}/user-service/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: demoAccounts.admin.email, password: demoAccounts.admin.password, origin: 'dashboard' }),
    });
    token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
  }, 120_000);

  afterAll(async () => {
    await cp?.close({ force: true });
    first?.child.kill('SIGKILL');
    await second?.close();
    await database?.drop();
  });

  const api = async <T>(path: string) => {
    const res = await fetch(`${second.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as { data: T }).data;
  };

  it('shows the station of a killed instance offline and not connected everywhere within two heartbeat intervals', async () => {
    const [station] = (
      (await second.db.execute(sql`
        select c.cp_id, c.connector_id from connectors c join ocpp_stations s on s.cp_id = c.cp_id
        where c.connector_number = 1 and c.removed = false and s.password_hash is not null
        order by c.cp_id limit 1`)) as unknown as { rows: { cp_id: string; connector_id: string }[] }
    ).rows;
    cp = stationClient({
      endpoint: `${first.url.replace('http', 'ws')}/ocpp`,
      identity: station.cp_id,
      password: demoStationPassword,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
    });
    await cp.connect();
    const boot = (await cp.call('BootNotification', { chargePointVendor: 'Simulated', chargePointModel: 'Sim-1' })) as { interval: number };
    expect(boot.interval).toBe(HEARTBEAT_SECONDS);
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' });

    const connected = async () => (await api<{ connected: boolean }>(`/bff/connectors/${station.connector_id}/ocpp`)).connected;
    const listed = async () =>
      (
        await api<{ response: { connectorId: string; connectorStatus: string }[] }>(
          `/bff/connectors/get-by-cpo?cpId=${encodeURIComponent(station.cp_id)}&page=0&size=50`,
        )
      ).response.find((r) => r.connectorId === station.connector_id)?.connectorStatus;
    // Held by the first instance, seen by the second, for longer than a lease: the holder renews it.
    await new Promise((r) => setTimeout(r, HEARTBEAT_SECONDS * 1500));
    await cp.call('Heartbeat', {});
    expect(await connected()).toBe(true);
    expect(await listed()).toBe('IDLE');

    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    let state = { connected: true, status: 'IDLE' as string | undefined };
    while (Date.now() - killedAt < HEARTBEAT_SECONDS * 4000) {
      state = { connected: await connected(), status: await listed() };
      if (!state.connected && state.status === 'OFFLINE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const took = Date.now() - killedAt;
    expect(state).toEqual({ connected: false, status: 'OFFLINE' });
    expect(took).toBeLessThan(HEARTBEAT_SECONDS * 2000);
  }, 60_000);
});
