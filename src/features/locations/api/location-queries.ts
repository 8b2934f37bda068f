import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  createLocationAnswerSchema,
  locationDetailSchema,
  locationDropdownAnswerSchema,
  locationListAnswerSchema,
  updateLocationAnswerSchema,
  wallboxTypesAnswerSchema,
  type CreateLocationBody,
  type UpdateLocationBody,
} from '../../../../contract/locations';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { locationKeys, type LocationListParams } from './location-keys';
import { operatorKeys } from '../../operators/api/operator-keys';

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
    // The page shows its operator's name and address: a change to them refreshes it.
    meta: { shows: [operatorKeys.lists()] },
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

/** POST /bff/locations/location: the new location shows in the lists and in every location select at once. */
export const createLocationMutation = () =>
  plainWrite({
    mutationKey: [...locationKeys.all, 'create'],
    request: (body: CreateLocationBody) => ({ service: 'bff', path: '/locations/location', method: 'POST', body }),
    schema: createLocationAnswerSchema,
    refreshes: () => [locationKeys.lists(), locationDropdownQueryOptions()],
  });

/** PUT /bff/locations/update-location: a new name or address shows on the page, in the lists and the selects. */
export const updateLocationMutation = () =>
  plainWrite({
    mutationKey: [...locationKeys.all, 'update'],
    request: (body: UpdateLocationBody) => ({ service: 'bff', path: '/locations/update-location', method: 'PUT', body }),
    schema: updateLocationAnswerSchema,
    refreshes: (body) => [locationDetailQueryOptions(body.locationId), locationKeys.lists(), locationDropdownQueryOptions()],
  });
