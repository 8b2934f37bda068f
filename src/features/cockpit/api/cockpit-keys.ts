import * as z from 'zod/mini';
import { listSearchSchema, searchList, searchText } from '../../../ui/list-search';
import type { GraphParams } from '../graph-params';
import { queryRoot } from '../../../offline/query-roots';

/**
 * Query keys of the cockpit, hierarchical so a write can invalidate exactly what it touched. The
 * cockpit is kept on the device for offline use (`persist`, offline/query-roots.ts). Charging requests are
 * their own keys (src/shared/charging-requests), the location dropdown is the locations area's.
 */
export const cockpitKeys = {
  all: queryRoot('cockpit', { persist: true }),
  graphs: () => [...cockpitKeys.all, 'graph'] as const,
  graph: (params: GraphParams) => [...cockpitKeys.graphs(), params] as const,
};

/** 'yyyy-MM-dd' or '' (the default range); anything else falls back to ''. */
const wireDate = z.catch(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/)), '');

/**
 * The cockpit's charging-request search as the URL keeps it. Empty dates mean the default range
 * (the last 7 days up to today, resolved on the page, so a link keeps meaning 'the last week');
 * unknown statuses are dropped on the page.
 */
export const cockpitSearchSchema = listSearchSchema({
  transactionId: searchText(22),
  endCustomerId: searchText(13),
  startDate: z._default(wireDate, ''),
  endDate: z._default(wireDate, ''),
  filters: searchList(4),
});
export type CockpitSearch = z.infer<typeof cockpitSearchSchema>;
export type CockpitHistoryFilters = Omit<CockpitSearch, 'page' | 'size'>;
export const noCockpitFilters: CockpitHistoryFilters = { transactionId: '', endCustomerId: '', startDate: '', endDate: '', filters: [] };
