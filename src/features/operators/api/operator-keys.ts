import type { pageSearch } from '../../../ui/list-search';
import { queryRoot } from '../../../offline/query-roots';

/** Paging of the operator list (GET /cpos has no filters). */
export interface OperatorListParams {
  page: number;
  size: number;
}

/**
 * Query keys of the operators area, the only definition of them. Kept on the device for offline
 * use (`persist`), so the list and the details open offline with their age.
 */
export const operatorKeys = {
  all: queryRoot('operators', { persist: true }),
  lists: () => [...operatorKeys.all, 'list'] as const,
  list: (params: OperatorListParams) => [...operatorKeys.lists(), params] as const,
  details: () => [...operatorKeys.all, 'detail'] as const,
  detail: (cpoId: string) => [...operatorKeys.details(), cpoId] as const,
};

/** /betreiber keeps only its paging in the URL (the route's search is ui/list-search.ts pageSearch). */
export type OperatorFilters = Omit<typeof pageSearch.defaults, 'page' | 'size'>;
export const noOperatorFilters: OperatorFilters = {};
