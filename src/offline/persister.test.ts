import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createElement, type ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider, dehydrate } from '@tanstack/react-query';
import { clear, createStore, get } from 'idb-keyval';
import { makeClaims, makeJwt } from '../api/test-tokens';
import { clearTokens, setTokens } from '../auth/token-store';
import { PERSIST_MAX_AGE_MS } from './cache-policy';
import {
  PERSISTED_CLIENT_KEY,
  QUERY_CACHE_DB,
  QUERY_CACHE_STORE,
  SESSION_STARTED_AT,
  bindQueryCacheToUser,
  createPersistOptions,
  createQueryPersister,
  describeDataAge,
  markRestoredStale,
  restoreQueryCache,
  saveQueryCache,
  saveQueryCacheWhenHidden,
  shouldPersistQuery,
  useDataAge,
} from './persister';
import { queryRoot } from './query-roots';

const store = createStore(QUERY_CACHE_DB, QUERY_CACHE_STORE);

function signIn(sub: string) {
  setTokens({ accessToken: makeJwt(makeClaims({ sub })), refreshToken: `refresh-${sub}` });
}

// As the areas' key factories declare their roots (offline/ names no area, so the test plays them).
queryRoot('locations', { persist: true });
queryRoot('stations', { persist: true });
const office = queryRoot('office', { persist: false });

function fillCache(client: QueryClient) {
  client.setQueryData(['locations', 'list', { page: 0 }], { totalNumberOfRecords: 1, response: [{ locationId: 'L1' }] });
  client.setQueryData(['stations', 'detail', 'S1'], { stationId: 'S1' });
  // A key of no area, and one of an area that keeps nothing on the device.
  client.setQueryData(['settings', 'profile'], { secret: true });
  client.setQueryData([...office, 'list'], 'volatile');
}

async function settle() {
  await new Promise((r) => setTimeout(r, 0));
}

beforeEach(async () => {
  localStorage.clear();
  await clear(store);
});

afterEach(() => clearTokens());

describe('query persister', () => {
  it('keeps a list in the copy after a background refetch failed, and restores it as kept data, not as an error', async () => {
    signIn('user-1');
    const persister = createQueryPersister({ throttleTime: 0 });
    const source = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = ['locations', 'list', { page: 0 }];
    source.setQueryData(key, { totalNumberOfRecords: 1, response: [{ locationId: 'L1' }] });
    // Lie-fi: the refetch gets no answer and gives up; the query is in 'error' with its old data.
    await source.fetchQuery({ queryKey: key, queryFn: () => Promise.reject(new Error('no answer')), staleTime: 0 }).catch(() => undefined);
    expect(source.getQueryState(key)?.status).toBe('error');
    await saveQueryCache(source, persister);

    const target = new QueryClient();
    await restoreQueryCache(target, persister);
    expect(target.getQueryData(key)).toEqual({ totalNumberOfRecords: 1, response: [{ locationId: 'L1' }] });
    expect(target.getQueryState(key)?.status).toBe('success');
    expect(target.getQueryState(key)?.error).toBeNull();
  });

  it('round-trips the queries of areas that keep theirs through IndexedDB and drops the rest', async () => {
    signIn('user-1');
    const persister = createQueryPersister({ throttleTime: 0 });
    const source = new QueryClient();
    fillCache(source);
    await settle();

    await saveQueryCache(source, persister);

    const raw = await get<string>(PERSISTED_CLIENT_KEY, store);
    expect(typeof raw).toBe('string');
    expect(raw).toContain('L1');
    expect(raw).not.toContain('secret');
    expect(raw).not.toContain('volatile');

    const target = new QueryClient();
    await restoreQueryCache(target, persister);
    expect(target.getQueryData(['locations', 'list', { page: 0 }])).toEqual({
      totalNumberOfRecords: 1,
      response: [{ locationId: 'L1' }],
    });
    expect(target.getQueryData(['stations', 'detail', 'S1'])).toEqual({ stationId: 'S1' });
    expect(target.getQueryData(['settings', 'profile'])).toBeUndefined();
    expect(target.getQueryData([...office, 'list'])).toBeUndefined();
  });

  it('keeps a restored copy whose area has not loaded in this page load yet, but no fresh query of an unknown root', () => {
    const client = new QueryClient();
    client.setQueryData(['later-area', 'list'], ['kept before'], { updatedAt: SESSION_STARTED_AT - 60_000 });
    client.setQueryData(['later-area', 'detail'], ['new']);
    const saved = dehydrate(client, { shouldDehydrateQuery: shouldPersistQuery }).queries.map((q) => q.queryKey);
    expect(saved).toEqual([['later-area', 'list']]);
  });

  it('uses the build id as buster and 7 days as maxAge', async () => {
    signIn('user-1');
    const persister = createQueryPersister({ throttleTime: 0 });
    const options = createPersistOptions(persister);
    expect(options.maxAge).toBe(PERSIST_MAX_AGE_MS);
    expect(options.buster).toBe('dev');

    const source = new QueryClient();
    fillCache(source);
    await saveQueryCache(source, persister);

    const target = new QueryClient();
    await restoreQueryCache(target, persister, { buster: 'another-build' });
    expect(target.getQueryData(['locations', 'list', { page: 0 }])).toBeUndefined();
    // A busted copy is removed, not kept around.
    expect(await get(PERSISTED_CLIENT_KEY, store)).toBeUndefined();
  });

  it('never restores another user’s data', async () => {
    signIn('user-1');
    const persister = createQueryPersister({ throttleTime: 0 });
    const source = new QueryClient();
    fillCache(source);
    await saveQueryCache(source, persister);

    signIn('user-2');
    const target = new QueryClient();
    await restoreQueryCache(target, persister);
    expect(target.getQueryData(['locations', 'list', { page: 0 }])).toBeUndefined();
    expect(await get(PERSISTED_CLIENT_KEY, store)).toBeUndefined();
  });
});

describe('markRestoredStale', () => {
  it('marks what was restored (older than this page load) stale without fetching, and leaves fresh answers alone', async () => {
    const client = new QueryClient();
    const started = Date.now();
    client.setQueryData(['stations', 'detail', 'OLD'], { lot: 'P1' }, { updatedAt: started - 2_000 });
    client.setQueryData(['stations', 'detail', 'NEW'], { lot: 'P2' }, { updatedAt: started + 10 });
    const fetches = vi.fn();
    client.getQueryCache().subscribe((e) => (e.type === 'updated' && e.action.type === 'fetch' ? fetches() : undefined));
    await markRestoredStale(client, started);
    expect(client.getQueryState(['stations', 'detail', 'OLD'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['stations', 'detail', 'NEW'])?.isInvalidated).toBe(false);
    expect(client.getQueryData(['stations', 'detail', 'OLD'])).toEqual({ lot: 'P1' });
    expect(fetches).not.toHaveBeenCalled();
  });
});

describe('saveQueryCacheWhenHidden', () => {
  it('writes the cache at once when the page is hidden or left, not a throttle later', async () => {
    signIn('user-1');
    const client = new QueryClient();
    const stop = saveQueryCacheWhenHidden(client);
    try {
      client.setQueryData(['stations', 'detail', 'S1'], { stationId: 'S1', parkingLot: 'P1' });
      window.dispatchEvent(new Event('pagehide'));
      await expect.poll(() => get<string>(PERSISTED_CLIENT_KEY, store)).toContain('"parkingLot":"P1"');

      client.setQueryData(['stations', 'detail', 'S1'], { stationId: 'S1', parkingLot: 'P2' });
      const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
      document.dispatchEvent(new Event('visibilitychange'));
      visibility.mockRestore();
      await expect.poll(() => get<string>(PERSISTED_CLIENT_KEY, store)).toContain('"parkingLot":"P2"');
    } finally {
      stop();
    }
    // Unsubscribed: a later pagehide writes nothing.
    client.setQueryData(['stations', 'detail', 'S1'], { stationId: 'S1', parkingLot: 'P3' });
    window.dispatchEvent(new Event('pagehide'));
    await new Promise((r) => setTimeout(r, 50));
    expect(await get<string>(PERSISTED_CLIENT_KEY, store)).toContain('"parkingLot":"P2"');
  });
});

describe('bindQueryCacheToUser', () => {
  it('clears on logout, keeps on session expiry, clears when someone else signs in', () => {
    signIn('user-1');
    const client = new QueryClient();
    const unbind = bindQueryCacheToUser(client);

    client.setQueryData(['locations'], 1);
    clearTokens('session-expired');
    expect(client.getQueryData(['locations'])).toBe(1);

    signIn('user-1');
    expect(client.getQueryData(['locations'])).toBe(1);

    signIn('user-2');
    expect(client.getQueryData(['locations'])).toBeUndefined();

    client.setQueryData(['locations'], 2);
    clearTokens('logout');
    expect(client.getQueryData(['locations'])).toBeUndefined();
    unbind();
  });
});

describe('describeDataAge', () => {
  const base = {
    data: { x: 1 },
    errorUpdatedAt: 0,
    fetchStatus: 'idle' as const,
    status: 'success' as const,
  };

  it('reports restored data as from cache with its age', () => {
    const age = describeDataAge({ ...base, dataUpdatedAt: 1_000 }, 301_000, 2_000);
    expect(age).toEqual({ hasData: true, updatedAt: 1_000, ageMs: 300_000, restored: true, fromCache: true });
  });

  it('reports fresh data as not from cache', () => {
    const age = describeDataAge({ ...base, dataUpdatedAt: 5_000 }, 6_000, 2_000);
    expect(age.fromCache).toBe(false);
    expect(age.ageMs).toBe(1_000);
  });

  it('reports data whose refetch failed or is paused offline as from cache', () => {
    expect(describeDataAge({ ...base, dataUpdatedAt: 5_000, status: 'error', errorUpdatedAt: 6_000 }, 7_000, 2_000).fromCache).toBe(true);
    expect(describeDataAge({ ...base, dataUpdatedAt: 5_000, fetchStatus: 'paused' }, 7_000, 2_000).fromCache).toBe(true);
  });

  it('reports no data', () => {
    expect(describeDataAge(undefined, 1).hasData).toBe(false);
    expect(describeDataAge({ ...base, data: undefined, dataUpdatedAt: 0, status: 'pending' as never }, 1).hasData).toBe(false);
  });
});

describe('useDataAge', () => {
  it('follows the query in the cache without fetching it', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
    const { result } = renderHook(() => useDataAge(['locations', 'list']), { wrapper });
    expect(result.current.hasData).toBe(false);

    act(() => {
      client.setQueryData(['locations', 'list'], [1], { updatedAt: SESSION_STARTED_AT - 60_000 });
    });
    expect(result.current.hasData).toBe(true);
    expect(result.current.restored).toBe(true);
    expect(result.current.ageMs).toBeGreaterThanOrEqual(60_000);

    act(() => {
      client.setQueryData(['locations', 'list'], [2]);
    });
    expect(result.current.fromCache).toBe(false);
  });
});
