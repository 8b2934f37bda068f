import { sql } from 'drizzle-orm';
import type { RPCClient } from 'ocpp-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorOperationTypes, type ConnectorOperationType } from '../../../contract/ocpp';
import { testEnv } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { demoAccounts } from '../seed/seed';
import { startServer, type RunningServer } from '../server';
import { planFromDb } from './simulator/plan';
import { startSimulation, type Simulation } from './simulator/simulator';
import { stationClient } from './station-client';
import { openEvents } from '../test/sse-reader';
import { armReboot } from '../test/station-reboot';

/** Operations from the dashboard's HTTP API to simulated stations over a real WebSocket, and their record. */

const TIMEOUT_MS = 1500;
let server: RunningServer;
let simulation: Simulation;
const tokens: Record<'admin' | 'operator', string> = { admin: '', operator: '' };
const extra: RPCClient[] = [];

const rows = async <T>(q: ReturnType<typeof sql>) => ((await server.db.execute(q)) as unknown as { rows: T[] }).rows;
const until = async (check: () => Promise<boolean>, ms = 8000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not met in time');
};

async function http(method: string, path: string, who: 'admin' | 'operator', body?: unknown) {
  const res = await fetch(`${server.url}/bff${path}`, {
    method,
    headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary answers
  return { status: res.status, body: (await res.json()) as any };
}

const operate = (who: 'admin' | 'operator', cpId: string, type: ConnectorOperationType, extraFields: Record<string, string> = {}) =>
  http('POST', '/ocpp-client/change-configuration', who, { connectorOperationType: type, cpId, connectorId: `${cpId}_1`, ...extraFields });

async function login(account: 'admin' | 'operator') {
  const res = await fetch(`${server.url}/user-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: demoAccounts[account].email, password: demoAccounts[account].password, origin: 'dashboard' }),
  });
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

/** The first placed station of the operator account's scope, and one outside it. */
async function stations() {
  const own = (await http('GET', '/connectors/get-by-cpo?page=0&size=250', 'operator')).body.data.response as { cpId: string }[];
  const ownIds = [...new Set(own.map((r) => r.cpId))];
  const plans = await planFromDb(server.db, 500);
  const mine = plans.find((p) => ownIds.includes(p.cpId))!;
  const other = plans.find((p) => !ownIds.includes(p.cpId))!;
  return { mine, other };
}

let adminStation: string;
let operatorStation: string;

beforeAll(async () => {
  server = await startServer(
    testEnv({
      DATA_DIR: 'memory://',
      SEED: 'small',
      PORT: 0,
      DATABASE_URL: process.env.DATABASE_URL,
      OCPP_CALL_TIMEOUT_MS: TIMEOUT_MS,
      OCPP_LIVE_STREAM_SECONDS: 60,
    }),
    { log: () => {} },
  );
  tokens.admin = await login('admin');
  tokens.operator = await login('operator');
  const { mine, other } = await stations();
  simulation = await startSimulation({
    endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
    password: demoStationPassword,
    plans: [other, mine],
    timing: { statusEveryMs: 3_600_000, sessionEveryMs: 3_600_000, sessionLengthMs: 3_600_000, powerW: 11_000 },
  });
  [adminStation, operatorStation] = [other.cpId, mine.cpId];
  for (const cpId of [adminStation, operatorStation]) {
    await until(
      async () =>
        (await rows<{ status: string }>(sql`select status from connectors where connector_id = ${`${cpId}_1`}`))[0].status === 'IDLE',
    );
  }
}, 120_000);

afterAll(async () => {
  await Promise.all(extra.map((c) => c.close({ force: true })));
  await simulation?.stop();
  await server?.close();
});

describe('POST /bff/ocpp-client/change-configuration', () => {
  it('brings each of the ten operation types to the station and answers what it said', async () => {
    const answers: Partial<Record<ConnectorOperationType, unknown>> = {};
    const ask = async (type: ConnectorOperationType, fields: Record<string, string> = {}) => {
      const res = await operate('admin', adminStation, type, fields);
      expect(res.status, `${type}: ${JSON.stringify(res.body)}`).toBe(200);
      answers[type] = res.body.data;
      return res.body.data;
    };
    expect(await ask('CHANGE_CONFIGURATION', { key: 'MeterValueSampleInterval', value: '20' })).toMatchObject({
      status: 'accepted',
      stationStatus: 'Accepted',
    });
    expect(await ask('GET_CONFIGURATION', { key: 'MeterValueSampleInterval, NoSuchKey' })).toMatchObject({
      status: 'accepted',
      configuration: [{ key: 'MeterValueSampleInterval', value: '20', readonly: false }],
      unknownKeys: ['NoSuchKey'],
    });
    expect(await ask('CHANGE_CONFIGURATION', { key: 'NumberOfConnectors', value: '7' })).toMatchObject({
      status: 'rejected',
      stationStatus: 'Rejected',
    });
    expect(await ask('CONNECTOR_UNLOCK')).toMatchObject({ status: 'accepted', stationStatus: 'Unlocked' });
    expect(await ask('GET_DIAGNOSTICS', { value: 'ftp://diagnostics.example/upload' })).toMatchObject({
      status: 'accepted',
      stationStatus: null,
    });
    for (const trigger of ['TRIGGER_STATUS_NOTIFICATION', 'TRIGGER_METER_VALUE', 'TRIGGER_BOOT_NOTIFICATION'] as const) {
      expect(await ask(trigger)).toMatchObject({ status: 'accepted', stationStatus: 'Accepted' });
    }
    expect(await ask('TRIGGER_CLEAR_CHARGING_PROFILE')).toMatchObject({ status: 'rejected', stationStatus: 'Unknown' });
    const station = simulation.stations.find((s) => s.cpId === adminStation)!;
    for (const reset of ['SOFT_RESET', 'HARD_RESET'] as const) {
      // Armed before the reset: only a boot over the reboot's new socket ends the wait, not the triggered boot above.
      const rebooted = armReboot(server.centralSystem, station);
      expect(await ask(reset)).toMatchObject({ status: 'accepted', stationStatus: 'Accepted' });
      await rebooted();
    }
    expect(Object.keys(answers).sort()).toEqual([...connectorOperationTypes].sort());

    // Every operation is in the station's history with who asked and what the station answered.
    const detail = (await http('GET', `/connectors/${adminStation}_1/ocpp`, 'admin')).body.data;
    expect(detail.operations).toHaveLength(11);
    expect(detail.operations[0]).toMatchObject({
      connectorOperationType: 'HARD_RESET',
      requestedBy: demoAccounts.admin.email,
      status: 'accepted',
    });
    expect(detail.configuration).toContainEqual({ key: 'MeterValueSampleInterval', value: '20', readonly: false });
    expect(detail.boot).toMatchObject({ vendor: 'CPO Cockpit', model: 'Simulator' });
    expect(detail.connected).toBe(true);
  }, 60_000);

  it('gives users who are not admins the three operations of spec 2 §2 only', async () => {
    expect((await operate('operator', operatorStation, 'TRIGGER_STATUS_NOTIFICATION')).body.data).toMatchObject({ status: 'accepted' });
    expect((await operate('operator', operatorStation, 'CONNECTOR_UNLOCK')).body.data).toMatchObject({ stationStatus: 'Unlocked' });
    const refused = await operate('operator', operatorStation, 'CHANGE_CONFIGURATION', { key: 'HeartbeatInterval', value: '30' });
    expect(refused).toMatchObject({ status: 403, body: { errorCodeResponse: 'FORBIDDEN' } });
    // Another operator's station does not exist for this caller.
    expect((await operate('operator', adminStation, 'TRIGGER_STATUS_NOTIFICATION')).body.errorCodeResponse).toBe('CONNECTOR_NOT_FOUND');
  });

  it('answers STATION_NOT_CONNECTED at once for a station without a socket, and STATION_UNAVAILABLE when it is OFFLINE or INACTIVE', async () => {
    const [idle] = await rows<{ cp_id: string }>(sql`
      select cp_id from connectors where connector_number = 1 and status = 'IDLE' and removed = false
        and cp_id not in (${adminStation}, ${operatorStation}) order by cp_id limit 1`);
    const t0 = Date.now();
    const res = await operate('admin', idle.cp_id, 'TRIGGER_STATUS_NOTIFICATION');
    expect(res).toMatchObject({ status: 409, body: { errorCodeResponse: 'STATION_NOT_CONNECTED' } });
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS);
    const [record] = await rows(sql`select status, requested_by from ocpp_operations where id = ${res.body.errorDetail.operationId}`);
    expect(record).toEqual({ status: 'offline', requested_by: demoAccounts.admin.email });
    const [offline] = await rows<{ cp_id: string }>(
      sql`select cp_id from connectors where connector_number = 1 and status = 'OFFLINE' and removed = false limit 1`,
    );
    expect((await operate('admin', offline.cp_id, 'SOFT_RESET')).body.errorCodeResponse).toBe('STATION_UNAVAILABLE');
  });

  it('answers STATION_NO_ANSWER when the station stays silent, within the timeout', async () => {
    const [idle] = await rows<{ cp_id: string }>(sql`
      select cp_id from connectors where connector_number = 1 and status = 'IDLE' and removed = false
        and cp_id not in (${adminStation}, ${operatorStation}) order by cp_id desc limit 1`);
    const silent = stationClient({
      endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
      identity: idle.cp_id,
      password: demoStationPassword,
      reconnect: false,
    });
    extra.push(silent);
    silent.handle('TriggerMessage', () => new Promise(() => {}));
    await silent.connect();
    const t0 = Date.now();
    const res = await operate('admin', idle.cp_id, 'TRIGGER_STATUS_NOTIFICATION');
    expect(res).toMatchObject({ status: 409, body: { errorCodeResponse: 'STATION_NO_ANSWER' } });
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 1000);
    const [record] = await rows(sql`select status from ocpp_operations where id = ${res.body.errorDetail.operationId}`);
    expect(record).toEqual({ status: 'timed_out' });
  });

  it('refuses a configuration change without key or value before anything is sent', async () => {
    const [{ n }] = await rows<{ n: number }>(sql`select count(*)::int as n from ocpp_operations`);
    const res = await operate('admin', adminStation, 'CHANGE_CONFIGURATION', { key: 'HeartbeatInterval' });
    expect(res).toMatchObject({ status: 400, body: { errorCodeResponse: 'VALIDATION_ERROR' } });
    expect((await operate('admin', adminStation, 'GET_CONFIGURATION')).status).toBe(400);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from ocpp_operations`))[0].n).toBe(n);
  });
});

describe('PUT /bff/ocpp-client/change-availability', () => {
  it('reaches the connected station as ChangeAvailability, recorded, and the station reports the status back', async () => {
    const station = simulation.stations.find((s) => s.cpId === operatorStation)!;
    const set = (connectorStatus: string) =>
      http('PUT', '/ocpp-client/change-availability', 'operator', {
        changeAvailabilityRequest: [{ connectorId: `${operatorStation}_1`, connectorStatus }],
      });
    expect((await set('CONNECTED_UNAVAILABLE')).status).toBe(200);
    // The answer waited for the station's: the history the dashboard reloads already holds it.
    const history = (await http('GET', `/connectors/${operatorStation}_1/ocpp`, 'operator')).body.data.operations;
    expect(history[0]).toMatchObject({
      connectorOperationType: 'CHANGE_AVAILABILITY',
      requestedBy: demoAccounts.operator.email,
      status: 'accepted',
      stationStatus: 'Accepted',
    });
    const [op] = await rows(sql`
      select action, params, status, requested_by from ocpp_operations where cp_id = ${operatorStation} and action = 'ChangeAvailability' order by id desc limit 1`);
    expect(op).toEqual({
      action: 'ChangeAvailability',
      params: { connectorId: 1, type: 'Inoperative' },
      status: 'accepted',
      requested_by: demoAccounts.operator.email,
    });
    await until(async () => station.connectorStatus(1) === 'Unavailable');
    expect((await set('IDLE')).status).toBe(200);
    await until(async () => station.connectorStatus(1) === 'Available');
    await until(
      async () =>
        (await rows<{ status: string }>(sql`select status from connectors where connector_id = ${`${operatorStation}_1`}`))[0].status ===
        'IDLE',
    );
  });
});

describe('PUT /bff/ocpp-client/change-availability beside stations that do not answer', () => {
  const idleStations = () =>
    rows<{ cp_id: string }>(sql`
      select cp_id from connectors where connector_number = 1 and status = 'IDLE' and removed = false
        and cp_id not in (${adminStation}, ${operatorStation}) order by cp_id desc limit 3`);
  const setStatus = (cpId: string, connectorStatus: string) =>
    http('PUT', '/ocpp-client/change-availability', 'admin', {
      changeAvailabilityRequest: [{ connectorId: `${cpId}_1`, connectorStatus }],
    });
  const availabilityOps = (cpId: string) =>
    rows<{ status: string }>(sql`select status from ocpp_operations where cp_id = ${cpId} and action = 'ChangeAvailability' order by id`);

  it('waits for a slow station’s answer, and changes the status of a silent one within the timeout, recording it as timed out', async () => {
    const [, station] = await idleStations();
    const client = stationClient({
      endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
      identity: station.cp_id,
      password: demoStationPassword,
      reconnect: false,
    });
    extra.push(client);
    let answerAfterMs: number | null = 400;
    client.handle('ChangeAvailability', () =>
      answerAfterMs === null ? new Promise(() => {}) : new Promise((r) => setTimeout(() => r({ status: 'Accepted' }), answerAfterMs!)),
    );
    await client.connect();
    await until(
      async () =>
        (await rows<{ i: string | null }>(sql`select connected_instance as i from ocpp_stations where cp_id = ${station.cp_id}`))[0].i !==
        null,
    );
    // Slow: the answer comes after the station's, and the history already holds it.
    expect((await setStatus(station.cp_id, 'CONNECTED_UNAVAILABLE')).status).toBe(200);
    expect(await availabilityOps(station.cp_id)).toEqual([{ status: 'accepted' }]);

    // Silent: the status change stands, answered within the timeout; the call ends as timed out.
    answerAfterMs = null;
    const t0 = Date.now();
    const res = await setStatus(station.cp_id, 'IDLE');
    expect(res.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS + 1000);
    const [connector] = await rows(sql`select status from connectors where connector_id = ${`${station.cp_id}_1`}`);
    expect(connector).toEqual({ status: 'IDLE' });
    await until(async () => (await availabilityOps(station.cp_id))[1]?.status === 'timed_out', TIMEOUT_MS + 3000);
    await client.close({ force: true });
  });

  it('changes the status of a station without a socket at once and sends it nothing', async () => {
    const [, , offline] = await idleStations();
    expect(server.centralSystem.isConnected(offline.cp_id)).toBe(false);
    const t0 = Date.now();
    expect((await setStatus(offline.cp_id, 'CONNECTED_UNAVAILABLE')).status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(TIMEOUT_MS);
    expect(await availabilityOps(offline.cp_id)).toEqual([]);
    expect((await setStatus(offline.cp_id, 'IDLE')).status).toBe(200);
  });
});

describe('GET /bff/ocpp/live', () => {
  it('tells the caller within a second which of its stations changed, and nothing of other operators’ stations', async () => {
    const live = await openEvents(`${server.url}/bff/ocpp/live`, tokens.operator);
    expect(live.status).toBe(200);
    expect(live.contentType).toMatch(/^text\/event-stream/);
    const mine = simulation.stations.find((s) => s.cpId === operatorStation)!;
    const other = simulation.stations.find((s) => s.cpId === adminStation)!;
    const t0 = Date.now();
    await other.report(2, 'Preparing');
    await mine.report(2, 'Preparing');
    await until(async () => live.events.some((e) => e.event === 'station'), 1000);
    const stationEvents = live.events.filter((e) => e.event === 'station');
    expect(stationEvents.map((e) => JSON.parse(e.data))).toEqual([{ cpId: operatorStation }]);
    expect(stationEvents[0].at - t0).toBeLessThan(1000);
    await new Promise((r) => setTimeout(r, 400));
    expect(live.events.filter((e) => e.event === 'station' && e.data.includes(adminStation))).toEqual([]);
    await mine.report(2, 'Available');
    await other.report(2, 'Available');
    await live.close();
  });
});

describe('POST /bff/connectors/{id}/station-password', () => {
  it('gives the admin a new password once; the old one no longer connects, the new one does', async () => {
    const [idle] = await rows<{ cp_id: string }>(sql`
      select cp_id from connectors where connector_number = 1 and removed = false
        and cp_id not in (${adminStation}, ${operatorStation}) order by cp_id limit 1 offset 3`);
    const res = await http('POST', `/connectors/${idle.cp_id}_1/station-password`, 'admin');
    expect(res.status).toBe(200);
    const { password } = res.body.data as { password: string };
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const connect = (pw: string) => {
      const client = stationClient({
        endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
        identity: idle.cp_id,
        password: pw,
        reconnect: false,
      });
      extra.push(client);
      return client.connect().then(
        () => 'accepted',
        (e: { code?: number }) => e.code,
      );
    };
    expect(await connect(demoStationPassword)).toBe(401);
    expect(await connect(password)).toBe('accepted');
    const [stored] = await rows<{ password_hash: string }>(sql`select password_hash from ocpp_stations where cp_id = ${idle.cp_id}`);
    expect(stored.password_hash).toMatch(/^sha256\$/);
    expect(stored.password_hash).not.toContain(password);
    expect((await http('POST', `/connectors/${operatorStation}_1/station-password`, 'operator')).status).toBe(403);
  });
});
