import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  chargingHistoryAnswerSchema,
  cleanChargingRequestsAnswerSchema,
  graphAnswerSchema,
  locationDropdownAnswerSchema,
  type CleanChargingRequestsAnswer,
} from '../../../../contract/cockpit';
import { apiRequest } from '../../../api/client';
import type { GraphParams } from '../graph-params';
import { chargingRequestKeys, cockpitKeys, type HistoryParams } from './cockpit-keys';

/** KPI cards and chart share one call: GET /bff/kpi/get-graph. */
export const graphQueryOptions = (params: GraphParams) =>
  queryOptions({
    queryKey: cockpitKeys.graph(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/kpi/get-graph',
        // The spec's cache-buster; the key leaves it out so equal questions share one cache entry.
        query: { ...params, timestamp: Date.now() },
        schema: graphAnswerSchema,
        signal,
      }),
    // Switching range, type or locations keeps the old bars (dimmed) instead of a blank card.
    placeholderData: keepPreviousData,
  });

/** Locations for the chart's multi-select. */
export const locationOptionsQueryOptions = () =>
  queryOptions({
    queryKey: cockpitKeys.locations(),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/locations/get-by-cpo-for-dropdown',
        schema: locationDropdownAnswerSchema,
        signal,
      }),
    staleTime: 5 * 60_000,
  });

/** One page of the charging-request table, newest first (the server's order). */
export const historyQueryOptions = (params: HistoryParams) =>
  queryOptions({
    queryKey: chargingRequestKeys.history(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bookingService',
        path: '/bookings/get-charging-history',
        query: {
          transactionId: params.transactionId,
          endCustomerId: params.endCustomerId,
          startDate: params.startDate,
          endDate: params.endDate,
          filters: params.filters,
          page: params.page,
          size: params.size,
        },
        schema: chargingHistoryAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** PUT /bff/charging-requests/clean (admin): closes requests stuck longer than the threshold. */
export function cleanChargingRequests(minutesThreshold: number): Promise<CleanChargingRequestsAnswer> {
  return apiRequest({
    service: 'bff',
    path: '/charging-requests/clean',
    method: 'PUT',
    body: { minutesThreshold },
    schema: cleanChargingRequestsAnswerSchema,
  });
}
