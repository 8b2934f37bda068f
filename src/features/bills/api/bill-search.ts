import { listSearch, searchDate, searchList } from '../../../ui/list-search';

/*
 * The /rechnungen search params, apart from the keys: the route reads them in the route tree, which
 * the first route (sign-in) loads, so this file imports nothing of the area or the contract.
 */

/** The filters of /rechnungen as the URL keeps them (with page and size); '' dates are the default range. */
export const billListSearch = listSearch({
  startDate: searchDate,
  endDate: searchDate,
  userTypes: searchList(),
  paymentMethods: searchList(),
  billingStatuses: searchList(),
});
export type BillListSearch = typeof billListSearch.defaults;
export type BillFilters = Omit<BillListSearch, 'page' | 'size'>;
export const noBillFilters: BillFilters = { startDate: '', endDate: '', userTypes: [], paymentMethods: [], billingStatuses: [] };
