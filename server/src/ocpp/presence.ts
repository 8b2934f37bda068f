import type { Db } from '../db/client';
import { logFault, type Log } from '../http/faults';
import { writePresence } from './queries';

/**
 * A station's presence, kept in memory and written in one statement every `flushMs`: the time of
 * its last frame and of its last Heartbeat (a flood of them costs a Map entry, not a statement
 * each), and the presence lease of every station this instance holds, renewed well before it
 * lapses. A failed flush keeps its times for the next one; closing flushes what is left.
 */
export interface Presence {
  /** Any frame of the station, now. */
  seen: (cpId: string) => void;
  /** A Heartbeat of the station at `at` (a frame too). */
  heartbeat: (cpId: string, at: Date) => void;
  /** Writes what is pending now, after any flush already running. */
  flush: () => Promise<void>;
  /** Stops the timer and flushes once more. */
  stop: () => Promise<void>;
  /** A lease runs this long beyond the station's heartbeat interval: two flush periods, so a renewal is never late. */
  leaseExtraSeconds: number;
}

interface Pending {
  seenAt: Date | null;
  heartbeatAt: Date | null;
}

const later = (a: Date | null | undefined, b: Date | null) => (!a ? b : !b || a > b ? a : b);

export function createPresence(deps: {
  db: Db;
  instanceId: string;
  flushMs: number;
  /** How many stations this instance holds: without any and with nothing pending a flush has nothing to do. */
  holding: () => number;
  /** Stations whose screens changed with a flush (a heartbeat time, statuses back from OFFLINE). */
  onChanged: (cpIds: string[]) => void;
  log: Log;
}): Presence {
  let pending = new Map<string, Pending>();
  let chain: Promise<void> = Promise.resolve();
  let busy = false;
  const leaseExtraSeconds = (2 * deps.flushMs) / 1000;

  const note = (cpId: string, seenAt: Date, heartbeatAt: Date | null) => {
    const entry = pending.get(cpId);
    if (entry) {
      entry.seenAt = seenAt;
      entry.heartbeatAt = heartbeatAt ?? entry.heartbeatAt;
    } else pending.set(cpId, { seenAt, heartbeatAt });
  };

  const flushOnce = async () => {
    if (pending.size === 0 && deps.holding() === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      const changed = await writePresence(deps.db, {
        instanceId: deps.instanceId,
        stations: [...batch].map(([cpId, p]) => ({ cpId, ...p })),
        leaseExtraSeconds,
      });
      if (changed.length > 0) deps.onChanged(changed);
    } catch (err) {
      logFault(deps.log, 'ocpp presence: last-seen times not written, kept for the next flush', err);
      for (const [cpId, p] of batch) {
        const newer = pending.get(cpId);
        pending.set(cpId, { seenAt: later(newer?.seenAt, p.seenAt), heartbeatAt: later(newer?.heartbeatAt, p.heartbeatAt) });
      }
    }
  };

  const flush = () => {
    chain = chain.then(flushOnce);
    return chain;
  };

  const timer = setInterval(() => {
    // A slow database: the next round waits instead of piling up behind this one.
    if (busy) return;
    busy = true;
    void flush().finally(() => {
      busy = false;
    });
  }, deps.flushMs);
  timer.unref();

  return {
    seen: (cpId) => note(cpId, new Date(), null),
    heartbeat: (cpId, at) => note(cpId, at, at),
    flush,
    leaseExtraSeconds,
    stop: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
