import { onlineManager } from '@tanstack/react-query';
import { isOnline, subscribeOnlineStatus } from './online-status';

// Apart from online-status.ts, which the first route's error screen reads: TanStack Query loads
// with the signed-in chunks (api/query-client.ts wires it).
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
