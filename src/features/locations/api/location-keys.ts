import type { UserType } from '../../../../contract/enums';

/** Applied filters of the location list (what was last submitted) plus paging. */
export interface LocationListParams {
  locationName: string;
  address: string;
  page: number;
  size: number;
}

/** Applied filters of a location's users table (what was last submitted) plus paging. */
export interface LocationContractsParams {
  endCustomerId: string;
  name: string;
  rfId: string;
  userTypes: readonly UserType[];
  page: number;
  size: number;
}

/**
 * Query keys of the locations area, hierarchical so a write invalidates exactly what it touched.
 * The root 'locations' is persisted for offline use (src/offline/persister.ts).
 */
export const locationKeys = {
  all: ['locations'] as const,
  lists: () => [...locationKeys.all, 'list'] as const,
  list: (params: LocationListParams) => [...locationKeys.lists(), params] as const,
  details: () => [...locationKeys.all, 'detail'] as const,
  detail: (id: string) => [...locationKeys.details(), id] as const,
  /** The users (contracts) of one location, GET /contract-management/location/{id}/contracts. */
  contracts: (id: string, params: LocationContractsParams) => [...locationKeys.all, 'contracts', id, params] as const,
  /** 'id: name' options of the caller's locations. */
  dropdown: () => [...locationKeys.all, 'dropdown'] as const,
  wallboxTypes: () => [...locationKeys.all, 'wallbox-types'] as const,
  /** The operator select of the wizard (GET /cpos?page=0&size=10000). */
};

export const createLocationMutationKey = [...locationKeys.all, 'create'] as const;
export const updateLocationMutationKey = [...locationKeys.all, 'update'] as const;
