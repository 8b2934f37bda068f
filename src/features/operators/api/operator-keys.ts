import type * as z from 'zod/mini';
import { listSearchSchema } from '../../../ui/list-search';

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

/** The paging of /betreiber as the URL keeps it. */
export const operatorListSearchSchema = listSearchSchema({});
export type OperatorListSearch = z.infer<typeof operatorListSearchSchema>;
export type OperatorFilters = Omit<OperatorListSearch, 'page' | 'size'>;
export const noOperatorFilters: OperatorFilters = {};
