import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { burnStationPasswordCheck, hashStationPassword, isStationPasswordHash, verifyStationPassword } from '../auth/passwords';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { logFault, type Log } from '../http/faults';
import { replaceStationPasswordHash, stationPasswordHash } from './queries';
import { clearStationPasswordFailures, countWrongStationPassword, upgradeAddress, upgradeThrottle } from './upgrade-limits';

/**
 * The station's way in at the upgrade (OCPP security profile 1), before ocpp-rpc accepts the
 * socket. A restart makes every station reconnect at once (300 took 41–61 s, other tenants waited
 * over a second): so at most OCPP_MAX_PENDING_UPGRADES are handled at once and the rest are told
 * 503 with Retry-After, spread over the seconds to come; the password hashes run
 * OCPP_PASSWORD_CHECKS at a time (scrypt in parallel only fought over the cores and memory); and a
 * password that matched a stored hash is remembered for that hash, so its station's next upgrade
 * costs no scrypt at all.
 */

interface Handshake {
  endpoint: string;
  identity: string;
  protocols: Set<string>;
  password?: Buffer;
  request: IncomingMessage;
}
type Accept = (session: { cpId: string }, protocol: string) => void;
type Reject = (code: number, message: string) => void;

export interface UpgradeGateOptions {
  db: Db;
  env: Env;
  log: Log;
  path: string;
  subprotocol: string;
  /** Whether another station fits (OCPP_MAX_STATIONS; a station already here always does). */
  hasRoom: (cpId: string) => boolean;
}

/** The 503's Retry-After ceiling: a storm of thousands is spread over at most this many seconds. */
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * ocpp-rpc's `reject` writes no headers of ours: the answer is written here (as the library writes
 * its own, then the socket ends), and `reject` after it only settles the handshake.
 */
function refuseWithRetryAfter(socket: Socket, reject: Reject, code: number, message: string, seconds: number) {
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
        `Content-Length: ${Buffer.byteLength(message)}\r\nRetry-After: ${seconds}\r\n\r\n${message}`,
    );
  }
  socket.destroy();
  reject(code, message);
}

/** At most `size` runs at once, the others in arrival order. */
function slots(size: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await run();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * Station password checks: scrypt, a few at a time, and remembered. A stored hash keeps the HMAC
 * (under a key made at start, never stored) of the one password that last matched it; only that
 * exact password is accepted without scrypt, so a wrong one always gets the full check, and a new
 * password (a new hash, a new salt) starts without a memory. Checks of the same password against
 * the same hash that arrive together share one scrypt (the demo stations all share one hash).
 */
export function stationPasswordChecks(
  atOnce: number,
  keep = 10_000,
  hashing: { verify: (password: string, stored: string) => Promise<boolean>; burn: (password: string) => Promise<void> } = {
    verify: verifyStationPassword,
    burn: burnStationPasswordCheck,
  },
) {
  const key = randomBytes(32);
  const mac = (password: string) => createHmac('sha256', key).update(password).digest();
  const matched = new Map<string, Buffer>();
  const running = new Map<string, Promise<boolean>>();
  const limit = slots(atOnce);
  const remember = (stored: string, tag: Buffer) => {
    matched.delete(stored);
    matched.set(stored, tag);
    if (matched.size > keep) matched.delete(matched.keys().next().value!);
  };
  const check = async (password: Buffer | undefined, stored: string | null | undefined): Promise<boolean> => {
    const given = password?.toString('utf8') ?? '';
    const tag = mac(given);
    const known = stored ? matched.get(stored) : undefined;
    if (stored && known && password !== undefined && timingSafeEqual(known, tag)) {
      remember(stored, tag);
      return true;
    }
    const job = `${password === undefined ? '-' : '+'}${stored ?? ''}\u0000${tag.toString('base64')}`;
    let result = running.get(job);
    if (!result) {
      // Unknown stations and missing passwords cost one scrypt too, so the time tells nothing.
      const hash = async () => {
        if (!stored || password === undefined) return hashing.burn(given).then(() => false);
        const ok = await hashing.verify(given, stored);
        if (ok) remember(stored, tag);
        return ok;
      };
      result = limit(hash).finally(() => running.delete(job));
      running.set(job, result);
    }
    return result;
  };
  return { check, remembered: () => matched.size };
}

export type StationPasswordChecks = ReturnType<typeof stationPasswordChecks>;

/** ocpp-rpc's auth callback: path and subprotocol, the bound on upgrades at once, throttles, the password, the station cap. */
export function upgradeGate(opts: UpgradeGateOptions, checks = stationPasswordChecks(opts.env.OCPP_PASSWORD_CHECKS)) {
  const { db, env, log } = opts;
  let pending = 0;
  // How long an upgrade takes here (moving average, seconds): with the bound it gives the rate the
  // gate gets through (Little's law), 50 an upgrade of 100 ms at the default bound.
  let upgradeSeconds = 0.1;
  // Each 503 is given the next free second to come back in, one slot of 1 / rate seconds after the
  // last one promised, so the stations told earlier and later do not come back together.
  let nextSlot = 0;
  const retryAfter = () => {
    const now = Date.now();
    const rate = env.OCPP_MAX_PENDING_UPGRADES / Math.max(upgradeSeconds, 0.001);
    nextSlot = Math.min(Math.max(nextSlot, now + 1000) + 1000 / rate, now + MAX_RETRY_AFTER_SECONDS * 1000);
    return Math.max(1, Math.ceil((nextSlot - now) / 1000));
  };

  const admit = async (accept: Accept, reject: Reject, handshake: Handshake, signal?: AbortSignal) => {
    const cpId = handshake.identity;
    const socket = handshake.request.socket;
    const address = upgradeAddress(handshake.request, env.TRUST_PROXY);
    const throttle = await upgradeThrottle(db, cpId, address);
    if (throttle.blockedSeconds > 0) return refuseWithRetryAfter(socket, reject, 429, 'Too many attempts', throttle.blockedSeconds);
    const hash = await stationPasswordHash(db, cpId);
    // A station that gave up waiting costs no scrypt.
    if (signal?.aborted) return reject(400, 'Client connection closed before upgrade complete');
    if (!(await checks.check(handshake.password, hash))) {
      await countWrongStationPassword(db, cpId, address);
      return reject(401, 'Unauthorized');
    }
    if (throttle.pairCounted) await clearStationPasswordFailures(db, cpId, address);
    // An older scrypt hash becomes the fast kind with the station's first proof (passwords.ts says why).
    if (hash && !isStationPasswordHash(hash))
      await replaceStationPasswordHash(db, cpId, hash, hashStationPassword(handshake.password?.toString('utf8') ?? ''));
    if (!opts.hasRoom(cpId)) return reject(503, 'Too many stations');
    accept({ cpId }, opts.subprotocol);
  };

  const gate = (accept: Accept, reject: Reject, handshake: Handshake, signal?: AbortSignal) => {
    if (handshake.endpoint !== opts.path) return reject(404, 'Not found');
    if (!handshake.protocols.has(opts.subprotocol)) return reject(400, `Subprotocol ${opts.subprotocol} required`);
    if (pending >= env.OCPP_MAX_PENDING_UPGRADES)
      return refuseWithRetryAfter(handshake.request.socket, reject, 503, 'Too many stations connecting at once', retryAfter());
    pending++;
    const started = performance.now();
    void admit(accept, reject, handshake, signal)
      .catch((err: unknown) => {
        logFault(log, 'ocpp: upgrade check failed', err);
        reject(500, 'Internal error');
      })
      .finally(() => {
        pending--;
        upgradeSeconds = 0.8 * upgradeSeconds + 0.2 * ((performance.now() - started) / 1000);
      });
  };
  return { gate, pending: () => pending, checks };
}
