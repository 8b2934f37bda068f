import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient, queryOptions } from '@tanstack/react-query';
import { refreshAfterWrite as refresh, type RefreshTarget } from './refresh-after-write';

const queryClient = new QueryClient();
const refreshAfterWrite = (target: RefreshTarget) => refresh(queryClient, target);
afterEach(() => queryClient.clear());

describe('refreshAfterWrite', () => {
  it('refetches a query named by its factory, also a restored copy without a query function', async () => {
    // As restored from IndexedDB: data, no query function.
    queryClient.setQueryData(['stations', 'detail', 'C1'], { lot: 'P1' });
    const queryFn = vi.fn(async () => ({ lot: 'P2' }));
    refreshAfterWrite(queryOptions({ queryKey: ['stations', 'detail', 'C1'], queryFn }));
    await vi.waitFor(() => expect(queryClient.getQueryData(['stations', 'detail', 'C1'])).toEqual({ lot: 'P2' }));
    expect(queryFn).toHaveBeenCalledTimes(1);
  });

  it('does not fetch a query the cache never had', () => {
    const queryFn = vi.fn(async () => ({ lot: 'P2' }));
    refreshAfterWrite(queryOptions({ queryKey: ['stations', 'detail', 'C9'], queryFn }));
    expect(queryFn).not.toHaveBeenCalled();
  });

  it('refetches the used pages of a key family and drops restored ones no screen asked for', async () => {
    const queryFn = vi.fn(async () => ['new']);
    await queryClient.fetchQuery({ queryKey: ['stations', 'list', { page: 0 }], queryFn });
    queryClient.setQueryData(['stations', 'list', { page: 1 }], ['old']);
    queryClient.setQueryData(['locations', 'list', { page: 0 }], ['other']);
    refreshAfterWrite(['stations', 'list']);
    await vi.waitFor(() => expect(queryFn).toHaveBeenCalledTimes(2));
    expect(queryClient.getQueryData(['stations', 'list', { page: 1 }])).toBeUndefined();
    expect(queryClient.getQueryData(['locations', 'list', { page: 0 }])).toEqual(['other']);
  });

  it("refreshes another area's query that declares it shows the changed family (meta.shows)", async () => {
    const locationFn = vi.fn(async () => ({ operatorName: 'Neu' }));
    const stationFn = vi.fn(async () => ({ lot: 'P1' }));
    await queryClient.fetchQuery({
      queryKey: ['locations', 'detail', 'L1'],
      queryFn: locationFn,
      meta: { shows: [['operators', 'list']] },
    });
    await queryClient.fetchQuery({ queryKey: ['stations', 'detail', 'C1'], queryFn: stationFn });
    // As restored from IndexedDB: no query function, so it is dropped rather than kept stale.
    queryClient.getQueryCache().build(queryClient, { queryKey: ['locations', 'detail', 'L2'], meta: { shows: [['operators']] } });
    queryClient.setQueryData(['locations', 'detail', 'L2'], { operatorName: 'Alt' });
    refreshAfterWrite(['operators', 'list']);
    await vi.waitFor(() => expect(locationFn).toHaveBeenCalledTimes(2));
    expect(stationFn).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(['locations', 'detail', 'L2'])).toBeUndefined();
    // An operator's detail alone is no family the location shows.
    refreshAfterWrite(['operators', 'detail', 'CPO1']);
    await new Promise((r) => setTimeout(r, 10));
    expect(locationFn).toHaveBeenCalledTimes(2);
  });
});
