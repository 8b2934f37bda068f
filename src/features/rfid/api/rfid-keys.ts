import type { pageSearch } from '../../../ui/list-search';
import { queryRoot } from '../../../offline/query-roots';

export interface RfidListParams {
  page: number;
  size: number;
}

/** Query keys of the RFID area, the only definition of them; never kept on the device (admin office work, other companies' cards). */
export const rfidKeys = {
  all: queryRoot('rfid', { persist: false }),
  lists: () => [...rfidKeys.all, 'list'] as const,
  list: (params: RfidListParams) => [...rfidKeys.lists(), params] as const,
};

/** /rfid keeps only its paging in the URL (the route's search is ui/list-search.ts pageSearch). */
export type RfidFilters = Omit<typeof pageSearch.defaults, 'page' | 'size'>;
export const noRfidFilters: RfidFilters = {};
