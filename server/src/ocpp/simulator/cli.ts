import { createDb, isPostgresUrl } from '../../db/client';
import { demoStationPassword } from '../../seed/ocpp';
import { skipFrom } from './cli-options';
import { planFromDb } from './plan';
import { planFromSeed } from './seed-plan';
import { startSimulation } from './simulator';

/**
 * `npm run simulate [-- --skip N]`: simulated charge points for the demo seed's stations against a running server.
 *   SIMULATE_URL       the server (default http://127.0.0.1:8080); stations connect to <url>/ocpp/<cpId>
 *   SIMULATE_STATIONS  how many (default 10)
 *   SIMULATE_PASSWORD  their password (default: the demo seed's station password)
 *   --skip N           leaves out the first N stations (in cp_id order): those `npm start` simulates
 *                      in its own process (SIMULATED_STATIONS, default 5), so the two do not take
 *                      each other's sockets over. Default: SIMULATED_STATIONS as set here, else 5;
 *                      `--skip 0` when the server runs with SIMULATED_STATIONS=0.
 *   DATABASE_URL       on PostgreSQL the stations and tags are read from it; else drawn from the seed (SEED)
 */
async function plans(count: number, skip: number) {
  if (isPostgresUrl(process.env.DATABASE_URL)) {
    const handle = await createDb({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
    try {
      return await planFromDb(handle.db, count, undefined, skip);
    } finally {
      await handle.close();
    }
  }
  return planFromSeed(process.env.SEED === 'small' ? 'small' : 'demo', count, skip);
}

async function main() {
  const base = process.env.SIMULATE_URL ?? 'http://127.0.0.1:8080';
  const count = Number(process.env.SIMULATE_STATIONS ?? 10);
  const endpoint = `${base.replace(/^http/, 'ws').replace(/\/$/, '')}/ocpp`;
  const skip = skipFrom(process.argv.slice(2), process.env);
  const simulation = await startSimulation({
    endpoint,
    password: process.env.SIMULATE_PASSWORD ?? demoStationPassword,
    plans: await plans(count, skip),
    log: (m) => console.log(m),
  });
  const skipped = skip > 0 ? `, the first ${skip} left to the server's own simulator (--skip)` : '';
  console.log(
    `${simulation.connected} of ${simulation.stations.length} simulated stations connected to ${endpoint}${skipped} (Ctrl+C ends them)`,
  );
  process.once('SIGINT', () => void simulation.stop().then(() => process.exit(0)));
  process.once('SIGTERM', () => void simulation.stop().then(() => process.exit(0)));
}

await main();
