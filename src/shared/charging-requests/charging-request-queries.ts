import { keepPreviousData, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  chargingHistoryAnswerSchema,
  historyCursor,
  type ChargingHistoryAnswer,
  type ChargingHistoryFilter,
} from '../../../contract/cockpit';
import { apiRequest } from '../../api/client';
import { queryRoot } from '../../offline/query-roots';

/**
 * One page of GET /booking-service/bookings/get-charging-history: the cockpit's charging-request
 * table (all of the caller's connectors) and the station page's history (one connector, successful
 * requests only) read the same endpoint, so they share this one factory and its keys.
 */
export interface ChargingHistoryParams {
  /** The station page: only this connector's requests. */
  connectorId?: string;
  /** The user page: only this contract's requests. */
  contractKey?: string;
  transactionId?: string;
  endCustomerId?: string;
  startDate: string;
  endDate: string;
  /** Sorted; empty means every status. */
  filters: readonly ChargingHistoryFilter[];
  page: number;
  size: number;
}

/**
 * Query keys of charging requests, kept on the device for offline use (`persist`,
 * offline/query-roots.ts).
 */
export const chargingRequestKeys = {
  all: queryRoot('charging-requests', { persist: true }),
  histories: () => [...chargingRequestKeys.all, 'history'] as const,
  history: (params: ChargingHistoryParams) => [...chargingRequestKeys.histories(), params] as const,
};

/**
 * The page before this one, when the cache has it whole: the server then reads on from its last
 * row (keyset paging, contract historyCursorSchema) instead of walking every row before the page.
 * Without it (a reload on page 5, a jump) the offset is used.
 */
function cursorBefore(client: QueryClient, params: ChargingHistoryParams): string | undefined {
  if (params.page === 0) return undefined;
  const before = client.getQueryData<ChargingHistoryAnswer>(chargingRequestKeys.history({ ...params, page: params.page - 1 }));
  const last = before?.response.length === params.size ? before.response[params.size - 1] : undefined;
  return last ? historyCursor(last) : undefined;
}

export const chargingHistoryQueryOptions = (params: ChargingHistoryParams) =>
  queryOptions({
    queryKey: chargingRequestKeys.history(params),
    queryFn: ({ signal, client }) =>
      apiRequest({
        service: 'bookingService',
        path: '/bookings/get-charging-history',
        query: {
          after: cursorBefore(client, params),
          connectorId: params.connectorId || undefined,
          contractKey: params.contractKey || undefined,
          transactionId: params.transactionId || undefined,
          endCustomerId: params.endCustomerId || undefined,
          startDate: params.startDate,
          endDate: params.endDate,
          filters: params.filters.length ? params.filters : undefined,
          page: params.page,
          size: params.size,
        },
        schema: chargingHistoryAnswerSchema,
        signal,
      }),
    // Paging or a new search keeps the old rows (marked busy) instead of an empty table.
    placeholderData: keepPreviousData,
  });
