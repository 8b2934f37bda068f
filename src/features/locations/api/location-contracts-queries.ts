import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { locationContractsAnswerSchema } from '../../../../contract/locations';
import { apiRequest } from '../../../api/client';
import { locationKeys, type LocationContractsParams } from './location-keys';

/**
 * One page of GET /contract-management/location/{id}/contracts: the users (contracts) of one
 * location with the /nutzer filters except the location filter (server-side filters and paging).
 */
export const locationContractsQueryOptions = (locationId: string, params: LocationContractsParams) =>
  queryOptions({
    queryKey: locationKeys.contracts(locationId, params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'contractManagement',
        path: `/location/${encodeURIComponent(locationId)}/contracts`,
        query: {
          endCustomerId: params.endCustomerId || undefined,
          name: params.name || undefined,
          rfId: params.rfId || undefined,
          userTypes: params.userTypes.length ? params.userTypes.join(',') : undefined,
          page: params.page,
          size: params.size,
        },
        schema: locationContractsAnswerSchema,
        signal,
      }),
    // Paging or filtering keeps the old rows (marked busy) instead of an empty table, but never the
    // rows of another location when the page switches to a different one.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === locationId ? keepPreviousData(previous) : undefined),
  });
