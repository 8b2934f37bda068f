import { listSearch, searchList, searchText } from '../../../ui/list-search';

/*
 * The /nutzer search params, apart from the keys: the route reads them in the route tree, which the
 * first route (sign-in) loads, so this file imports nothing of the area or the contract.
 */

/** The filters of /nutzer as the URL keeps them (with page and size). */
export const userListSearch = listSearch({
  endCustomerId: searchText(),
  name: searchText(),
  rfId: searchText(),
  locationIds: searchList(),
  userTypes: searchList(),
});
export type UserListSearch = typeof userListSearch.defaults;
export type UserFilters = Omit<UserListSearch, 'page' | 'size'>;
export const noUserFilters: UserFilters = { endCustomerId: '', name: '', rfId: '', locationIds: [], userTypes: [] };
