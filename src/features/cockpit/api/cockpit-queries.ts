import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { cleanChargingRequestsAnswerSchema, graphAnswerSchema } from '../../../../contract/cockpit';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { chargingRequestKeys } from '../../../shared/charging-requests/charging-request-queries';
import type { GraphParams } from '../graph-params';
import { cockpitKeys } from './cockpit-keys';

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

/**
 * PUT /bff/charging-requests/clean (admin): closes requests stuck longer than the threshold, which
 * changes exactly the request rows and the KPIs and chart computed from them.
 */
export const cleanChargingRequestsMutation = () =>
  plainWrite({
    mutationKey: [...chargingRequestKeys.all, 'clean'],
    request: (minutesThreshold: number) => ({
      service: 'bff',
      path: '/charging-requests/clean',
      method: 'PUT',
      body: { minutesThreshold },
    }),
    schema: cleanChargingRequestsAnswerSchema,
    refreshes: () => [chargingRequestKeys.histories(), cockpitKeys.graphs()],
  });
