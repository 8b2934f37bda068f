import { loadEnv } from './env';
import { planFromDb } from './ocpp/simulator/plan';
import { startSimulation, type Simulation } from './ocpp/simulator/simulator';
import { demoStationPassword } from './seed/ocpp';
import { startServer } from './server';

const env = loadEnv();
const running = await startServer(env);

// A new user sees live stations at once: a few of the demo data's stations run as simulated charge
// points in this process (SIMULATED_STATIONS=0 turns them off).
let simulation: Simulation | undefined;
if (env.SIMULATED_STATIONS > 0) {
  const plans = await planFromDb(running.db, env.SIMULATED_STATIONS);
  simulation = await startSimulation({
    endpoint: `${running.url.replace(/^http/, 'ws')}/ocpp`,
    password: demoStationPassword,
    plans,
    log: (m) => console.log(m),
  });
  console.log(`${simulation.connected} simulated charge points connected (SIMULATED_STATIONS=0 turns them off)`);
}

const shutdown = (signal: string) => {
  console.log(`${signal}: shutting down`);
  // A stuck connection must not keep the process (and the database lock) alive forever.
  setTimeout(() => process.exit(1), 10_000).unref();
  Promise.resolve(simulation?.stop())
    .then(() => running.close())
    .then(
      () => process.exit(0),
      (err) => {
        console.error(err);
        process.exit(1);
      },
    );
};
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
