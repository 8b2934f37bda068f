import { billStatuses, paymentMethods, userTypes } from '../../../../contract/enums';
import { fromWire, todayLocal, toWire, validateDateRange } from '../../../ui/date-range';
import type { BillListParams } from './bill-keys';
import type { BillListSearch } from './bill-search';

/** The bills page's default range (spec 3 §9): the first of the current month up to today. */
export function defaultBillRange(today = todayLocal()): { startDate: string; endDate: string } {
  return { startDate: toWire(today.set({ day: 1 })), endDate: toWire(today) };
}

const known = <T extends string>(values: readonly T[], raw: readonly string[]): T[] =>
  [...new Set(raw.filter((v): v is T => (values as readonly string[]).includes(v)))].sort();

/**
 * The request of the URL's search: a missing or broken range (an old or hand-edited link) becomes
 * the default one, unknown filter values are left out, so the page always asks what the server accepts.
 */
export function billListParams(search: BillListSearch, today = todayLocal()): BillListParams {
  const start = fromWire(search.startDate);
  const end = fromWire(search.endDate);
  const range = start && end && validateDateRange({ start, end }, today).isValid ? search : defaultBillRange(today);
  return {
    startDate: range.startDate,
    endDate: range.endDate,
    userTypes: known(userTypes, search.userTypes),
    paymentMethods: known(paymentMethods, search.paymentMethods),
    billingStatuses: known(billStatuses, search.billingStatuses),
    endCustomerId: '',
    page: search.page,
    size: search.size,
  };
}
