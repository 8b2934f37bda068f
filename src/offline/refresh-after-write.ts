import { hashKey, type FetchQueryOptions, type Query, type QueryClient, type QueryKey } from '@tanstack/react-query';

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
  const changed: QueryKey = Array.isArray(target) ? target : (target as Exclude<RefreshTarget, QueryKey>).queryKey;
  // Queries of other areas that show this data declared so (meta.shows): they are refreshed with it,
  // so the area that writes never names the areas that read (no feature cycle).
  refreshFamily(client, { predicate: (q) => (q.meta?.shows ?? []).some((shown) => overlaps(shown, changed)) });
  if (Array.isArray(target)) {
    refreshFamily(client, { queryKey: changed });
    return;
  }
  const options = target as Exclude<RefreshTarget, QueryKey>;
  if (client.getQueryState(options.queryKey) === undefined) return;
  void client.fetchQuery({ ...options, staleTime: 0 }).catch(() => undefined);
}

function refreshFamily(client: QueryClient, filter: { queryKey?: QueryKey; predicate?: (q: Query) => boolean }): void {
  const matches = (q: Query) => filter.predicate?.(q) ?? true;
  void client.invalidateQueries({ ...filter, refetchType: 'none' });
  void client.refetchQueries({ ...filter, type: 'all', predicate: (q) => matches(q) && q.options.queryFn !== undefined });
  client.removeQueries({ ...filter, predicate: (q) => matches(q) && q.options.queryFn === undefined && q.getObserversCount() === 0 });
}

/** Whether one key is a prefix of the other: a family and a member of it, in either order. */
function overlaps(a: QueryKey, b: QueryKey): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (hashKey([a[i]]) !== hashKey([b[i]])) return false;
  return true;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /**
       * Key families of another area whose data this query shows (a location shows its operator's
       * name): a write that refreshes one of them refreshes this query too.
       */
      shows?: readonly QueryKey[];
    };
  }
}
