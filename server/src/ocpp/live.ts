import { EventEmitter } from 'node:events';
import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { logFault, type Log } from '../http/faults';
import { connectors } from '../db/schema/stations';

/** The channel every instance listens on for station changes (several instances on one PostgreSQL). */
export const LIVE_CHANNEL = 'ocpp_station';

/**
 * Live status: which stations changed (a status, a heartbeat, a boot, a session, OFFLINE), per
 * operator, for the open screens. Changes of one station within COALESCE_MS go out as one event.
 */
export function createLiveHub(db: Db, publish: (cpId: string, cpoId: string) => void, log: Log) {
  const hub = new EventEmitter();
  hub.setMaxListeners(0);
  // A stream's fault (liveStream has the hub, not the log).
  hub.on('fault', (context: string, err: unknown) => logFault(log, context, err));
  const operatorOf = new Map<string, string>();
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const COALESCE_MS = 200;
  const flush = async () => {
    timer = undefined;
    const cpIds = [...pending];
    pending.clear();
    for (const cpId of cpIds) {
      let cpoId = operatorOf.get(cpId);
      if (!cpoId) {
        const [row] = await db.select({ cpoId: connectors.cpoId }).from(connectors).where(eq(connectors.cpId, cpId)).limit(1);
        if (!row) continue;
        cpoId = row.cpoId;
        operatorOf.set(cpId, cpoId);
      }
      publish(cpId, cpoId);
    }
  };
  return {
    hub,
    /** A station changed on this instance. */
    changed: (cpId: string) => {
      pending.add(cpId);
      timer ??= setTimeout(
        () => void flush().catch((err: unknown) => logFault(log, 'ocpp live: station changes not published', err)),
        COALESCE_MS,
      );
    },
    /** A change, from this instance or (through PostgreSQL) another one, goes to the open screens. */
    deliver: (cpId: string, cpoId: string) => hub.emit('station', cpId, cpoId),
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;

/**
 * GET /bff/ocpp/live: server-sent events `station` ({ cpId }) for the stations of the caller's
 * operators, a comment every 25 s to keep proxies from cutting it. It ends after `maxSeconds`: the
 * client opens it again (retry 1 s), so a logout or a changed scope shows within that time.
 */
export function liveStream(c: Context, hub: EventEmitter, scope: Scope, maxSeconds: number) {
  return streamSSE(c, async (stream) => {
    let end: () => void = () => {};
    // A failed write (the client is gone, the socket broke) is logged once and ends the stream.
    let failed = false;
    const fail = (err: unknown) => {
      if (failed) return;
      failed = true;
      hub.emit('fault', 'ocpp live: writing to a live-status stream failed', err);
      end();
    };
    const onStation = (cpId: string, cpoId: string) => {
      if (scope.canSeeOperator(cpoId)) void stream.writeSSE({ event: 'station', data: JSON.stringify({ cpId }) }).catch(fail);
    };
    hub.on('station', onStation);
    const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n').catch(fail), 25_000);
    await stream.writeSSE({ event: 'ready', data: '{}', retry: 1000 });
    let ended: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      end = resolve;
      stream.onAbort(resolve);
      ended = setTimeout(resolve, maxSeconds * 1000);
    });
    clearTimeout(ended);
    clearInterval(keepAlive);
    hub.off('station', onStation);
  });
}
