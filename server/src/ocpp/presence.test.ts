import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import { testEnv, type Env } from '../env';
import { demoStationPassword } from '../seed/ocpp';
import { createSeededTestDb } from '../test/databases';
import { createCentralSystem, type CentralSystem } from './central-system';
import { stationClient } from './station-client';

/**
 * Last-seen and heartbeat times are kept in memory and written in one statement per flush: a
 * Heartbeat's time is not in the database at once, but within the batching interval, and a
 * central system that closes writes what it still holds.
 */

let handle: DbHandle;
let cpId: string;

const rows = async <T>(q: ReturnType<typeof sql>) => ((await handle.db.execute(q)) as unknown as { rows: T[] }).rows;
const times = async () => {
  const [row] = await rows<{ last_seen_at: Date | string | null; last_heartbeat: Date | string | null }>(sql`
    select s.last_seen_at, (select max(c.last_heartbeat) from connectors c where c.cp_id = s.cp_id) as last_heartbeat
    from ocpp_stations s where s.cp_id = ${cpId}`);
  const ms = (d: Date | string | null) => (d ? new Date(d).getTime() : 0);
  return { seen: ms(row.last_seen_at), heartbeat: ms(row.last_heartbeat) };
};

/** A central system on its own HTTP server, on the test's database (which outlives it). */
async function centralOn(overrides: Partial<Env>) {
  const central = createCentralSystem({ db: handle.db, env: testEnv(overrides), log: () => {} });
  const http: Server = createServer((_, res) => res.writeHead(404).end());
  http.on('upgrade', (req, socket, head) => {
    if (!central.handleUpgrade(req, socket as never, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  const cp = stationClient({
    endpoint: `ws://127.0.0.1:${port}/ocpp`,
    identity: cpId,
    password: demoStationPassword,
    protocols: ['ocpp1.6'],
    strictMode: true,
    reconnect: false,
  });
  await cp.connect();
  return {
    central,
    cp,
    close: async (c: CentralSystem) => {
      await c.close();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

const heartbeat = async (cp: { call: (m: string, p: unknown) => Promise<unknown> }) =>
  Date.parse(((await cp.call('Heartbeat', {})) as { currentTime: string }).currentTime);

beforeAll(async () => {
  ({ handle } = await createSeededTestDb());
  const [row] = await rows<{ cp_id: string }>(sql`
    select s.cp_id from ocpp_stations s join connectors c on c.cp_id = s.cp_id
    where s.password_hash is not null and c.removed = false order by s.cp_id limit 1`);
  cpId = row.cp_id;
}, 120_000);

afterAll(async () => {
  await handle?.close();
});

describe('batched last-seen and heartbeat times', () => {
  it('reach the database within the batching interval', async () => {
    const { central, cp, close } = await centralOn({ OCPP_PRESENCE_FLUSH_MS: 1000 });
    try {
      for (let i = 0; i < 20; i++) await heartbeat(cp);
      const at = await heartbeat(cp);
      const sent = Date.now();
      // The flush period and a margin for a loaded machine.
      const end = sent + 1500;
      let written = await times();
      while (written.heartbeat !== at && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 50));
        written = await times();
      }
      expect(written.heartbeat).toBe(at);
      expect(written.seen).toBe(at);
    } finally {
      await cp.close({ force: true });
      await close(central);
    }
  });

  it('are written when the central system closes, before any flush was due', async () => {
    // A flush a minute away (the heartbeat interval is ten minutes, so it is not shortened).
    const { central, cp, close } = await centralOn({ OCPP_PRESENCE_FLUSH_MS: 60_000, OCPP_HEARTBEAT_SECONDS: 600 });
    await cp.call('BootNotification', { chargePointVendor: 'Simulated', chargePointModel: 'Sim-1' });
    const at = await heartbeat(cp);
    await new Promise((r) => setTimeout(r, 200));
    expect((await times()).heartbeat).not.toBe(at);
    await close(central);
    await cp.close({ force: true });
    const written = await times();
    expect(written.heartbeat).toBe(at);
    expect(written.seen).toBe(at);
  });
});
