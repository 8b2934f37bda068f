import type { IncomingMessage } from 'node:http';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { throttles } from '../db/schema/http';
import { forwardedClientAddress } from '../http/request';
import { clearThrottle, hitThrottle, type ThrottleRule } from '../http/throttle';

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

/** The station's address: the socket's, or behind TRUST_PROXY the entry the trusted proxy appended (`forwardedClientAddress`). */
export function upgradeAddress(request: IncomingMessage, trustProxyHops: number): string {
  return forwardedClientAddress(request.headers['x-forwarded-for'], request.socket.remoteAddress, trustProxyHops);
}

const pairKey = (cpId: string, address: string) => `ocpp-pair:${cpId}|${address}`;
const addressKey = (address: string) => `ocpp-address:${address}`;

export interface UpgradeThrottle {
  /** Seconds until the pair's or the address's block ends; 0: not blocked. */
  blockedSeconds: number;
  /** Whether the pair has wrong passwords on record (only then does a right one need to clear them). */
  pairCounted: boolean;
}

/** The pair's and the address's throttles, in one statement (a reconnect storm runs it for every station). */
export async function upgradeThrottle(db: Db, cpId: string, address: string, now = new Date()): Promise<UpgradeThrottle> {
  const pair = pairKey(cpId, address);
  const rows = await db
    .select({ key: throttles.key, blockedUntil: throttles.blockedUntil })
    .from(throttles)
    .where(inArray(throttles.key, [pair, addressKey(address)]));
  let blockedSeconds = 0;
  for (const row of rows)
    if (row.blockedUntil && row.blockedUntil > now)
      blockedSeconds = Math.max(blockedSeconds, Math.ceil((row.blockedUntil.getTime() - now.getTime()) / 1000));
  return { blockedSeconds, pairCounted: rows.some((r) => r.key === pair) };
}

export async function countWrongStationPassword(db: Db, cpId: string, address: string): Promise<void> {
  await hitThrottle(db, pairKey(cpId, address), stationPasswordLimits.pair);
  await hitThrottle(db, addressKey(address), stationPasswordLimits.address);
}

export const clearStationPasswordFailures = (db: Db, cpId: string, address: string) => clearThrottle(db, pairKey(cpId, address));
