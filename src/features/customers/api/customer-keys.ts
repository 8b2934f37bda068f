import type { pageSearch } from '../../../ui/list-search';
import { queryRoot } from '../../../offline/query-roots';

export interface CustomerListParams {
  page: number;
  size: number;
}

/**
 * Query keys of the customers area, the only definition of them. Never kept on the device:
 * customer management is office work of platform admins, and its lists name other companies.
 */
export const customerKeys = {
  all: queryRoot('customers', { persist: false }),
  lists: () => [...customerKeys.all, 'list'] as const,
  list: (params: CustomerListParams) => [...customerKeys.lists(), params] as const,
  details: () => [...customerKeys.all, 'detail'] as const,
  detail: (customerId: string) => [...customerKeys.details(), customerId] as const,
  users: (customerId: string) => [...customerKeys.detail(customerId), 'users'] as const,
  userPage: (customerId: string, params: CustomerListParams) => [...customerKeys.users(customerId), params] as const,
};

/** /customers keeps only its paging in the URL (the route's search is ui/list-search.ts pageSearch). */
export type CustomerFilters = Omit<typeof pageSearch.defaults, 'page' | 'size'>;
export const noCustomerFilters: CustomerFilters = {};
