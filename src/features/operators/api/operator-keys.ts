import type * as z from 'zod/mini';
import { listSearchSchema } from '../../../ui/list-search';
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

/** The paging of /betreiber as the URL keeps it. */
export const operatorListSearchSchema = listSearchSchema({});
export type OperatorListSearch = z.infer<typeof operatorListSearchSchema>;
export type OperatorFilters = Omit<OperatorListSearch, 'page' | 'size'>;
export const noOperatorFilters: OperatorFilters = {};
