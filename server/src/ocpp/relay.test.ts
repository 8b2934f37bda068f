import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEnv } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { demoAccounts } from '../seed/seed';
import { startServer, type RunningServer } from '../server';
import { createSeededTestDatabaseUrl, testDatabaseUrl } from '../test/databases';
import { planFromDb } from './simulator/plan';
import { startSimulation, type Simulation } from './simulator/simulator';

/**
 * Issue 34: the relay's LISTEN connection (ocpp/relay.ts) stopped for good after one failed
 * reconnect, silently. Here its backend is terminated while the database refuses new connections
 * for a moment (the first attempts fail), and an operation asked on the other instance still
 * reaches the station once the relay listens again. PostgreSQL only.
 */
describe.runIf(testDatabaseUrl())('the relay after its listening connection is lost', () => {
  let database: { url: string; drop: () => Promise<void> };
  let a: RunningServer;
  let b: RunningServer;
  let simulation: Simulation;
  let token: string;
  let cpId: string;
  const logs = { a: [] as string[], b: [] as string[] };

  beforeAll(async () => {
    database = await createSeededTestDatabaseUrl(testDatabaseUrl()!);
    const env = () => testEnv({ DATA_DIR: 'memory://', SEED: 'none', PORT: 0, DATABASE_URL: database.url, OCPP_CALL_TIMEOUT_MS: 3000 });
    a = await startServer(env(), { log: (m) => logs.a.push(m) });
    b = await startServer(env(), { log: (m) => logs.b.push(m) });
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
  }, 180_000);

  afterAll(async () => {
    await simulation?.stop();
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  const operate = () =>
    fetch(`${b.url}/bff/ocpp-client/change-configuration`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        cpId,
        connectorId: `${cpId}_1`,
        connectorOperationType: 'CHANGE_CONFIGURATION',
        key: 'MeterValueSampleInterval',
        value: '20',
      }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { data?: Record<string, unknown>; errorCodeResponse?: string } }));

  it('listens again with a backoff, logs the loss and the recovery, and the operation reaches the station', async () => {
    expect(a.centralSystem.isConnected(cpId)).toBe(true);
    const [{ name }] = ((await a.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows;
    // No new connection for 1.5 s: the relay's first attempt to listen again fails (a failed
    // connect emits no 'error' event), and the next one must still come.
    // From the admin database: PostgreSQL will not close the current database to new connections.
    const adminDb = new pg.Client({ connectionString: testDatabaseUrl()! });
    await adminDb.connect();
    const allow = (on: boolean) => adminDb.query(`alter database "${name}" with allow_connections ${on}`);
    await allow(false);
    const killed = (await a.db.execute(sql`
      select pg_terminate_backend(pid) as ok from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN %'`)) as unknown as {
      rows: { ok: boolean }[];
    };
    expect(killed.rows.length).toBe(2);
    await new Promise((r) => setTimeout(r, 1500));
    await allow(true);
    await adminDb.end();

    const listening = () => [logs.a, logs.b].every((l) => l.some((m) => m.startsWith('ocpp relay: listening again')));
    for (const end = Date.now() + 15_000; !listening() && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
    expect(
      logs.a.some((m) => m.startsWith('ocpp relay: lost the listening connection')),
      logs.a.join('\n'),
    ).toBe(true);
    expect(
      logs.a.some((m) => m.startsWith('ocpp relay: attempt 1 to listen again failed')),
      logs.a.join('\n'),
    ).toBe(true);
    expect(listening(), [...logs.a, ...logs.b].join('\n')).toBe(true);

    const change = await operate();
    expect(change).toMatchObject({ status: 200, body: { data: { status: 'accepted', stationStatus: 'Accepted' } } });
  }, 60_000);
});
