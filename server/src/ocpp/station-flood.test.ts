import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { testEnv } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { demoAccounts } from '../seed/seed';
import { startServer, type RunningServer } from '../server';
import { stationClient } from './station-client';

/**
 * One station floods Heartbeats and StatusNotifications over a real OCPP WebSocket (frames sent
 * without waiting for answers, as a broken or hostile charge point does) while a user of another
 * operator reads the station list: the reads stay fast, memory comes back, the flooder gets
 * CALLERRORs and a 1008 close, and the log gets one line for it.
 */

let server: RunningServer;
const logged: string[] = [];
const rows = async <T>(q: ReturnType<typeof sql>) => ((await server.db.execute(q)) as unknown as { rows: T[] }).rows;

// The worker's own collector, so "RSS afterwards" is measured after garbage is gone, not before.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const rssMb = () => {
  gc();
  return process.memoryUsage.rss() / 1024 / 1024;
};

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

async function signIn(email: string, password: string) {
  const res = await fetch(`${server.url}/user-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, origin: 'dashboard' }),
  });
  return ((await res.json()) as { data: { access_token: string } }).data.access_token;
}

beforeAll(async () => {
  server = await startServer(testEnv({ DATA_DIR: 'memory://', SEED: 'small', PORT: 0, DATABASE_URL: process.env.DATABASE_URL }), {
    log: (m) => logged.push(m),
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
});

/** A station of an operator other than the demo operator account's, with a connector 1. */
async function otherTenantsStation() {
  const [row] = await rows<{ cp_id: string }>(sql`
    select c.cp_id from connectors c join ocpp_stations s on s.cp_id = c.cp_id
    where c.connector_number = 1 and c.removed = false and s.password_hash is not null
      and c.cpo_id is distinct from (select operator_id from dashboard_users where email = ${demoAccounts.operator.email})
    order by c.cp_id limit 1`);
  return row.cp_id;
}

describe('a station flooding frames', () => {
  it('gets CALLERRORs, a 1008 close and one log line, while another tenant’s list reads stay under 1 s at p99', async () => {
    const token = await signIn(demoAccounts.operator.email, demoAccounts.operator.password);
    const cpId = await otherTenantsStation();
    const read = async () => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/bff/connectors/get-by-cpo?page=0&size=20`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { response: { cpId: string }[] } };
      expect(body.data.response.some((r) => r.cpId === cpId)).toBe(false);
      return performance.now() - t0;
    };
    for (let i = 0; i < 5; i++) await read();
    const rssBefore = rssMb();

    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/ocpp/${cpId}`, 'ocpp1.6', {
      headers: { authorization: `Basic ${Buffer.from(`${cpId}:${demoStationPassword}`).toString('base64')}` },
    });
    let callErrors = 0;
    let results = 0;
    ws.on('message', (data: Buffer) => {
      const type = data[1] - 48;
      if (type === 4) callErrors++;
      else if (type === 3) results++;
    });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });

    // 10,000 Heartbeats and 2,500 StatusNotifications, in chunks so the reads below get their turns.
    const FRAMES = 12_500;
    let sent = 0;
    const flood = (async () => {
      while (sent < FRAMES && ws.readyState === WebSocket.OPEN) {
        for (let k = 0; k < 250 && sent < FRAMES; k++, sent++) {
          const frame =
            sent % 5 === 4
              ? [
                  2,
                  `s${sent}`,
                  'StatusNotification',
                  { connectorId: 1, status: sent % 2 ? 'Available' : 'Preparing', errorCode: 'NoError' },
                ]
              : [2, `h${sent}`, 'Heartbeat', {}];
          ws.send(JSON.stringify(frame));
        }
        await new Promise((r) => setImmediate(r));
      }
    })();

    const latencies: number[] = [];
    const reading = (async () => {
      const end = Date.now() + 4000;
      while (Date.now() < end) latencies.push(await read());
    })();
    await Promise.all([flood, reading]);
    const code = await Promise.race([closed, new Promise((r) => setTimeout(() => r('still open'), 10_000))]);
    expect(latencies.length).toBeGreaterThanOrEqual(10);
    expect(percentile(latencies, 99)).toBeLessThan(1000);
    expect(code).toBe(1008);
    expect(callErrors).toBeGreaterThan(0);
    // The burst passed, then the station was cut off: nowhere near every frame was answered.
    expect(results).toBeGreaterThan(0);
    expect(results + callErrors).toBeLessThan(FRAMES / 2);
    expect(logged.filter((m) => m.includes(`station ${cpId} over its frame rate`))).toHaveLength(1);

    await new Promise((r) => setTimeout(r, 1000));
    const rssAfter = rssMb();
    expect(rssAfter - rssBefore).toBeLessThan(50);
  }, 60_000);

  it('lets a boot’s burst through: every frame of a station answered', async () => {
    const [{ cp_id: cpId }] = await rows<{ cp_id: string }>(sql`
      select cp_id from ocpp_stations where password_hash is not null and cp_id <> ${await otherTenantsStation()} order by cp_id limit 1`);
    const cp = stationClient({
      endpoint: `${server.url.replace('http', 'ws')}/ocpp`,
      identity: cpId,
      password: demoStationPassword,
      protocols: ['ocpp1.6'],
      strictMode: true,
      reconnect: false,
    });
    await cp.connect();
    try {
      await cp.call('BootNotification', { chargePointVendor: 'Simulated', chargePointModel: 'Sim-1' });
      const answers = await Promise.all([
        ...Array.from({ length: 40 }, (_, i) =>
          cp.call('StatusNotification', { connectorId: i % 4, status: 'Available', errorCode: 'NoError' }),
        ),
        ...Array.from({ length: 20 }, () => cp.call('Heartbeat', {})),
      ]);
      expect(answers).toHaveLength(60);
    } finally {
      await cp.close({ force: true });
    }
  });
});
