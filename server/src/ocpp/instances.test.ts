import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { demoAccounts } from '../seed/seed';
import { startServer, type RunningServer } from '../server';
import { createSeededTestDatabaseUrl, testDatabaseUrl } from '../test/databases';
import { planFromDb } from './simulator/plan';
import { startSimulation, type Simulation } from './simulator/simulator';
import { openEvents } from '../test/sse-reader';

/**
 * Two instances on one PostgreSQL (scripts/with-postgres.sh sets TEST_DATABASE_URL): the station's
 * socket is on the first, the operation is asked on the second and reaches it through the database.
 */
describe.runIf(testDatabaseUrl())('two instances on one PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let a: RunningServer;
  let b: RunningServer;
  let simulation: Simulation;
  let token: string;
  let cpId: string;

  beforeAll(async () => {
    database = await createSeededTestDatabaseUrl(testDatabaseUrl()!);
    const env = () =>
      testEnv({
        DATA_DIR: 'memory://',
        SEED: 'none',
        PORT: 0,
        DATABASE_URL: database.url,
        OCPP_CALL_TIMEOUT_MS: 3000,
        OCPP_LIVE_STREAM_SECONDS: 30,
      });
    a = await startServer(env(), { log: () => {} });
    b = await startServer(env(), { log: () => {} });
    const [plan] = await planFromDb(a.db, 1);
    cpId = plan.cpId;
    simulation = await startSimulation({
      endpoint: `${a.url.replace('http', 'ws')}/ocpp`,
      password: demoStationPassword,
      plans: [plan],
      timing: { statusEveryMs: 3_600_000, sessionEveryMs: 3_600_000, sessionLengthMs: 3_600_000, powerW: 11_000 },
    });
    const res = await fetch(`${b.url}/user-service/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: demoAccounts.admin.email, password: demoAccounts.admin.password, origin: 'dashboard' }),
    });
    token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
    const end = Date.now() + 10_000;
    while (Date.now() < end) {
      const rows = (
        (await b.db.execute(sql`select status from connectors where connector_id = ${`${cpId}_1`}`)) as unknown as {
          rows: { status: string }[];
        }
      ).rows;
      if (rows[0].status === 'IDLE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 180_000);

  afterAll(async () => {
    await simulation?.stop();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const operate = (server: RunningServer, body: Record<string, string>) =>
    fetch(`${server.url}/bff/ocpp-client/change-configuration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ cpId, connectorId: `${cpId}_1`, ...body }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: Record<string, unknown>; errorCodeResponse?: string } }));

  it('sends an operation asked on the instance without the socket to the station and answers what it said', async () => {
    expect(a.centralSystem.isConnected(cpId)).toBe(true);
    expect(b.centralSystem.isConnected(cpId)).toBe(false);
    const change = await operate(b, { connectorOperationType: 'CHANGE_CONFIGURATION', key: 'MeterValueSampleInterval', value: '25' });
    expect(change).toMatchObject({ status: 200, body: { data: { status: 'accepted', stationStatus: 'Accepted' } } });
    const get = await operate(b, { connectorOperationType: 'GET_CONFIGURATION', key: 'MeterValueSampleInterval' });
    expect(get.body.data?.configuration).toEqual([{ key: 'MeterValueSampleInterval', value: '25', readonly: false }]);
    const [record] = (
      (await b.db.execute(
        sql`select status, picked_by from ocpp_operations where cp_id = ${cpId} order by id desc limit 1`,
      )) as unknown as {
        rows: { status: string; picked_by: string }[];
      }
    ).rows;
    expect(record).toEqual({ status: 'accepted', picked_by: a.centralSystem.instanceId });
    // Live status of a station connected to the first instance reaches screens open on the second.
    const live = await openEvents(`${b.url}/bff/ocpp/live`, token);
    await simulation.stations[0].report(1, 'Preparing');
    const end = Date.now() + 1000;
    while (!live.events.some((e) => e.event === 'station') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(live.events.filter((e) => e.event === 'station').map((e) => JSON.parse(e.data))).toEqual([{ cpId }]);
    await live.close();

    // Unknown to both instances: refused after the pick-up wait, not after the call timeout.
    await simulation.stop();
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    const gone = await operate(b, { connectorOperationType: 'TRIGGER_STATUS_NOTIFICATION' });
    expect(gone).toMatchObject({ status: 409, body: { errorCodeResponse: 'STATION_NOT_CONNECTED' } });
    expect(Date.now() - t0).toBeLessThan(3000);
  }, 60_000);

  it('never gives out a transaction id twice when sessions start through both instances at once', async () => {
    // Stations other than the first test's, half of them connected to each instance.
    const plans = await planFromDb(a.db, 8, undefined, 1);
    expect(plans.length).toBeGreaterThanOrEqual(4);
    const both = await Promise.all(
      [a, b].map((server, i) =>
        startSimulation({
          endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
          password: demoStationPassword,
          plans: plans.filter((_, k) => k % 2 === i),
          timing: { statusEveryMs: 3_600_000, sessionEveryMs: 3_600_000, sessionLengthMs: 3_600_000, powerW: 11_000 },
        }),
      ),
    );
    try {
      const stations = both.flatMap((sim) => sim.stations);
      expect(stations.filter((s) => a.centralSystem.isConnected(s.cpId))).toHaveLength(both[0].stations.length);
      expect(stations.filter((s) => b.centralSystem.isConnected(s.cpId))).toHaveLength(both[1].stations.length);
      // Every connector of every station starts a session at the same moment, three times over
      // (a connector the station does not have still gets an id: OCPP 1.6 wants one in every answer).
      const starts = stations.flatMap((station) =>
        Array.from({ length: 3 }, (_, round) =>
          Array.from({ length: station.connectors + 1 }, (_, i) => i + 1).map((connectorId) =>
            station
              .send<{ transactionId: number }>('StartTransaction', {
                connectorId: connectorId > station.connectors ? 90 + round : connectorId,
                idTag: station.tags[0] ?? 'UNKNOWN-TAG',
                meterStart: 1000 * round,
                timestamp: new Date().toISOString(),
              })
              .then((answer) => answer.transactionId),
          ),
        ).flat(),
      );
      const ids = await Promise.all(starts);
      expect(ids.length).toBeGreaterThanOrEqual(3 * 4 * 2);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((id) => Number.isInteger(id) && id > 0)).toBe(true);
      const recorded = (
        (await b.db.execute(sql`select transaction_id from ocpp_transactions where transaction_id in ${ids}`)) as unknown as {
          rows: { transaction_id: number }[];
        }
      ).rows;
      // The sessions on real connectors are recorded, each under its own id.
      expect(recorded.length).toBe(ids.length - stations.length * 3);
    } finally {
      await Promise.all(both.map((sim) => sim.stop()));
    }
  }, 60_000);
});
