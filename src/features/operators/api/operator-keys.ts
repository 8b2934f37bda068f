import type { pageSearch } from '../../../ui/list-search';

/** Paging of the operator list (GET /cpos has no filters). */
export interface OperatorListParams {
  page: number;
  size: number;
}

/**
 * Query keys of the operators area, the only definition of them. The root 'operators' is persisted
 * for offline use (src/offline/persister.ts), so the list and the details open offline with their age.
 */
export const operatorKeys = {
  all: ['operators'] as const,
  lists: () => [...operatorKeys.all, 'list'] as const,
  list: (params: OperatorListParams) => [...operatorKeys.lists(), params] as const,
  details: () => [...operatorKeys.all, 'detail'] as const,
  detail: (cpoId: string) => [...operatorKeys.details(), cpoId] as const,
  /** Every operator of the caller as 'id: name' options (GET /cpos?page=0&size=10000): every operator select. */
  options: () => [...operatorKeys.all, 'options'] as const,
};

export const createOperatorMutationKey = [...operatorKeys.all, 'create'] as const;

/** /betreiber keeps only its paging in the URL (the route's search is ui/list-search.ts pageSearch). */
export type OperatorFilters = Omit<typeof pageSearch.defaults, 'page' | 'size'>;
export const noOperatorFilters: OperatorFilters = {};
