import { createDb, isPostgresUrl } from '../../db/client';
import { demoStationPassword } from '../../seed/ocpp';
import { planFromDb } from './plan';
import { planFromSeed } from './seed-plan';
import { startSimulation } from './simulator';

/**
 * `npm run simulate`: simulated charge points for the demo seed's stations against a running server.
 *   SIMULATE_URL       the server (default http://127.0.0.1:8080); stations connect to <url>/ocpp/<cpId>
 *   SIMULATE_STATIONS  how many (default 10)
 *   SIMULATE_PASSWORD  their password (default: the demo seed's station password)
 *   DATABASE_URL       on PostgreSQL the stations and tags are read from it; else drawn from the seed (SEED)
 */
const base = process.env.SIMULATE_URL ?? 'http://127.0.0.1:8080';
const count = Number(process.env.SIMULATE_STATIONS ?? 10);
const endpoint = `${base.replace(/^http/, 'ws').replace(/\/$/, '')}/ocpp`;

async function plans() {
  if (isPostgresUrl(process.env.DATABASE_URL)) {
    const handle = await createDb({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
    try {
      return await planFromDb(handle.db, count);
    } finally {
      await handle.close();
    }
  }
  return planFromSeed(process.env.SEED === 'small' ? 'small' : 'demo', count);
}

const simulation = await startSimulation({
  endpoint,
  password: process.env.SIMULATE_PASSWORD ?? demoStationPassword,
  plans: await plans(),
  log: (m) => console.log(m),
});
console.log(`${simulation.connected} of ${simulation.stations.length} simulated stations connected to ${endpoint} (Ctrl+C ends them)`);
process.once('SIGINT', () => void simulation.stop().then(() => process.exit(0)));
process.once('SIGTERM', () => void simulation.stop().then(() => process.exit(0)));
