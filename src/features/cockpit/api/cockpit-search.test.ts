import { describe, expect, it } from 'vitest';
import { DEFAULT_PAGE_SIZE } from '../../../ui/paging';
import { cockpitSearch } from './cockpit-search';

const parse = (raw: Record<string, unknown>) => cockpitSearch(raw as Parameters<typeof cockpitSearch>[0]);

describe('the cockpit search', () => {
  it('is the 7-day energy chart of every location and the last week of requests by default', () => {
    expect(parse({})).toEqual({
      range: 'DAYS_7',
      graphType: 'TOTAL_ENERGY',
      locations: [],
      transactionId: '',
      endCustomerId: '',
      startDate: '',
      endDate: '',
      filters: [],
      page: 0,
      size: DEFAULT_PAGE_SIZE,
    });
    expect(cockpitSearch.defaults).toEqual(parse({}));
  });

  it('keeps the chart settings of the URL, and falls back on broken ones', () => {
    expect(parse({ range: 'MONTHS_12', graphType: 'ACTIVE_USERS', locations: ['L2', 'L1', 'L2'] })).toMatchObject({
      range: 'MONTHS_12',
      graphType: 'ACTIVE_USERS',
      locations: ['L1', 'L2'],
    });
    expect(parse({ range: 'DAYS_9', graphType: 'PIE', locations: 'L1' })).toMatchObject({
      range: 'DAYS_7',
      graphType: 'TOTAL_ENERGY',
      locations: [],
    });
  });

  it('keeps the history search within its limits', () => {
    expect(
      parse({ transactionId: 'x'.repeat(23), endCustomerId: ' 123-45678-901 ', startDate: '2025-3-1', filters: ['a', 'b', 'c', 'd', 'e'] }),
    ).toMatchObject({
      transactionId: '',
      endCustomerId: '123-45678-901',
      startDate: '',
      filters: [],
    });
  });
});
