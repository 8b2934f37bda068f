import { QueryClientProvider, onlineManager, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { useEffect, type ReactNode } from 'react';
import { createQueryClient } from '../api/query-client';
import { probeServer } from '../api/client';
import { startReachabilityProbe } from './reachability-probe';
import { countWrites } from './outbox-write';
import { getOutbox } from './outbox';
import { queriesChangedBy } from './write-kinds';
import { refreshAfterWrite } from './refresh-after-write';
import type { OutboxWrite } from './outbox-write';
import { requestPersistentStorage } from './storage-persistence';
import { watchSignedOut } from './signed-out-watch';
import {
  bindQueryCacheToUser,
  createPersistOptions,
  getDefaultPersister,
  markRestoredStale,
  restoreQueryCache,
  saveQueryCacheWhenHidden,
} from './persister';

/**
 * The query cache and its IndexedDB copy belong to the signed-in area: they load with its layout,
 * not with the sign-in page, which keeps ~11 KB (TanStack Query, the persister, idb-keyval) off the
 * first route.
 */
export const queryClient = createQueryClient();

let restoring: Promise<void> | null = null;

/**
 * Restores the IndexedDB copy of the cache once per page load (only the signed-in user's, see
 * persister.ts). The signed-in layout waits for it before any route loader runs, so loaders and
 * screens see what was kept for offline use instead of asking the network first.
 */
export function restoreCache(): Promise<void> {
  restoring ??= restoreQueryCache(queryClient)
    .catch((error: unknown) => {
      // A broken copy costs the offline data, not the app.
      console.error(error);
    })
    .then(async () => {
      await markRestoredStale(queryClient);
      // From here on every answer is written back, including the ones the first loaders fetch
      // before any screen has mounted (the subscription lives as long as the page).
      persistQueryClientSubscribe({ queryClient, ...createPersistOptions(getDefaultPersister()) });
      saveQueryCacheWhenHidden(queryClient);
    });
  return restoring;
}

/**
 * What a route loader calls with the same factory its screen reads (DESIGN.md: the way of a read).
 * Data in the cache is used at once and refreshed in the background when stale; without it the
 * loader waits for the server, so the screen opens with its data. Offline without data, or when the
 * call fails, it returns and the screen shows the offline note or the error with its retry: a loader
 * never keeps a screen from opening.
 */
export async function loadQuery<TData, TQueryKey extends QueryKey>(
  options: UseQueryOptions<TData, Error, unknown, TQueryKey> & { queryKey: TQueryKey },
): Promise<void> {
  await restoreCache();
  const hasData = queryClient.getQueryData(options.queryKey) !== undefined;
  if (!hasData && !onlineManager.isOnline()) return;
  const loaded = queryClient
    .ensureQueryData({ ...options, revalidateIfStale: true } as Parameters<typeof queryClient.ensureQueryData>[0])
    // The screen's own query shows the failure (and retries it); the loader only warms the cache.
    .catch(() => undefined);
  // A failing server is retried for up to 30 s (spec 1 §7); the screen shows that with its own
  // loading state rather than behind a spinner.
  await Promise.race([loaded, new Promise((resolve) => setTimeout(resolve, LOADER_WAIT_MS))]);
}

/** How long a loader holds a navigation for data that is not cached. */
export const LOADER_WAIT_MS = 4_000;

/** What an outbox write names is refreshed once the server answered it, applied or refused. */
function refreshWrittenQueries(write: OutboxWrite): void {
  for (const target of queriesChangedBy(write)) refreshAfterWrite(queryClient, target);
}

export function QueryRuntime({ children }: { children: ReactNode }) {
  // Queued writes are replayed as soon as a signed-in screen opens (and then on reconnect, on
  // return to the foreground and after a new sign-in); before sign-in there is nobody to send as.
  useEffect(() => {
    const outbox = getOutbox();
    const stopApplied = outbox.onApplied(refreshWrittenQueries);
    const stopRefused = outbox.onRefused(refreshWrittenQueries);
    const stop = outbox.start();
    return () => {
      stopApplied();
      stopRefused();
      stop();
    };
  }, []);
  // Lie-fi: while the server does not answer, ask it again and again, so reads and writes go on
  // within seconds of its first answer (no `online` event comes when the browser never said offline).
  useEffect(() => {
    const outbox = getOutbox();
    return startReachabilityProbe({
      probe: probeServer,
      writesWaiting: () => countWrites(outbox.getSnapshot()).open > 0,
      subscribeWrites: outbox.subscribe,
    });
  }, []);
  useEffect(() => bindQueryCacheToUser(queryClient), []);
  useEffect(() => watchSignedOut(getOutbox()), []);
  // Signed in, with writes possibly waiting on this device: ask the browser not to evict them.
  useEffect(() => void requestPersistentStorage(), []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
