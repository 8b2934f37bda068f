import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { createRPCError, RPCServer } from 'ocpp-rpc';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { ocpp16Frame } from './error-codes';
import { connectionRecord } from './connection-record';
import { startLivenessSweep } from './liveness';
import { setConnectedInstance } from './queries';
import { stationMessages, type StationMessages } from './station-messages';
import { upgradeGate } from './upgrade-gate';

/** Where charge points connect: ws://host/ocpp/{chargePointId}. */
export const OCPP_PATH = '/ocpp';
const SUBPROTOCOL = 'ocpp1.6';

interface ServerClient {
  identity: string;
  handshake: { request: IncomingMessage };
  sendRaw: (frame: string) => void;
  handle: (method: string, handler: (call: { params: unknown }) => unknown) => void;
  call: (method: string, params?: unknown, options?: { signal?: AbortSignal }) => Promise<unknown>;
  close: (opts?: { code?: number; reason?: string; force?: boolean }) => Promise<unknown>;
  on: (event: string, listener: (...args: unknown[]) => void) => void;
}

export interface CentralSystem {
  /** This process among several on one PostgreSQL (ocpp_stations.connected_instance). */
  instanceId: string;
  /** The HTTP server's 'upgrade' for paths under /ocpp/; true when it took the socket. */
  handleUpgrade: (req: IncomingMessage, socket: Socket, head: Buffer) => boolean;
  /** The stations connected to this instance. */
  connected: () => string[];
  isConnected: (cpId: string) => boolean;
  /** How many sockets of this station this instance has accepted so far: a reboot's new socket raises it. */
  connectionEpoch: (cpId: string) => number;
  /** A call to a station connected here; rejects with the library's error (timeout, CALLERROR, closed). */
  call: (cpId: string, action: string, params: unknown) => Promise<unknown>;
  /** 'changed' (cpId): something the station reported changed what its screens show. */
  events: EventEmitter;
  close: () => Promise<void>;
}

/** Handler errors other than the library's own (a failed statement) leave as a bare InternalError: no SQL reaches the station. */
function guarded<T>(run: () => Promise<T>, log: (m: string) => void, method: string): Promise<T> {
  return run().catch((err: unknown) => {
    if (err instanceof Error && 'rpcErrorCode' in err) throw err;
    log(`ocpp: ${method} failed (${err instanceof Error ? err.name : typeof err})`);
    throw createRPCError('InternalError', 'internal error');
  });
}

function registerHandlers(client: ServerClient, messages: StationMessages, log: (m: string) => void) {
  const cpId = client.identity;
  for (const method of Object.keys(messages) as (keyof StationMessages)[]) {
    const handler = messages[method] as (cpId: string, params: unknown) => Promise<unknown>;
    client.handle(method, ({ params }) => guarded(() => handler(cpId, params), log, method));
  }
}

export function createCentralSystem(deps: { db: Db; env: Env; log: (m: string) => void }): CentralSystem {
  const { db, env, log } = deps;
  const instanceId = randomUUID();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const messages = stationMessages(db, {
    heartbeatSeconds: env.OCPP_HEARTBEAT_SECONDS,
    events: { changed: (cpId) => events.emit('changed', cpId) },
  });
  const clients = new Map<string, ServerClient>();
  const epochs = new Map<string, number>();
  const connection = connectionRecord({
    write: (cpId, connected) => setConnectedInstance(db, cpId, instanceId, connected),
    holds: (cpId) => clients.has(cpId),
    log,
  });
  const sweep = startLivenessSweep(db, env.OCPP_LIVENESS_CHECK_MS, (gone) => gone.forEach((cpId) => events.emit('changed', cpId)), log);
  const rpc = new RPCServer({
    protocols: [SUBPROTOCOL],
    strictMode: true,
    callTimeoutMs: env.OCPP_CALL_TIMEOUT_MS,
    pingIntervalMs: 30_000,
    respondWithDetailedErrors: false,
    // The frames a station may send are small; 64 KB is far above any 1.6 message we take.
    wssOptions: { maxPayload: 64 * 1024 },
  });

  rpc.auth(
    upgradeGate({
      db,
      env,
      log,
      path: OCPP_PATH,
      subprotocol: SUBPROTOCOL,
      hasRoom: (cpId) => clients.size < env.OCPP_MAX_STATIONS || clients.has(cpId),
    }).gate,
  );

  rpc.on('client', (raw: unknown) => {
    const client = raw as ServerClient;
    const cpId = client.identity;
    // A station that reconnects before its old socket noticed it was gone: the new one is the station.
    const previous = clients.get(cpId);
    clients.set(cpId, client);
    epochs.set(cpId, (epochs.get(cpId) ?? 0) + 1);
    if (previous) void previous.close({ code: 1000, reason: 'Replaced by a new connection' });
    const sendRaw = client.sendRaw.bind(client);
    client.sendRaw = (frame: string) => sendRaw(ocpp16Frame(frame));
    registerHandlers(client, messages, log);
    connection.record(cpId, true);
    client.on('close', () => {
      if (clients.get(cpId) !== client) return;
      clients.delete(cpId);
      connection.record(cpId, false);
      events.emit('disconnected', cpId);
    });
    events.emit('accepted', client.handshake.request.socket);
    events.emit('connected', cpId);
  });

  return {
    instanceId,
    handleUpgrade: (req, socket, head) => {
      const pathname = (req.url ?? '').split('?')[0];
      if (!pathname.startsWith(`${OCPP_PATH}/`)) return false;
      void rpc.handleUpgrade(req, socket, head);
      return true;
    },
    connected: () => [...clients.keys()],
    isConnected: (cpId) => clients.has(cpId),
    connectionEpoch: (cpId) => epochs.get(cpId) ?? 0,
    call: async (cpId, action, params) => {
      const client = clients.get(cpId);
      if (!client) throw new Error('not connected');
      return client.call(action, params);
    },
    events,
    close: async () => {
      sweep.stop();
      await rpc.close({ code: 1001, reason: 'Server shutting down', force: false });
      await connection.settled();
    },
  };
}
