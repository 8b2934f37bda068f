import { isBrowserOnline, isServerAnswering, subscribeOnlineStatus } from './online-status';

/** While writes wait for the server, it is asked this often whether it answers again. */
export const PROBE_WRITES_WAITING_MS = 2_000;
/** Without waiting writes only paused reads need it, and those can wait a little longer. */
export const PROBE_IDLE_MS = 10_000;

export interface ProbeOptions {
  /** One cheap request; reports its outcome to online-status.ts itself (api/client.ts `probeServer`). */
  probe: () => Promise<unknown>;
  /** Whether writes wait in the outbox (a shorter interval then). */
  writesWaiting: () => boolean;
  /** Called on every change of the outbox, so a write saved meanwhile shortens the wait. */
  subscribeWrites?: (listener: () => void) => () => void;
}

/**
 * Asks the server whether it answers again while it does not (lie-fi: the browser says online, so
 * no `online` event will come): on a short interval, and at once when the page comes back to the
 * foreground, gets the focus or the browser reports a network change. The first answer flips
 * online-status.ts, which resumes paused reads and the outbox's replay. Returns the stop.
 */
export function startReachabilityProbe({ probe, writesWaiting, subscribeWrites }: ProbeOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the scheduled probe runs (ms), to bring it forward when a write is saved. */
  let due = 0;
  let inFlight = false;
  let stopped = false;

  const needed = () => !stopped && isBrowserOnline() && !isServerAnswering();
  const clear = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const schedule = () => {
    clear();
    if (!needed()) return;
    const wait = writesWaiting() ? PROBE_WRITES_WAITING_MS : PROBE_IDLE_MS;
    due = Date.now() + wait;
    timer = setTimeout(run, wait);
  };
  const run = () => {
    timer = null;
    if (!needed() || inFlight) return;
    inFlight = true;
    void probe()
      .catch(() => undefined)
      .finally(() => {
        inFlight = false;
        schedule();
      });
  };
  const now = () => {
    clear();
    run();
  };
  const onVisible = () => {
    if (document.visibilityState === 'visible') now();
  };

  const stopStatus = subscribeOnlineStatus(() => {
    if (!isServerAnswering() && isBrowserOnline() && !timer && !inFlight) schedule();
  });
  const stopWrites = subscribeWrites?.(() => {
    if (timer && writesWaiting() && due - Date.now() > PROBE_WRITES_WAITING_MS) schedule();
  });
  window.addEventListener('focus', now);
  window.addEventListener('online', now);
  document.addEventListener('visibilitychange', onVisible);
  schedule();
  return () => {
    stopped = true;
    clear();
    stopStatus();
    stopWrites?.();
    window.removeEventListener('focus', now);
    window.removeEventListener('online', now);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
