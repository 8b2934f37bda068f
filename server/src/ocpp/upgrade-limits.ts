import type { IncomingMessage } from 'node:http';
import type { Db } from '../db/client';
import { checkThrottles, clearThrottle, hitThrottle, type ThrottleRule } from '../http/throttle';

const minute = 60;
const hour = 3600;

/**
 * Wrong station passwords at the upgrade, counted like wrong sign-ins (http/throttle.ts, in the
 * database, so every instance sees them): per station and address pair, and more loosely per
 * address (a depot's stations share one). Never per station alone: anyone could then keep a
 * station off by guessing its password. A blocked pair or address is refused before the password
 * is hashed, so a guesser costs no scrypt either; a right password clears its pair.
 */
export const stationPasswordLimits = {
  pair: { limit: 5, windowSeconds: minute, blockSeconds: minute, maxBlockSeconds: hour },
  address: { limit: 30, windowSeconds: minute, blockSeconds: minute, maxBlockSeconds: hour },
} satisfies Record<string, ThrottleRule>;

/** The station's address: the socket's, or the first X-Forwarded-For entry behind a trusted proxy. */
export function upgradeAddress(request: IncomingMessage, trustProxy: boolean): string {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  if (trustProxy && first) return first;
  return request.socket.remoteAddress ?? 'unknown';
}

const pairKey = (cpId: string, address: string) => `ocpp-pair:${cpId}|${address}`;
const addressKey = (address: string) => `ocpp-address:${address}`;

/** Whether the pair or the address is blocked now. */
export async function upgradeBlocked(db: Db, cpId: string, address: string): Promise<boolean> {
  try {
    await checkThrottles(db, [pairKey(cpId, address), addressKey(address)]);
    return false;
  } catch {
    return true;
  }
}

export async function countWrongStationPassword(db: Db, cpId: string, address: string): Promise<void> {
  await hitThrottle(db, pairKey(cpId, address), stationPasswordLimits.pair);
  await hitThrottle(db, addressKey(address), stationPasswordLimits.address);
}

export const clearStationPasswordFailures = (db: Db, cpId: string, address: string) => clearThrottle(db, pairKey(cpId, address));
