import { useEffect, useSyncExternalStore } from 'react';

export const SW_URL = '/sw.js';
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** Returning to the tab checks for an update, but not more often than this. */
export const MIN_UPDATE_CHECK_GAP_MS = 5 * 60 * 1000;

type UpdateEvent = { isUpdate?: boolean; isExternal?: boolean };

/** The part of workbox-window's Workbox this module uses (a fake in tests). */
export interface WorkboxLike {
  addEventListener(type: 'waiting' | 'controlling', listener: (event: UpdateEvent) => void): void;
  messageSkipWaiting(): void;
  update(): Promise<void>;
}

export interface ServiceWorkerUpdate {
  /** A new version is installed and waits for the user's go. */
  needRefresh: boolean;
  /** Activates the waiting version and reloads once it controls the page. */
  update(): void;
}

interface FlowOptions {
  reload?: () => void;
  /** Whether an older worker controlled this page when it loaded (default: read now). */
  hadController?: boolean;
  now?: () => number;
  isOnline?: () => boolean;
}

let needRefresh = false;
let apply: () => void = () => window.location.reload();
const listeners = new Set<() => void>();

function setNeedRefresh(value: boolean): void {
  if (needRefresh === value) return;
  needRefresh = value;
  for (const listener of [...listeners]) listener();
}

/**
 * Wires the prompt-to-update flow onto a Workbox instance: `waiting` raises needRefresh, `update()`
 * asks the waiting worker to skip waiting, and the page reloads exactly once when it takes control.
 * Also checks for a new version hourly and when the tab becomes visible again. Returns the cleanup.
 */
export function attachUpdateFlow(wb: WorkboxLike, options: FlowOptions = {}): () => void {
  const reload = options.reload ?? (() => window.location.reload());
  const now = options.now ?? Date.now;
  const online = options.isOnline ?? (() => navigator.onLine !== false);
  let waiting = false;
  let reloadRequested = false;
  let reloaded = false;
  let lastCheck = now();
  // A page that loaded without a controller runs the newest build already: when the first worker
  // takes over (even one a reload during its install makes look "external"), nothing is stale.
  const hadController = options.hadController ?? (typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller);

  needRefresh = false;

  wb.addEventListener('waiting', () => {
    waiting = true;
    setNeedRefresh(true);
  });

  wb.addEventListener('controlling', (event) => {
    if (reloadRequested) {
      if (reloaded) return;
      reloaded = true;
      reload();
      return;
    }
    // Another tab applied the update: this page still runs the old build, whose lazy chunks the
    // new worker no longer holds, so offer the reload here too (without forcing it).
    if (hadController && (event.isUpdate || event.isExternal)) {
      waiting = false;
      setNeedRefresh(true);
    }
  });

  apply = () => {
    if (!waiting) {
      reload();
      return;
    }
    reloadRequested = true;
    wb.messageSkipWaiting();
  };

  const check = () => {
    if (!online()) return;
    lastCheck = now();
    // A failed check (offline, server down) just waits for the next one.
    wb.update().catch(() => undefined);
  };

  const interval = setInterval(check, UPDATE_CHECK_INTERVAL_MS);
  const onVisibility = () => {
    if (document.visibilityState === 'visible' && now() - lastCheck >= MIN_UPDATE_CHECK_GAP_MS) check();
  };
  document.addEventListener('visibilitychange', onVisibility);

  return () => {
    clearInterval(interval);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

let registration: Promise<void> | null = null;

/**
 * Registers /sw.js in production builds only: in dev the worker would serve stale modules. Safe to
 * call more than once. workbox-window is loaded lazily to keep it out of the first route's chunk.
 */
export function registerServiceWorker(): Promise<void> {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) {
    return Promise.resolve();
  }
  registration ??= import('workbox-window')
    .then(async ({ Workbox }) => {
      const wb = new Workbox(SW_URL, { scope: '/' });
      attachUpdateFlow(wb);
      await wb.register();
    })
    .catch((error: unknown) => {
      // Without a worker the app still runs online; offline support is lost, not the session.
      console.error('Service worker registration failed', error);
    });
  return registration;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const getNeedRefresh = () => needRefresh;
const update = () => apply();

export function useServiceWorkerUpdate(): ServiceWorkerUpdate {
  useEffect(() => {
    void registerServiceWorker();
  }, []);
  const value = useSyncExternalStore(subscribe, getNeedRefresh, getNeedRefresh);
  return { needRefresh: value, update };
}
