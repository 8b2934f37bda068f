import { sql } from 'drizzle-orm';
import type { RPCClient } from 'ocpp-rpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berlinToday } from '../cockpit/routes';
import { testEnv } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { demoAccounts } from '../seed/seed';
import { startServer, type RunningServer } from '../server';
import { stationClient } from './station-client';

/**
 * The central system over a real WebSocket, with ocpp-rpc's own client as the charge point (strict
 * mode off where a test sends what the schema refuses).
 */

let server: RunningServer;
let token: string;
const clients: RPCClient[] = [];

const rows = async <T>(q: ReturnType<typeof sql>) => ((await server.db.execute(q)) as unknown as { rows: T[] }).rows;

async function station(identity: string, opts: { password?: string; protocols?: string[]; strictMode?: boolean } = {}) {
  const client = stationClient({
    endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
    identity,
    password: opts.password ?? demoStationPassword,
    protocols: opts.protocols ?? ['ocpp1.6'],
    strictMode: opts.strictMode ?? true,
    reconnect: false,
  });
  clients.push(client);
  await client.connect();
  return client;
}

async function api(path: string) {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
}

/** A placed, not removed station of one connector's operator, with an ACTIVE contract's RFID tag of that operator. */
async function fixture() {
  const [row] = await rows<{ cp_id: string; connector_id: string; location_id: string; tag: string; contract_key: string }>(sql`
    select c.cp_id, c.connector_id, c.location_id, r.rfid_tag as tag, k.contract_key
    from connectors c
    join contracts k on k.cpo_id = c.cpo_id and k.contract_status = 'ACTIVE' and k.var_tariff is not null
    join rfid_tags r on r.contract_key = k.contract_key
    where c.connector_number = 1 and c.removed = false and c.location_id is not null
      and not exists (select 1 from connectors o where o.cp_id = c.cp_id and o.removed)
    order by c.connector_id, r.rfid_tag limit 1`);
  return row;
}

beforeAll(async () => {
  server = await startServer(
    testEnv({
      DATA_DIR: 'memory://',
      SEED: 'small',
      PORT: 0,
      DATABASE_URL: process.env.DATABASE_URL,
      OCPP_LIVENESS_CHECK_MS: 200,
      // Small caps, so the test below can show station sockets pass the per-address cap and the silent-socket cut.
      MAX_CONNECTIONS_PER_ADDRESS: 3,
      HEADERS_TIMEOUT_MS: 1000,
      OCPP_MAX_STATIONS: 5,
    }),
    { log: () => {} },
  );
  const res = await fetch(`${server.url}/user-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: demoAccounts.admin.email, password: demoAccounts.admin.password, origin: 'dashboard' }),
  });
  token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close({ force: true })));
  await server?.close();
});

describe('the upgrade', () => {
  it('refuses an unknown station, a wrong password, no password and a missing subprotocol', async () => {
    const { cp_id } = await fixture();
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e: { code?: number }) => e.code,
      );
    expect(await refused(station('NOSUCHSTATION'))).toBe(401);
    expect(await refused(station(cp_id, { password: 'wrong-password' }))).toBe(401);
    expect(await refused(station(cp_id, { password: '' }))).toBe(401);
    expect(await refused(station(cp_id, { protocols: ['ocpp2.0.1'] }))).toBe(400);
    expect(server.centralSystem.isConnected(cp_id)).toBe(false);
    // A plain HTTP request and other paths still work beside it.
    expect((await fetch(`${server.url}/config.json`)).status).toBe(200);
  });
});

describe('wrong station passwords', () => {
  it('block the station and address pair after 5 a minute, before any password is checked; other stations still come in', async () => {
    const { cp_id } = await fixture();
    const [other, guessed] = await rows<{ cp_id: string }>(sql`
      select cp_id from ocpp_stations where password_hash is not null and cp_id <> ${cp_id} order by cp_id limit 2`);
    const outcome = (p: Promise<RPCClient>) =>
      p.then(
        async (c) => {
          await c.close({ force: true });
          return 'accepted';
        },
        (e: { code?: number }) => e.code,
      );
    for (let i = 0; i < 5; i++) expect(await outcome(station(guessed.cp_id, { password: `guess-${i}` }))).toBe(401);
    // Blocked now: even the right password is refused until the block ends.
    expect(await outcome(station(guessed.cp_id))).toBe(429);
    expect(await outcome(station(other.cp_id))).toBe('accepted');
    const [block] = await rows<{ blocked: boolean }>(
      sql`select blocked_until > now() as blocked from throttles where key = ${`ocpp-pair:${guessed.cp_id}|127.0.0.1`}`,
    );
    expect(block?.blocked).toBe(true);
    await server.db.execute(sql`delete from throttles where key like 'ocpp-%'`);
    expect(await outcome(station(guessed.cp_id))).toBe('accepted');
  });
});

describe('connection limits', () => {
  it('lets station sockets past the per-address cap and the silent-socket cut, bounded by OCPP_MAX_STATIONS', async () => {
    const ids = (await rows<{ cp_id: string }>(sql`select cp_id from ocpp_stations order by cp_id limit 6`)).map((r) => r.cp_id);
    // One after another: a handshake still counts against its address until the station is accepted.
    const five: RPCClient[] = [];
    for (const id of ids.slice(0, 5)) five.push(await station(id));
    const sixth = await station(ids[5]).then(
      () => 'accepted',
      (e: { code?: number }) => e.code,
    );
    expect(sixth).toBe(503);
    // Longer than HEADERS_TIMEOUT_MS: an accepted station is no silent HTTP connection.
    await new Promise((r) => setTimeout(r, 1500));
    for (const cp of five) expect(await cp.call('Heartbeat', {})).toHaveProperty('currentTime');
    // HTTP requests from the same address still get through: the stations left the address's count.
    expect((await fetch(`${server.url}/config.json`)).status).toBe(200);
    await Promise.all(five.map((cp) => cp.close()));
    await new Promise((r) => setTimeout(r, 100));
    expect(server.centralSystem.connected()).toEqual([]);
  });
});

describe('messages from the station', () => {
  it('records the boot, the heartbeat and a status change, seen through the API', async () => {
    const { cp_id, connector_id } = await fixture();
    const cp = await station(cp_id);
    const boot = (await cp.call('BootNotification', {
      chargePointVendor: 'Simulated',
      chargePointModel: 'Sim-1',
      chargePointSerialNumber: 'SN-1',
      firmwareVersion: '1.2.3',
    })) as { status: string; interval: number };
    expect(boot).toMatchObject({ status: 'Accepted', interval: 60 });
    const [stationRow] = await rows<{ vendor: string; model: string; firmware_version: string }>(
      sql`select vendor, model, firmware_version from ocpp_stations where cp_id = ${cp_id}`,
    );
    expect(stationRow).toEqual({ vendor: 'Simulated', model: 'Sim-1', firmware_version: '1.2.3' });

    const before = Date.now();
    await cp.call('Heartbeat', {});
    await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' });
    let detail = (await api(`/bff/connectors/${connector_id}`)).body.data;
    expect(detail.connectorStatus).toBe('OCCUPIED_CHARGING');
    expect(Date.parse(detail.lastHeartBeatInterval as string)).toBeGreaterThanOrEqual(before - 1000);

    await cp.call('StatusNotification', { connectorId: 1, status: 'Faulted', errorCode: 'GroundFailure', info: 'RCD tripped' });
    detail = (await api(`/bff/connectors/${connector_id}`)).body.data;
    expect(detail.connectorStatus).toBe('CONNECTED_UNAVAILABLE');
    const [state] = await rows(sql`select ocpp_status, error_code, info from ocpp_connector_states where connector_id = ${connector_id}`);
    expect(state).toEqual({ ocpp_status: 'Faulted', error_code: 'GroundFailure', info: 'RCD tripped' });
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' });
    expect((await api(`/bff/connectors/${connector_id}`)).body.data.connectorStatus).toBe('IDLE');
    expect(await cp.call('DataTransfer', { vendorId: 'com.example' })).toEqual({ status: 'UnknownVendorId' });
  });

  it('authorizes tags by their contract in the station operator’s scope', async () => {
    const { cp_id, tag } = await fixture();
    const cp = await station(cp_id);
    const statusOf = async (idTag: string) =>
      ((await cp.call('Authorize', { idTag })) as { idTagInfo: { status: string } }).idTagInfo.status;
    expect(await statusOf(tag)).toBe('Accepted');
    expect(await statusOf('UNKNOWN-TAG')).toBe('Invalid');
    const [blocked] = await rows<{ tag: string }>(sql`
      update contracts set contract_status = 'BLOCKED' where contract_key = (select contract_key from rfid_tags where rfid_tag = ${tag})
      returning ${tag} as tag`);
    expect(await statusOf(blocked.tag)).toBe('Blocked');
    await server.db.execute(
      sql`update contracts set contract_status = 'EXPIRED' where contract_key = (select contract_key from rfid_tags where rfid_tag = ${tag})`,
    );
    expect(await statusOf(tag)).toBe('Expired');
    await server.db.execute(
      sql`update contracts set contract_status = 'ACTIVE' where contract_key = (select contract_key from rfid_tags where rfid_tag = ${tag})`,
    );
    // A tag of another operator's contract is unknown here.
    const [foreign] = await rows<{ rfid_tag: string }>(sql`
      select r.rfid_tag from rfid_tags r join contracts k on k.contract_key = r.contract_key
      where k.contract_status = 'ACTIVE' and k.cpo_id not in (select cpo_id from connectors where cp_id = ${cp_id}) limit 1`);
    expect(await statusOf(foreign.rfid_tag)).toBe('Invalid');
  });

  it('turns a session from Authorize to StopTransaction into a charging request with energy, cost and the cockpit’s figures', async () => {
    const { cp_id, connector_id, location_id, tag, contract_key } = await fixture();
    const cp = await station(cp_id);
    const today = berlinToday();
    const kpi = async () =>
      (await api(`/bff/kpi/get-graph?graphType=TOTAL_ENERGY&unit=DAYS&startDate=${today}&endDate=${today}&locations=${location_id}`)).body
        .data.kpiInformation as { totalEnergyCharged: number; totalRevenue: number };
    const kpiBefore = await kpi();
    const detailBefore = (await api(`/bff/connectors/${connector_id}`)).body.data;
    const [tariff] = await rows<{ var_tariff: string; fix: string }>(
      sql`select var_tariff, fix_tariff_per_charging_request as fix from contracts where contract_key = ${contract_key}`,
    );

    await cp.call('Authorize', { idTag: tag });
    const start = (await cp.call('StartTransaction', {
      connectorId: 1,
      idTag: tag,
      meterStart: 10_000,
      timestamp: new Date().toISOString(),
    })) as { transactionId: number; idTagInfo: { status: string } };
    expect(start.idTagInfo.status).toBe('Accepted');
    await cp.call('MeterValues', {
      connectorId: 1,
      transactionId: start.transactionId,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: '15.5', unit: 'kWh' }] }],
    });
    const [running] = await rows(
      sql`select status, energy_kwh from charging_requests where transaction_id = ${`OCPP${start.transactionId}`}`,
    );
    expect(running).toEqual({ status: 'charging', energy_kwh: '5.500' });

    await cp.call('StopTransaction', {
      transactionId: start.transactionId,
      meterStop: 22_345,
      timestamp: new Date().toISOString(),
      idTag: tag,
    });
    const [done] = await rows<{ status: string; energy_kwh: string; cost: string; contract_key: string }>(
      sql`select status, energy_kwh, cost, contract_key from charging_requests where transaction_id = ${`OCPP${start.transactionId}`}`,
    );
    const expectedCost = Math.round((12.345 * Number(tariff.var_tariff) + Number(tariff.fix)) * 100) / 100;
    expect(done).toEqual({ status: 'finished', energy_kwh: '12.345', cost: expectedCost.toFixed(2), contract_key });

    const kpiAfter = await kpi();
    expect(kpiAfter.totalEnergyCharged - kpiBefore.totalEnergyCharged).toBeCloseTo(12.345, 3);
    expect(kpiAfter.totalRevenue - kpiBefore.totalRevenue).toBeCloseTo(expectedCost, 2);
    const detailAfter = (await api(`/bff/connectors/${connector_id}`)).body.data;
    expect((detailAfter.totalEnergy as number) - (detailBefore.totalEnergy as number)).toBeCloseTo(12.345, 3);
  });

  it('never gives a transaction id twice', async () => {
    const { cp_id, tag } = await fixture();
    const cp = await station(cp_id);
    const starts = await Promise.all(
      Array.from({ length: 20 }, () =>
        cp.call('StartTransaction', { connectorId: 1, idTag: tag, meterStart: 0, timestamp: new Date().toISOString() }),
      ),
    );
    const ids = starts.map((s) => (s as { transactionId: number }).transactionId);
    expect(new Set(ids).size).toBe(20);
  });
});

describe('messages the schema refuses', () => {
  it('answers a CALLERROR with OCPP 1.6’s codes and keeps the socket up', async () => {
    const { cp_id } = await fixture();
    const cp = await station(cp_id, { strictMode: false });
    const codeOf = (p: Promise<unknown>) =>
      p.then(
        () => 'no error',
        (e: { rpcErrorCode?: string }) => e.rpcErrorCode,
      );
    // chargePointModel missing; then a vendor over its 20 characters; then a number as a string.
    expect(await codeOf(cp.call('BootNotification', { chargePointVendor: 'x' }))).toBe('OccurrenceConstraintViolation');
    expect(await codeOf(cp.call('BootNotification', { chargePointVendor: 'x'.repeat(21), chargePointModel: 'm' }))).toBe(
      'FormationViolation',
    );
    expect(
      await codeOf(cp.call('StartTransaction', { connectorId: '1', idTag: 't', meterStart: 0, timestamp: new Date().toISOString() })),
    ).toBe('TypeConstraintViolation');
    expect(await codeOf(cp.call('NoSuchAction', {}))).toBe('NotImplemented');

    // A frame that is no OCPP message at all: 2.0.1's RpcFrameworkError must not leak into 1.6.
    const answers: string[] = [];
    cp.on('message', (m: { message: Buffer | string; outbound: boolean }) => {
      if (!m.outbound) answers.push(m.message.toString());
    });
    cp.sendRaw('[2, 17, "Heartbeat", {}]');
    cp.sendRaw('not json');
    await new Promise((r) => setTimeout(r, 300));
    const codes = answers.map((a) => (JSON.parse(a) as unknown[])[2]);
    expect(codes).toEqual(['FormationViolation', 'FormationViolation']);

    expect(await cp.call('Heartbeat', {})).toHaveProperty('currentTime');
    expect(server.centralSystem.isConnected(cp_id)).toBe(true);
  });
});

describe('liveness', () => {
  it('makes a station silent for 2.5 heartbeat intervals OFFLINE and brings it back with its next message', async () => {
    const { cp_id, connector_id } = await fixture();
    const cp = await station(cp_id);
    await cp.call('BootNotification', { chargePointVendor: 'Simulated', chargePointModel: 'Sim-1' });
    await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' });
    // One second as this station's interval: OFFLINE after 2.5 s of silence.
    await server.db.execute(sql`update ocpp_stations set heartbeat_interval_seconds = 1 where cp_id = ${cp_id}`);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await api(`/bff/connectors/${connector_id}`)).body.data.connectorStatus).toBe('IDLE');
    await new Promise((r) => setTimeout(r, 1800));
    expect((await api(`/bff/connectors/${connector_id}`)).body.data.connectorStatus).toBe('OFFLINE');
    await cp.call('Heartbeat', {});
    // Back with the next presence flush (OCPP_PRESENCE_FLUSH_MS, 200 ms in tests).
    const end = Date.now() + 1000;
    let status = (await api(`/bff/connectors/${connector_id}`)).body.data.connectorStatus;
    while (status !== 'IDLE' && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await api(`/bff/connectors/${connector_id}`)).body.data.connectorStatus;
    }
    expect(status).toBe('IDLE');
    await server.db.execute(sql`update ocpp_stations set heartbeat_interval_seconds = 60 where cp_id = ${cp_id}`);
  }, 15_000);
});
