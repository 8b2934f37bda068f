import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * What a write names as changed: a query's factory options (it is refetched with them, also when
 * only the kept offline copy had it), or a key prefix for families such as list pages.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- factories of any data and key shape
export type RefreshTarget = QueryKey | FetchQueryOptions<any, any, any, any>;

/**
 * A write the server answered (an outbox write here or in another tab, or a plain mutation)
 * refreshes every query showing what it changed, those of screens not open too, so neither a later
 * visit nor the kept offline copy brings the old value back. A query named by its factory options
 * is refetched with them when the cache has it (also a copy restored from IndexedDB). Of a key
 * family (list pages), the queries this page load has used are refetched; restored copies no screen
 * has asked for yet have no query function to refetch with, so they are dropped (that page loads
 * afresh, or says offline that it is not kept) rather than show the value the write replaced.
 */
export function refreshAfterWrite(client: QueryClient, target: RefreshTarget): void {
  if (Array.isArray(target)) {
    const queryKey: QueryKey = target;
    void client.invalidateQueries({ queryKey, refetchType: 'none' });
    void client.refetchQueries({ queryKey, type: 'all', predicate: (q) => q.options.queryFn !== undefined });
    client.removeQueries({ queryKey, predicate: (q) => q.options.queryFn === undefined && q.getObserversCount() === 0 });
    return;
  }
  const options = target as Exclude<RefreshTarget, QueryKey>;
  if (client.getQueryState(options.queryKey) === undefined) return;
  void client.fetchQuery({ ...options, staleTime: 0 }).catch(() => undefined);
}
