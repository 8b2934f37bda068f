import type { chartRanges, graphTypes } from '../../../../contract/cockpit';
import { listSearch, searchChoice, searchDate, searchList, searchText } from '../../../ui/list-search';

// The contract's choices spelled out, held to it by their types: contract/cockpit.ts carries zod
// schemas, and this file is on the first route (the route tree reads the search below), which
// leaves zod out.
const ranges = ['DAYS_7', 'DAYS_30', 'MONTHS_12'] as const satisfies typeof chartRanges;
const types = ['TOTAL_ENERGY', 'ACTIVE_USERS'] as const satisfies typeof graphTypes;

/**
 * The cockpit as the URL keeps it: the chart's settings (range, graph type, selected locations;
 * none selected means all) and the charging-request search with its paging. Empty dates mean the
 * default range (the last 7 days up to today, resolved on the page, so a link keeps meaning 'the
 * last week'); unknown statuses are dropped on the page.
 */
export const cockpitSearch = listSearch({
  range: searchChoice(ranges, 'DAYS_7'),
  graphType: searchChoice(types, 'TOTAL_ENERGY'),
  locations: searchList(),
  transactionId: searchText(22),
  endCustomerId: searchText(13),
  startDate: searchDate,
  endDate: searchDate,
  filters: searchList(4),
});
export type CockpitSearch = typeof cockpitSearch.defaults;
