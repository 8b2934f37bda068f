import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRuntimeConfig } from '../../../contract/config';
import type { ChargingRequestRow } from '../../../contract/cockpit';
import { resetRuntimeConfig } from '../../api/config';
import { chargingHistoryQueryOptions, type ChargingHistoryParams } from './charging-request-queries';

const row = (n: number) => ({ transactionId: `TX${n}`, startDate: `2026-03-0${n}T10:00:00.000Z` }) as ChargingRequestRow;
const params = (page: number): ChargingHistoryParams => ({ startDate: '2026-03-01', endDate: '2026-03-31', filters: [], page, size: 2 });

let fetchMock: ReturnType<typeof vi.fn>;
let client: QueryClient;
const sentAfter = () => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').searchParams.get('after'));

beforeEach(() => {
  resetRuntimeConfig(defaultRuntimeConfig);
  fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify({ data: { totalNumberOfRecords: 9, response: [] } }), {
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});
afterEach(() => {
  client.clear();
  vi.unstubAllGlobals();
  resetRuntimeConfig();
});

describe('chargingHistoryQueryOptions', () => {
  it('reads on from the last row of the cached page before (keyset), else by offset', async () => {
    await client.fetchQuery(chargingHistoryQueryOptions(params(3)));
    client.setQueryData(chargingHistoryQueryOptions(params(0)).queryKey, { totalNumberOfRecords: 9, response: [row(1), row(2)] });
    await client.fetchQuery(chargingHistoryQueryOptions(params(1)));
    // A page before that is not whole (the end of the list) gives no cursor.
    client.setQueryData(chargingHistoryQueryOptions(params(5)).queryKey, { totalNumberOfRecords: 9, response: [row(3)] });
    await client.fetchQuery(chargingHistoryQueryOptions(params(6)));
    await client.fetchQuery(chargingHistoryQueryOptions(params(0)));
    expect(sentAfter()).toEqual([null, '2026-03-02T10:00:00.000Z|TX2', null, null]);
  });
});
