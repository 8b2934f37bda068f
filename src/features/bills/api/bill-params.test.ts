import { CalendarDate } from '@internationalized/date';
import { describe, expect, it } from 'vitest';
import { billListParams, defaultBillRange } from './bill-params';
import { billListSearch } from './bill-search';

const today = new CalendarDate(2026, 11, 25);
const search = (raw: Record<string, unknown>) => billListSearch(raw as Parameters<typeof billListSearch>[0]);

describe('the bills request from the URL', () => {
  it('defaults to the first of the month up to today (spec 3 §9)', () => {
    expect(defaultBillRange(today)).toEqual({ startDate: '2026-11-01', endDate: '2026-11-25' });
    expect(billListParams(search({}), today)).toMatchObject({ startDate: '2026-11-01', endDate: '2026-11-25', page: 0 });
  });

  it('keeps a valid range and falls back to the default for a broken, reversed or future one', () => {
    expect(billListParams(search({ startDate: '2026-01-01', endDate: '2026-02-28' }), today)).toMatchObject({
      startDate: '2026-01-01',
      endDate: '2026-02-28',
    });
    for (const range of [
      { startDate: '2026-02-30', endDate: '2026-03-01' },
      { startDate: '2026-03-10', endDate: '2026-03-01' },
      { startDate: '2026-11-01', endDate: '2026-11-26' },
      { startDate: '2026-11-01' },
    ])
      expect(billListParams(search(range), today), JSON.stringify(range)).toMatchObject({ startDate: '2026-11-01', endDate: '2026-11-25' });
  });

  it('sends only known filter values, sorted and once', () => {
    const params = billListParams(
      search({ billingStatuses: ['SENT', 'PAYED', 'GENERATED', 'SENT'], paymentMethods: ['CASH', 'SEPA'], userTypes: ['AD_HOC'] }),
      today,
    );
    expect(params).toMatchObject({
      billingStatuses: ['GENERATED', 'SENT'],
      paymentMethods: ['SEPA'],
      userTypes: ['AD_HOC'],
      endCustomerId: '',
    });
  });
});
