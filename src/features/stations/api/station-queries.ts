import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  createStationsAnswerSchema,
  stationDetailSchema,
  stationListAnswerSchema,
  type CreateStationsAnswer,
  type CreateStationsBody,
} from '../../../../contract/stations';
import { apiRequest } from '../../../api/client';
import { stationKeys, type StationListParams } from './station-keys';

/** One page of GET /bff/connectors/get-by-cpo (server-side filters and paging). */
export const stationListQueryOptions = (params: StationListParams) =>
  queryOptions({
    queryKey: stationKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/connectors/get-by-cpo',
        query: {
          cpId: params.cpId || undefined,
          addressParkingLot: params.addressParkingLot || undefined,
          locationIds: params.locationIds.length ? params.locationIds.join(',') : undefined,
          wallboxModels: params.wallboxModels.length ? params.wallboxModels.join(',') : undefined,
          locationId: params.locationId || undefined,
          page: params.page,
          size: params.size,
        },
        schema: stationListAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** GET /bff/connectors/{id}. */
export const stationDetailQueryOptions = (connectorId: string) =>
  queryOptions({
    queryKey: stationKeys.detail(connectorId),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/connectors/${encodeURIComponent(connectorId)}`,
        schema: stationDetailSchema,
        signal,
      }),
  });

/**
 * POST /bff/connectors/create-cp. The key is made once per submission, so the client's own retry of
 * a 5xx answer cannot create the stations twice.
 */
export function createStations(body: CreateStationsBody, idempotencyKey: string): Promise<CreateStationsAnswer> {
  return apiRequest({
    service: 'bff',
    path: '/connectors/create-cp',
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: createStationsAnswerSchema,
  });
}
