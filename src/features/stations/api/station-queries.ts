import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  createStationsAnswerSchema,
  stationDetailSchema,
  stationListAnswerSchema,
  type CreateStationsBody,
} from '../../../../contract/stations';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { cockpitKeys } from '../../cockpit/api/cockpit-keys';
import { locationKeys } from '../../locations/api/location-keys';
import { locationDetailQueryOptions } from '../../locations/api/location-queries';
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
    // Each row shows its location's name and address: a location edit refreshes the rows.
    meta: { shows: [locationKeys.details()] },
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
    meta: { shows: [locationKeys.details()] },
  });

/**
 * POST /bff/connectors/create-cp: the new connectors show in the station lists, in their location's
 * counts (its page and the location list) and in the cockpit's licence count.
 */
export const createStationsMutation = () =>
  plainWrite({
    mutationKey: [...stationKeys.all, 'create'],
    request: (body: CreateStationsBody) => ({ service: 'bff', path: '/connectors/create-cp', method: 'POST', body }),
    schema: createStationsAnswerSchema,
    refreshes: (body) => [stationKeys.lists(), locationDetailQueryOptions(body.locationId), locationKeys.lists(), cockpitKeys.graphs()],
  });
