import { useSyncExternalStore } from 'react';
import { onlineManager } from '@tanstack/react-query';

/**
 * navigator.onLine is only trustworthy when it says "offline" (a LAN without internet still reads
 * online); that is enough to pause queries and mutations instead of burning their retries.
 */
export function isOnline(): boolean {
  return typeof navigator === 'undefined' ? true : navigator.onLine !== false;
}

export function subscribeOnlineStatus(listener: () => void): () => void {
  if (typeof window === 'undefined') return () => {};
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

export function useOnlineStatus(): boolean {
  return useSyncExternalStore(subscribeOnlineStatus, isOnline, () => true);
}

let wired = false;

/**
 * TanStack Query v5 starts "online" and ignores navigator.onLine, so an app opened offline would
 * fire and fail every query first. Feeding it the same source as useOnlineStatus keeps the two in
 * agreement. Idempotent.
 */
export function wireOnlineManager(): void {
  if (wired) return;
  wired = true;
  onlineManager.setEventListener((setOnline) => {
    setOnline(isOnline());
    return subscribeOnlineStatus(() => setOnline(isOnline()));
  });
}
