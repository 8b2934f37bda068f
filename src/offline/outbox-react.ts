import { createContext, useContext, useMemo, useSyncExternalStore } from 'react';
import { getOutbox, type Outbox } from './outbox';
import { countWrites, type OutboxCounts, type OutboxWrite } from './outbox-write';

/** Optional override of the app's outbox (tests, stories); without a provider the app's outbox is used. */
export const OutboxContext = createContext<Outbox | null>(null);

export function useOutboxInstance(): Outbox {
  return useContext(OutboxContext) ?? getOutbox();
}

export interface OutboxView {
  /** All stored writes in creation order, done ones included until they are pruned. */
  writes: readonly OutboxWrite[];
  counts: OutboxCounts;
  retry: (id: string) => Promise<void>;
  discard: (id: string) => Promise<boolean>;
}

function useWrites(outbox: Outbox): readonly OutboxWrite[] {
  return useSyncExternalStore(outbox.subscribe, outbox.getSnapshot, outbox.getSnapshot);
}

/** The outbox's writes and counts, re-rendering on every change (also from other tabs). */
export function useOutbox(): OutboxView {
  const outbox = useOutboxInstance();
  const writes = useWrites(outbox);
  return useMemo(
    () => ({
      writes,
      counts: countWrites(writes),
      retry: (id: string) => outbox.retry(id),
      discard: (id: string) => outbox.discard(id),
    }),
    [outbox, writes],
  );
}

/**
 * The writes not yet done for one entity (`scope`, e.g. a connector id), oldest first, so a row can
 * show 'pending' / 'failed' and the value that is on its way. Empty when nothing is queued.
 */
export function usePendingFor(entityId: string | null | undefined): readonly OutboxWrite[] {
  const writes = useWrites(useOutboxInstance());
  return useMemo(() => (entityId ? writes.filter((w) => w.scope === entityId && w.state !== 'done') : []), [writes, entityId]);
}
