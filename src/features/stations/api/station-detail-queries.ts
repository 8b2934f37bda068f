import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { chargingHistoryAnswerSchema } from '../../../../contract/cockpit';
import { stationDetailSchema } from '../../../../contract/stations';
import { apiRequest } from '../../../api/client';
import { stationDetailKeys, type StationHistoryParams } from './station-detail-keys';

/** GET /bff/connectors/{id}. */
export const stationDetailQueryOptions = (connectorId: string) =>
  queryOptions({
    queryKey: stationDetailKeys.detail(connectorId),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/connectors/${encodeURIComponent(connectorId)}`,
        schema: stationDetailSchema,
        signal,
      }),
  });

/** Only successful charging requests are listed on the station page. */
export const STATION_HISTORY_FILTERS = 'Completed';

/** One page of the connector's successful charging requests, newest first. */
export const stationHistoryQueryOptions = (params: StationHistoryParams) =>
  queryOptions({
    queryKey: stationDetailKeys.history(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bookingService',
        path: '/bookings/get-charging-history',
        query: {
          connectorId: params.connectorId,
          startDate: params.startDate,
          endDate: params.endDate,
          filters: STATION_HISTORY_FILTERS,
          page: params.page,
          size: params.size,
        },
        schema: chargingHistoryAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
