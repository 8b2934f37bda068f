import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { createRPCError, RPCServer } from 'ocpp-rpc';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { logFault } from '../http/faults';
import { ocpp16Frame } from './error-codes';
import { connectionRecord } from './connection-record';
import { frameGate } from './frame-gate';
import { startLivenessSweep } from './liveness';
import { createPresence } from './presence';
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
    logFault(log, `ocpp: ${method} failed`, err);
    throw createRPCError('InternalError', 'internal error');
  });
}

/** Handlers of one socket at once; the others wait in order (OCPP 1.6J §4.1.1 wants one call at a time). */
const IN_FLIGHT_PER_SOCKET = 4;

/**
 * Every call of the socket passes its frame gate first: over the station's frame rate it gets a
 * CALLERROR (no statement, no handler); once as many frames again were refused (the station does not
 * wait for the answers) the socket closes with 1008. One log line per episode, never one per frame.
 */
function registerHandlers(client: ServerClient, messages: StationMessages, env: Env, log: (m: string) => void) {
  const cpId = client.identity;
  const gate = frameGate({ perSecond: env.OCPP_FRAMES_PER_SECOND, burst: env.OCPP_FRAME_BURST, inFlight: IN_FLIGHT_PER_SOCKET });
  let limited = false;
  let closing = false;
  for (const method of Object.keys(messages) as (keyof StationMessages)[]) {
    const handler = messages[method] as (cpId: string, params: unknown) => Promise<unknown>;
    client.handle(method, ({ params }) => {
      if (gate.take()) {
        if (gate.refused() === 0) limited = false;
        return gate.run(() => guarded(() => handler(cpId, params), log, method));
      }
      if (!limited) {
        limited = true;
        log(
          `ocpp: station ${cpId} over its frame rate (${env.OCPP_FRAMES_PER_SECOND}/s, burst ${env.OCPP_FRAME_BURST}): ` +
            `CALLERROR for the frames over it, 1008 after ${env.OCPP_FRAME_BURST} refused`,
        );
      }
      if (!closing && gate.refused() > env.OCPP_FRAME_BURST) {
        closing = true;
        // Nothing more is read (a flooder ignores the close and keeps sending); the 1008 still goes
        // out, and the socket is gone a second later whether the station answered the close or not.
        const socket = client.handshake.request.socket;
        socket.pause();
        client
          .close({ code: 1008, reason: 'Rate limit exceeded' })
          .catch((err: unknown) => logFault(log, `ocpp: closing flooding station ${cpId} failed`, err));
        setTimeout(() => socket.destroy(), 1000).unref();
      }
      throw createRPCError('GenericError', 'Rate limit exceeded');
    });
  }
}

export function createCentralSystem(deps: { db: Db; env: Env; log: (m: string) => void }): CentralSystem {
  const { db, env, log } = deps;
  const instanceId = randomUUID();
  const events = new EventEmitter();
  events.setMaxListeners(0);
  const clients = new Map<string, ServerClient>();
  const epochs = new Map<string, number>();
  // At most a quarter of the heartbeat interval: a station that heartbeats is never 2.5 intervals stale in the database.
  const flushMs = Math.min(env.OCPP_PRESENCE_FLUSH_MS, (env.OCPP_HEARTBEAT_SECONDS * 1000) / 4);
  const presence = createPresence({
    db,
    instanceId,
    flushMs,
    holding: () => clients.size,
    onChanged: (cpIds) => cpIds.forEach((cpId) => events.emit('changed', cpId)),
    log,
  });
  const messages = stationMessages(db, {
    heartbeatSeconds: env.OCPP_HEARTBEAT_SECONDS,
    events: { changed: (cpId) => events.emit('changed', cpId) },
    presence,
  });
  const connection = connectionRecord({
    write: (cpId, connected) => setConnectedInstance(db, cpId, instanceId, connected, presence.leaseExtraSeconds),
    holds: (cpId) => clients.has(cpId),
    log,
  });
  // This instance's times go out first: a station talking here is never found silent by its own sweep.
  const sweep = startLivenessSweep(
    db,
    env.OCPP_LIVENESS_CHECK_MS,
    () => presence.flush(),
    (gone) => gone.forEach((cpId) => events.emit('changed', cpId)),
    log,
  );
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
    if (previous)
      previous
        .close({ code: 1000, reason: 'Replaced by a new connection' })
        .catch((err: unknown) => logFault(log, `ocpp: closing the replaced socket of station ${cpId} failed`, err));
    const sendRaw = client.sendRaw.bind(client);
    client.sendRaw = (frame: string) => sendRaw(ocpp16Frame(frame));
    registerHandlers(client, messages, env, log);
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
      // The last frames' times reach the database before it closes.
      await presence.stop();
    },
  };
}
