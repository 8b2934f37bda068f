import type { Db } from '../db/client';
import { markSilentStationsOffline } from './queries';

/**
 * Every `everyMs`, stations silent for 2.5 of their heartbeat intervals become OFFLINE (OCPP gives no
 * goodbye: a station losing power or network just stops talking). Each instance runs it; the
 * statement is idempotent, so they never disagree.
 */
export function startLivenessSweep(db: Db, everyMs: number, onOffline: (cpIds: string[]) => void, log: (m: string) => void) {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    markSilentStationsOffline(db)
      .then((gone) => {
        if (gone.length > 0) onOffline(gone);
      })
      .catch((err: unknown) => log(`ocpp liveness: ${err instanceof Error ? err.name : typeof err}`))
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
