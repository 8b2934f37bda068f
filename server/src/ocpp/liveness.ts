import type { Db } from '../db/client';
import { logFault } from '../http/faults';
import { markSilentStationsOffline } from './queries';

/**
 * Every `everyMs`, after this instance's pending presence went out (`before`), stations silent for
 * 2.5 of their heartbeat intervals, or whose presence lease lapsed, become OFFLINE (OCPP gives no
 * goodbye: a station losing power or network just stops talking, an instance that dies leaves its
 * stations' connected_instance behind). Each instance runs it; the statement is idempotent, so they
 * never disagree.
 */
export function startLivenessSweep(
  db: Db,
  everyMs: number,
  before: () => Promise<void>,
  onOffline: (cpIds: string[]) => void,
  log: (m: string) => void,
) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    before()
      .then(() => markSilentStationsOffline(db))
      .then((gone) => {
        if (gone.length > 0) onOffline(gone);
      })
      .catch((err: unknown) => logFault(log, 'ocpp liveness: sweep failed', err))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
