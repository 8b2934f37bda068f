import { useSyncExternalStore } from 'react';

/**
 * Counts the user's writes in flight, for the loading overlay (spec 1 §2). Reads never block the
 * screen (cached data stays usable), and background work such as outbox replays opts out.
 */
let inFlight = 0;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export async function trackWrite<T>(work: () => Promise<T>): Promise<T> {
  inFlight += 1;
  emit();
  try {
    return await work();
  } finally {
    inFlight -= 1;
    emit();
  }
}

export const writesInFlight = () => inFlight;

export function useWritesInFlight(): number {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    writesInFlight,
    () => 0,
  );
}
