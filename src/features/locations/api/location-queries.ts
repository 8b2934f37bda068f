import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  createLocationAnswerSchema,
  locationDetailSchema,
  locationDropdownAnswerSchema,
  locationListAnswerSchema,
  updateLocationAnswerSchema,
  wallboxTypesAnswerSchema,
  type CreateLocationAnswer,
  type CreateLocationBody,
  type UpdateLocationAnswer,
  type UpdateLocationBody,
} from '../../../../contract/locations';
import { apiRequest } from '../../../api/client';
import { locationKeys, type LocationListParams } from './location-keys';

/** One page of GET /bff/locations/get-by-cpo (server-side filters and paging). */
export const locationListQueryOptions = (params: LocationListParams) =>
  queryOptions({
    queryKey: locationKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/locations/get-by-cpo',
        query: { locationName: params.locationName, address: params.address, page: params.page, size: params.size },
        schema: locationListAnswerSchema,
        signal,
      }),
    // Paging or filtering keeps the old rows (marked busy) instead of an empty table.
    placeholderData: keepPreviousData,
  });

/** GET /bff/locations/{id}. */
export const locationDetailQueryOptions = (id: string) =>
  queryOptions({
    queryKey: locationKeys.detail(id),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/locations/${encodeURIComponent(id)}`,
        schema: locationDetailSchema,
        signal,
      }),
  });

/**
 * The caller's locations as 'id: name' options (GET /bff/locations/get-by-cpo-for-dropdown): the
 * cockpit chart, the station filters and the station wizard all read this one factory.
 */
export const locationDropdownQueryOptions = () =>
  queryOptions({
    queryKey: locationKeys.dropdown(),
    queryFn: ({ signal }) =>
      apiRequest({ service: 'bff', path: '/locations/get-by-cpo-for-dropdown', schema: locationDropdownAnswerSchema, signal }),
    staleTime: 5 * 60_000,
  });

/** Station models (GET /bff/locations/wallboxTypes): the location wizard, the station filters and the station wizard. */
export const wallboxTypesQueryOptions = () =>
  queryOptions({
    queryKey: locationKeys.wallboxTypes(),
    queryFn: ({ signal }) => apiRequest({ service: 'bff', path: '/locations/wallboxTypes', schema: wallboxTypesAnswerSchema, signal }),
    staleTime: 30 * 60_000,
  });

/** POST /bff/locations/location. */
export function createLocation(body: CreateLocationBody): Promise<CreateLocationAnswer> {
  return apiRequest({ service: 'bff', path: '/locations/location', method: 'POST', body, schema: createLocationAnswerSchema });
}

/** PUT /bff/locations/update-location. */
export function updateLocation(body: UpdateLocationBody): Promise<UpdateLocationAnswer> {
  return apiRequest({ service: 'bff', path: '/locations/update-location', method: 'PUT', body, schema: updateLocationAnswerSchema });
}
