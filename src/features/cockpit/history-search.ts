import { chargingHistoryFilters, type ChargingHistoryFilter } from '../../../contract/cockpit';
import type { ChargingHistoryParams } from '../../shared/charging-requests/charging-request-queries';
import { defaultRange, fromWire, toWire, todayLocal, validateDateRange } from '../../ui/date-range';
import type { CockpitSearch } from './api/cockpit-search';

/*
 * The charging-request search of the cockpit without its form and table: the route's loader asks
 * for the same page as the table, and importing the table's module for that would pull the table,
 * its search form and the date pickers into the cockpit route's chunk instead of their own.
 */

/** What a submitted search asks for; '' values are dropped from the request. */
export interface HistorySearch {
  transactionId: string;
  endCustomerId: string;
  startDate: string;
  endDate: string;
}

/** The default search: no id, the last 7 days up to today (spec 1 §5). */
export function defaultHistorySearch(): HistorySearch {
  const { start, end } = defaultRange(todayLocal());
  return {
    transactionId: '',
    endCustomerId: '',
    startDate: toWire(start),
    endDate: toWire(end),
  };
}

/**
 * The applied search with its dates resolved: empty or invalid ones (an old or hand-edited link)
 * become the default range, so the table always asks a question the server accepts. Only these
 * four fields, so the search form is shown afresh when they change, not when the page or the chart does.
 */
export function resolveHistorySearch({ transactionId, endCustomerId, startDate, endDate }: HistorySearch): HistorySearch {
  const start = fromWire(startDate);
  const end = fromWire(endDate);
  if (start && end && validateDateRange({ start, end }).isValid) return { transactionId, endCustomerId, startDate, endDate };
  const fallback = defaultHistorySearch();
  return { transactionId, endCustomerId, startDate: fallback.startDate, endDate: fallback.endDate };
}

const isFilter = (value: string): value is ChargingHistoryFilter => (chargingHistoryFilters as readonly string[]).includes(value);

/** The request of the applied search: dates resolved, only known statuses, sorted. */
export function historyParams(search: HistorySearch & Pick<CockpitSearch, 'filters' | 'page' | 'size'>): ChargingHistoryParams {
  const { transactionId, endCustomerId, startDate, endDate } = resolveHistorySearch(search);
  return {
    transactionId,
    endCustomerId,
    startDate,
    endDate,
    filters: [...new Set(search.filters.filter(isFilter))].sort(),
    page: search.page,
    size: search.size,
  };
}
