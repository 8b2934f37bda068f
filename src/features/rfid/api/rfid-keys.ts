import type * as z from 'zod/mini';
import { listSearchSchema } from '../../../ui/list-search';
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

/** The paging of /rfid as the URL keeps it. */
export const rfidListSearchSchema = listSearchSchema({});
export type RfidListSearch = z.infer<typeof rfidListSearchSchema>;
export type RfidFilters = Omit<RfidListSearch, 'page' | 'size'>;
export const noRfidFilters: RfidFilters = {};
