import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../../env';
import { demoStationPassword } from '../../seed/ocpp';
import { startServer, type RunningServer } from '../../server';
import { planFromDb } from './plan';
import { planFromSeed } from './seed-plan';
import { skipFrom } from './cli-options';
import { DEFAULT_SIMULATED_STATIONS } from '../../env';
import { startSimulation, type Simulation } from './simulator';
import type { SimulatedStation } from './simulated-station';
import { armReboot } from '../../test/station-reboot';

/** The simulator against the real server: what it reports arrives, and it answers operations as a station does. */

let server: RunningServer;
let simulation: Simulation;
let station: SimulatedStation;

const rows = async <T>(q: ReturnType<typeof sql>) => ((await server.db.execute(q)) as unknown as { rows: T[] }).rows;
const until = async (check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};
type ConfigAnswer = { configurationKey: { key: string; value: string; readonly: boolean }[]; unknownKey?: string[] };
const configOf = async (keys?: string[]) =>
  (await server.centralSystem.call(station.cpId, 'GetConfiguration', keys ? { key: keys } : {})) as ConfigAnswer;

beforeAll(async () => {
  server = await startServer(
    testEnv({ DATA_DIR: 'memory://', SEED: 'small', PORT: 0, DATABASE_URL: process.env.DATABASE_URL, OCPP_HEARTBEAT_SECONDS: 2 }),
    {
      log: () => {},
    },
  );
  const plans = await planFromDb(server.db, 2);
  // Slow random behaviour: the test drives sessions itself.
  simulation = await startSimulation({
    endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
    password: demoStationPassword,
    plans,
    timing: { statusEveryMs: 3_600_000, sessionEveryMs: 3_600_000, sessionLengthMs: 3_600_000, powerW: 11_000 },
  });
  station = simulation.stations[0];
}, 120_000);

afterAll(async () => {
  await simulation?.stop();
  await server?.close();
});

describe('simulated stations', () => {
  it('boot, report their connectors Available and heartbeat at the interval they were given', async () => {
    expect(simulation.stations).toHaveLength(2);
    for (const s of simulation.stations) {
      await until(async () => {
        const [row] = await rows<{ vendor: string | null }>(sql`select vendor from ocpp_stations where cp_id = ${s.cpId}`);
        const statuses = await rows<{ status: string }>(sql`select status from connectors where cp_id = ${s.cpId}`);
        return row.vendor === 'CPO Cockpit' && statuses.every((c) => c.status === 'IDLE');
      });
    }
    const [before] = await rows<{ t: Date }>(sql`select max(last_heartbeat) as t from connectors where cp_id = ${station.cpId}`);
    await new Promise((r) => setTimeout(r, 2300));
    const [after] = await rows<{ t: Date }>(sql`select max(last_heartbeat) as t from connectors where cp_id = ${station.cpId}`);
    expect(new Date(after.t).getTime()).toBeGreaterThan(new Date(before?.t ?? 0).getTime());
  });

  it('lists the standard OCPP 1.6 keys with the values it runs with', async () => {
    const all = await configOf();
    const keys = new Map(all.configurationKey.map((k) => [k.key, k]));
    for (const key of [
      'HeartbeatInterval',
      'MeterValueSampleInterval',
      'NumberOfConnectors',
      'SupportedFeatureProfiles',
      'GetConfigurationMaxKeys',
    ]) {
      expect(keys.has(key), key).toBe(true);
    }
    expect(keys.get('HeartbeatInterval')).toEqual({ key: 'HeartbeatInterval', value: '2', readonly: false });
    expect(keys.get('NumberOfConnectors')).toEqual({ key: 'NumberOfConnectors', value: String(station.connectors), readonly: true });
    expect(await configOf(['HeartbeatInterval', 'NoSuchKey'])).toEqual({
      configurationKey: [{ key: 'HeartbeatInterval', value: '2', readonly: false }],
      unknownKey: ['NoSuchKey'],
    });
  });

  it('changes a key, refuses read-only and malformed values and knows no unknown key', async () => {
    const change = (key: string, value: string) => server.centralSystem.call(station.cpId, 'ChangeConfiguration', { key, value });
    expect(await change('MeterValueSampleInterval', '15')).toEqual({ status: 'Accepted' });
    expect((await configOf(['MeterValueSampleInterval'])).configurationKey[0].value).toBe('15');
    expect(await change('NumberOfConnectors', '9')).toEqual({ status: 'Rejected' });
    expect(await change('MeterValueSampleInterval', 'often')).toEqual({ status: 'Rejected' });
    expect(await change('NoSuchKey', '1')).toEqual({ status: 'NotSupported' });
    expect(await change('WebSocketPingInterval', '20')).toEqual({ status: 'RebootRequired' });
  });

  it('ends a running session when its connector is unlocked', async () => {
    // The plan lists tags of active contracts first.
    const transactionId = await station.runSession(1, station.tags[0]);
    expect(transactionId).toBeTypeOf('number');
    expect(await server.centralSystem.call(station.cpId, 'UnlockConnector', { connectorId: 1 })).toEqual({ status: 'Unlocked' });
    await until(async () => {
      const [t] = await rows<{ stop_reason: string | null }>(
        sql`select stop_reason from ocpp_transactions where transaction_id = ${transactionId!}`,
      );
      return t.stop_reason === 'UnlockCommand';
    });
    const [request] = await rows<{ status: string }>(
      sql`select status from charging_requests where transaction_id = ${`OCPP${transactionId}`}`,
    );
    expect(request.status).toBe('finished');
  });

  it('answers a trigger with the message asked for', async () => {
    await server.db.execute(sql`update ocpp_connector_states set reported_at = '2000-01-01' where connector_id = ${`${station.cpId}_1`}`);
    expect(
      await server.centralSystem.call(station.cpId, 'TriggerMessage', { requestedMessage: 'StatusNotification', connectorId: 1 }),
    ).toEqual({
      status: 'Accepted',
    });
    await until(async () => {
      const [s] = await rows<{ reported_at: Date }>(
        sql`select reported_at from ocpp_connector_states where connector_id = ${`${station.cpId}_1`}`,
      );
      return new Date(s.reported_at).getFullYear() > 2000;
    });
  });

  it('draws the same stations from the seed as the database holds (npm run simulate beside a PGlite server)', async () => {
    const drawn = await planFromSeed('small', 5);
    expect(drawn).toHaveLength(5);
    for (const plan of drawn) {
      const [row] = await rows<{ n: number }>(sql`select count(*)::int as n from connectors where cp_id = ${plan.cpId}`);
      expect(row.n, plan.cpId).toBe(plan.connectors);
      expect(plan.tags.length).toBeGreaterThan(0);
      const [tag] = await rows<{ n: number }>(sql`select count(*)::int as n from rfid_tags where rfid_tag = ${plan.tags[0]}`);
      expect(tag.n).toBe(1);
    }
  });

  it('npm run simulate leaves out the stations npm start simulates, the same from the seed as from the database', async () => {
    const skip = skipFrom([], {});
    expect(skip).toBe(DEFAULT_SIMULATED_STATIONS);
    const serverOwn = (await planFromDb(server.db, DEFAULT_SIMULATED_STATIONS)).map((p) => p.cpId);
    const fromSeed = (await planFromSeed('small', 10, skip)).map((p) => p.cpId);
    const fromDb = (await planFromDb(server.db, 10, undefined, skip)).map((p) => p.cpId);
    expect(serverOwn).toHaveLength(DEFAULT_SIMULATED_STATIONS);
    expect(fromSeed).toHaveLength(10);
    expect(fromSeed).toEqual(fromDb);
    expect(fromSeed.filter((cpId) => serverOwn.includes(cpId))).toEqual([]);
    // The server's first ones follow on from where it stops.
    expect((await planFromSeed('small', DEFAULT_SIMULATED_STATIONS + 1)).map((p) => p.cpId)).toEqual([...serverOwn, fromSeed[0]]);
    expect(skipFrom(['--skip', '0'], { SIMULATED_STATIONS: '5' })).toBe(0);
    expect(skipFrom([], { SIMULATED_STATIONS: '12' })).toBe(12);
    expect(() => skipFrom(['--skip', 'some'], {})).toThrow(/--skip/);
    expect(() => skipFrom(['--skp', '1'], {})).toThrow();
  });

  it('reboots on Reset with a new BootNotification', async () => {
    const bootedAt = async () =>
      (await rows<{ booted_at: Date }>(sql`select booted_at from ocpp_stations where cp_id = ${station.cpId}`))[0].booted_at;
    const before = new Date(await bootedAt()).getTime();
    const rebooted = armReboot(server.centralSystem, station);
    expect(await server.centralSystem.call(station.cpId, 'Reset', { type: 'Soft' })).toEqual({ status: 'Accepted' });
    await rebooted();
    // The boot over the new socket is what the station detail shows.
    expect(new Date(await bootedAt()).getTime()).toBeGreaterThan(before);
  });
});
