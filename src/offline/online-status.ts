import { useSyncExternalStore } from 'react';

/**
 * Whether the server can be reached, decided from two sources. navigator.onLine is only
 * trustworthy when it says "offline" (a LAN without internet, one bar of signal, a captive portal
 * or a dead cell all read online: "lie-fi"), so the requests themselves decide the rest: a request
 * that got no answer (a network error or our timeout) marks the server as not answering, any HTTP
 * answer marks it as answering again (api/client.ts reports both; offline/reachability-probe.ts
 * asks while it is not answering). Everything that waits for the network (TanStack's onlineManager,
 * the outbox, the top bar) reads `isOnline()`, so lie-fi behaves as true offline does.
 */

export type Connection = 'online' | 'offline' | 'unreachable';

let answering = true;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of [...listeners]) listener();
}

export function isBrowserOnline(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine !== false;
}

/** False after a request got no answer, until the next answer. */
export function isServerAnswering(): boolean {
  return answering;
}

/** An HTTP answer arrived (any status): the network carries requests to the server. */
export function reportAnswer(): void {
  if (answering) return;
  answering = true;
  emit();
}

/** A request got no answer (a network error or a timeout), while the browser may still say online. */
export function reportNoAnswer(): void {
  if (!answering) return;
  answering = false;
  emit();
}

export function isOnline(): boolean {
  return isBrowserOnline() && answering;
}

export function connection(): Connection {
  if (!isBrowserOnline()) return 'offline';
  return answering ? 'online' : 'unreachable';
}

/** The browser's online/offline events and every change of whether the server answers. */
export function subscribeOnlineStatus(listener: () => void): () => void {
  listeners.add(listener);
  if (typeof window !== 'undefined') {
    window.addEventListener('online', listener);
    window.addEventListener('offline', listener);
  }
  return () => {
    listeners.delete(listener);
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', listener);
      window.removeEventListener('offline', listener);
    }
  };
}

export function useOnlineStatus(): boolean {
  return useSyncExternalStore(subscribeOnlineStatus, isOnline, () => true);
}

/** 'offline' (the browser says so) or 'unreachable' (it says online, but the server does not answer). */
export function useConnection(): Connection {
  return useSyncExternalStore(subscribeOnlineStatus, connection, () => 'online');
}
