import { queryRoot } from '../../../offline/query-roots';

/** Applied filters of the location list (what was last submitted) plus paging. */
export interface LocationListParams {
  locationName: string;
  address: string;
  page: number;
  size: number;
}

/**
 * Query keys of the locations area, hierarchical so a write invalidates exactly what it touched.
 * Kept on the device for offline use (`persist`, offline/query-roots.ts).
 */
export const locationKeys = {
  all: queryRoot('locations', { persist: true }),
  lists: () => [...locationKeys.all, 'list'] as const,
  list: (params: LocationListParams) => [...locationKeys.lists(), params] as const,
  details: () => [...locationKeys.all, 'detail'] as const,
  detail: (id: string) => [...locationKeys.details(), id] as const,
  /** 'id: name' options of the caller's locations. */
  dropdown: () => [...locationKeys.all, 'dropdown'] as const,
  wallboxTypes: () => [...locationKeys.all, 'wallbox-types'] as const,
};
