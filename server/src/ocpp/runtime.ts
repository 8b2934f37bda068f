import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Db } from '../db/client';
import type { CentralSystem } from './central-system';
import { createOperations, noRelay, type Operations, type Relay } from './operations';

/**
 * The OCPP side of one server process, found by the routes through their database handle: the HTTP
 * app (createApp) knows nothing of sockets, and an app without a central system (the test harness)
 * still answers every operation, with 'not connected'.
 */
export interface OcppRuntime {
  instanceId: string;
  central?: CentralSystem;
  operations: Operations;
}

const runtimes = new WeakMap<Db, OcppRuntime>();

const nobodyConnected: CentralSystem = {
  instanceId: 'none',
  handleUpgrade: () => false,
  connected: () => [],
  isConnected: () => false,
  call: () => Promise.reject(new Error('not connected')),
  events: new EventEmitter(),
  close: async () => {},
};

export function registerOcppRuntime(db: Db, central: CentralSystem, opts: { timeoutMs: number; relay?: () => Relay }): OcppRuntime {
  const instanceId = central.instanceId;
  const runtime: OcppRuntime = {
    instanceId,
    central,
    operations: createOperations({ db, central, instanceId, timeoutMs: opts.timeoutMs, relay: opts.relay ?? (() => noRelay) }),
  };
  runtimes.set(db, runtime);
  return runtime;
}

export function ocppRuntime(db: Db): OcppRuntime {
  let runtime = runtimes.get(db);
  if (!runtime) {
    const instanceId = randomUUID();
    runtime = { instanceId, operations: createOperations({ db, central: nobodyConnected, instanceId, timeoutMs: 0, relay: () => noRelay }) };
    runtimes.set(db, runtime);
  }
  return runtime;
}
