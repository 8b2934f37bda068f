import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import {
  defaultShouldDehydrateQuery,
  hashKey,
  useQueryClient,
  type Query,
  type QueryClient,
  type QueryKey,
  type QueryState,
} from '@tanstack/react-query';
import {
  persistQueryClientRestore,
  persistQueryClientSave,
  removeOldestQuery,
  type PersistQueryClientOptions,
  type PersistedClient,
  type Persister,
} from '@tanstack/react-query-persist-client';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { getClaims, subscribeTokens } from '../auth/token-store';
import { PERSIST_MAX_AGE_MS } from './cache-policy';
import { persistDeclared } from './query-roots';

/**
 * idb-keyval creates exactly one object store per database, so this database belongs to the query
 * cache alone; other stores (the outbox) need a database of their own.
 */
export const QUERY_CACHE_DB = 'cpo-cockpit';
export const QUERY_CACHE_STORE = 'query-cache';
export const PERSISTED_CLIENT_KEY = 'query-client';

/** Data older than this page load can only have come from the persisted cache. */
export const SESSION_STARTED_AT = Date.now();

/** A new build may change the shape of cached answers, so its data starts from scratch. */
export const BUILD_ID: string = (import.meta.env.VITE_BUILD_ID as string | undefined) ?? 'dev';

/**
 * Whether a query is kept on the device: as its area declared for its key root (query-roots.ts).
 * A copy restored from the device whose area has not loaded in this page load yet was kept when it
 * was saved, so it stays; anything else undeclared (a key of no area) is not written.
 */
export function shouldPersistQuery(query: Pick<Query, 'queryKey' | 'state'>): boolean {
  const restored = query.state.dataUpdatedAt > 0 && query.state.dataUpdatedAt < SESSION_STARTED_AT;
  const kept = persistDeclared(query.queryKey[0]) ?? restored;
  // Settled data, also when a later refetch failed: TanStack's default (status 'success' only)
  // dropped a kept list from the copy as soon as one background refetch gave up, so the next start
  // had nothing to show. The generic type keeps both query-core copies happy.
  const keptAfterFailure = query.state.status === 'error' && query.state.data !== undefined;
  return kept && (keptAfterFailure || defaultShouldDehydrateQuery(query as Query));
}

/**
 * The copy keeps the data a query last had from the server, never the failure of a later refetch:
 * restored, it is the kept data (and is asked for again in the background), not an error screen.
 */
export function keptCopy(client: PersistedClient): PersistedClient {
  const queries = client.clientState.queries.map((q) =>
    q.state.status === 'error' && q.state.data !== undefined
      ? { ...q, state: { ...q.state, status: 'success' as const, error: null, fetchFailureCount: 0, fetchFailureReason: null } }
      : q,
  );
  return { ...client, clientState: { ...client.clientState, queries } };
}

let queryCacheStore: UseStore | null = null;
function getQueryCacheStore(): UseStore {
  // Lazily, so importing this module in a test or without IndexedDB opens nothing.
  queryCacheStore ??= createStore(QUERY_CACHE_DB, QUERY_CACHE_STORE);
  return queryCacheStore;
}

interface StoredEnvelope {
  owner: string | null;
  client: PersistedClient;
}

const currentOwner = (): string | null => getClaims()?.sub ?? null;

// A busted client makes TanStack remove the stored copy instead of hydrating it.
const DISCARD: PersistedClient = { timestamp: 1, buster: '\u0000discarded', clientState: { queries: [], mutations: [] } };

export interface QueryPersisterOptions {
  store?: UseStore;
  /** Saves at most this often; the read cache can afford to lose the last second. */
  throttleTime?: number;
}

/**
 * The cached data is stamped with the signed-in user (`sub`), so a different person signing in on
 * a shared tablet never sees the previous user's operators, even offline.
 */
export function createQueryPersister(options: QueryPersisterOptions = {}): Persister {
  const store = options.store ?? getQueryCacheStore();
  return createAsyncStoragePersister({
    storage: {
      getItem: (key) => get<string>(key, store).then((v) => v ?? null),
      setItem: (key, value) => set(key, value, store),
      removeItem: (key) => del(key, store),
    },
    key: PERSISTED_CLIENT_KEY,
    throttleTime: options.throttleTime ?? 1_000,
    serialize: (client) => JSON.stringify({ owner: currentOwner(), client: keptCopy(client) } satisfies StoredEnvelope),
    deserialize: (raw) => {
      const stored = JSON.parse(raw) as Partial<StoredEnvelope>;
      if (!stored.client || stored.owner !== currentOwner()) return DISCARD;
      return stored.client;
    },
    // A full disk drops the oldest queries instead of failing every save.
    retry: removeOldestQuery,
  });
}

export function createPersistOptions(persister: Persister): Omit<PersistQueryClientOptions, 'queryClient'> {
  return {
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: BUILD_ID,
    dehydrateOptions: {
      shouldDehydrateQuery: shouldPersistQuery,
      // Writes belong to the outbox, which persists them at once and replays them itself;
      // restoring them here too could send a write twice.
      shouldDehydrateMutation: () => false,
    },
  };
}

/** Writes the persistable part of the cache now, not at the end of the save throttle. */
export function saveQueryCache(client: QueryClient, persister: Persister = getImmediatePersister()): Promise<void> {
  return persistQueryClientSave({ queryClient: client, ...createPersistOptions(persister) });
}

/**
 * Saves the cache at once when the page is hidden (a tablet switching apps, which may then kill
 * the page) or left: the throttled saves would lose an answer that arrived in the last second.
 * Returns the unsubscribe.
 */
export function saveQueryCacheWhenHidden(client: QueryClient): () => void {
  const save = () => void saveQueryCache(client).catch((error: unknown) => console.error(error));
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') save();
  };
  window.addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('pagehide', save);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}

/** Hydrates `client` from the stored copy, unless it is too old, from another build or another user. */
export function restoreQueryCache(
  client: QueryClient,
  persister: Persister = getDefaultPersister(),
  overrides: { buster?: string } = {},
): Promise<void> {
  return persistQueryClientRestore({ queryClient: client, ...createPersistOptions(persister), ...overrides });
}

/**
 * Clears the in-memory query cache (and with it the persisted copy) on logout, and when a
 * different user signs in without a reload. Returns the unsubscribe.
 */
export function bindQueryCacheToUser(client: QueryClient): () => void {
  let owner = currentOwner();
  return subscribeTokens((change) => {
    if (change.type === 'cleared') {
      if (change.reason === 'session-expired') return;
      client.getQueryCache().clear();
      owner = null;
      return;
    }
    const next = currentOwner();
    if (owner !== null && next !== owner) client.getQueryCache().clear();
    owner = next;
  });
}

let defaultPersister: Persister | null = null;
export function getDefaultPersister(): Persister {
  defaultPersister ??= createQueryPersister();
  return defaultPersister;
}

let immediatePersister: Persister | null = null;
/** The same stored copy without the throttle, for a save that cannot wait. */
function getImmediatePersister(): Persister {
  immediatePersister ??= createQueryPersister({ throttleTime: 0 });
  return immediatePersister;
}

/**
 * Marks what was restored from IndexedDB as stale (without fetching), so every screen that shows it
 * asks the server again in the background when online. A copy saved seconds before a reload is
 * younger than the queries' staleTime and would otherwise be shown as current although the last
 * answers before the reload (a new operator, a changed lot) may not have reached the copy.
 */
export function markRestoredStale(client: QueryClient, sessionStartedAt = SESSION_STARTED_AT): Promise<void> {
  return client.invalidateQueries({
    refetchType: 'none',
    predicate: (q) => q.state.dataUpdatedAt > 0 && q.state.dataUpdatedAt < sessionStartedAt,
  });
}

export interface DataAge {
  hasData: boolean;
  /** dataUpdatedAt in ms, null without data. */
  updatedAt: number | null;
  ageMs: number | null;
  /** Restored from IndexedDB and not refreshed since this page load. */
  restored: boolean;
  /** What the screen shows is not fresh from the server: restored, or the latest fetch failed or is waiting for the network. */
  fromCache: boolean;
}

type AgeState = Pick<QueryState, 'dataUpdatedAt' | 'errorUpdatedAt' | 'fetchStatus' | 'status' | 'data'>;

export function describeDataAge(state: AgeState | undefined, now: number, sessionStartedAt = SESSION_STARTED_AT): DataAge {
  if (!state || state.data === undefined || state.dataUpdatedAt === 0) {
    return { hasData: false, updatedAt: null, ageMs: null, restored: false, fromCache: false };
  }
  const restored = state.dataUpdatedAt < sessionStartedAt;
  const lastFetchFailed = state.status === 'error' || state.errorUpdatedAt > state.dataUpdatedAt;
  return {
    hasData: true,
    updatedAt: state.dataUpdatedAt,
    ageMs: Math.max(0, now - state.dataUpdatedAt),
    restored,
    fromCache: restored || lastFetchFailed || state.fetchStatus === 'paused',
  };
}

/**
 * How old the data behind `queryKey` is, for "Stand: vor 5 Minuten". Does not fetch; re-renders on
 * cache changes and every `tickMs` so the age moves on.
 */
export function useDataAge(queryKey: QueryKey, tickMs = 30_000): DataAge {
  const client = useQueryClient();
  const cache = client.getQueryCache();
  const hash = hashKey(queryKey);
  const [now, setNow] = useState(() => Date.now());

  const subscribe = useCallback(
    (onChange: () => void) => cache.subscribe((event) => (event.query.queryHash === hash ? onChange() : undefined)),
    [cache, hash],
  );
  const getState = useCallback(() => cache.get(hash)?.state, [cache, hash]);
  const state = useSyncExternalStore(subscribe, getState, getState);

  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(id);
  }, [tickMs]);

  // A state change (e.g. a refetch) is a natural moment to refresh "now" as well.
  const effectiveNow = Math.max(now, state?.dataUpdatedAt ?? 0);
  return describeDataAge(state, effectiveNow);
}
