import { useSyncExternalStore } from 'react';

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
