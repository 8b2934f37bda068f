import type * as z from 'zod/mini';
import { listSearchSchema, searchList, searchText } from '../../../ui/list-search';

/*
 * The /nutzer search params, apart from the keys: the route's search schema is in the route tree,
 * which the first route (sign-in) loads, so this file imports nothing of the area or the contract.
 */

/** The filters of /nutzer as the URL keeps them (with page and size). */
export const userListSearchSchema = listSearchSchema({
  endCustomerId: searchText(),
  name: searchText(),
  rfId: searchText(),
  locationIds: searchList(),
  userTypes: searchList(),
});
export type UserListSearch = z.infer<typeof userListSearchSchema>;
export type UserFilters = Omit<UserListSearch, 'page' | 'size'>;
export const noUserFilters: UserFilters = { endCustomerId: '', name: '', rfId: '', locationIds: [], userTypes: [] };
