import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { logFault, type Log } from '../http/faults';
import type { CentralSystem } from './central-system';
import { createLiveHub, LIVE_CHANNEL, type LiveHub } from './live';
import { createOperations, noRelay, type Operations, type Relay } from './operations';

/**
 * The OCPP side of one server process, found by the routes through their database handle: the HTTP
 * app (createApp) knows nothing of sockets, and an app without a central system (the test harness)
 * still answers every operation, with 'not connected'.
 */
export interface OcppRuntime {
  instanceId: string;
  /** The root handle (never a request's transaction). */
  db: Db;
  central?: CentralSystem;
  operations: Operations;
  live: LiveHub;
  /** The server's log (stdout without a server). */
  log: Log;
}

// By the server's environment object, which createApp puts on every request's context: a write's
// `c.get('db')` is its transaction, the environment is the process's own.
const runtimes = new WeakMap<object, OcppRuntime>();

const consoleLog: Log = (m) => console.log(m);

const nobodyConnected: CentralSystem = {
  instanceId: 'none',
  handleUpgrade: () => false,
  connected: () => [],
  isConnected: () => false,
  connectionEpoch: () => 0,
  call: () => Promise.reject(new Error('not connected')),
  events: new EventEmitter(),
  close: async () => {},
};

export function registerOcppRuntime(
  env: Env,
  db: Db,
  central: CentralSystem,
  opts: { timeoutMs: number; relay?: () => Relay; log?: Log },
): OcppRuntime {
  const instanceId = central.instanceId;
  const relay = opts.relay ?? (() => noRelay);
  const log = opts.log ?? consoleLog;
  // On one PostgreSQL every instance hears a change through NOTIFY, this one included; alone, directly.
  const live = createLiveHub(
    db,
    (cpId, cpoId) => {
      if (relay() === noRelay) live.deliver(cpId, cpoId);
      else
        relay()
          .notify(LIVE_CHANNEL, `${cpId} ${cpoId}`)
          .catch((err: unknown) => logFault(log, `ocpp live: change of station ${cpId} not sent to the other instances`, err));
    },
    log,
  );
  central.events.on('changed', (cpId: string) => live.changed(cpId));
  const runtime: OcppRuntime = {
    instanceId,
    db,
    central,
    operations: createOperations({ db, central, instanceId, timeoutMs: opts.timeoutMs, relay, log }),
    live,
    log,
  };
  runtimes.set(env, runtime);
  return runtime;
}

/** The OCPP side a started server registered, if any. */
export const registeredRuntime = (env: Env): OcppRuntime | undefined => runtimes.get(env);

/** This server's OCPP side; `db` (the root handle, not a transaction) only serves an app without one. */
export function ocppRuntime(env: Env, db: Db): OcppRuntime {
  let runtime = runtimes.get(env);
  if (!runtime) {
    const instanceId = randomUUID();
    runtime = {
      instanceId,
      db,
      operations: createOperations({ db, central: nobodyConnected, instanceId, timeoutMs: 0, relay: () => noRelay, log: consoleLog }),
      live: createLiveHub(db, () => {}, consoleLog),
      log: consoleLog,
    };
    runtimes.set(env, runtime);
  }
  return runtime;
}
