import { loadEnv } from './env';
import { startServer } from './server';

const env = loadEnv();
const running = await startServer(env);

const shutdown = (signal: string) => {
  console.log(`${signal}: shutting down`);
  // A stuck connection must not keep the process (and the database lock) alive forever.
  setTimeout(() => process.exit(1), 10_000).unref();
  running.close().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
};
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
