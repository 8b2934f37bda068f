import { userTypes, type UserType } from '../../../../contract/enums';
import { queryRoot } from '../../../offline/query-roots';

/** Applied filters of the user list (what was last submitted) plus paging. */
export interface UserListParams {
  endCustomerId: string;
  name: string;
  rfId: string;
  locationIds: readonly string[];
  /** Only the known user types are sent (the URL may hold anything). */
  userTypes: readonly string[];
  page: number;
  size: number;
}

/** Applied filters of a location's users tab (the /nutzer filters but the location) plus paging. */
export interface LocationUsersParams {
  endCustomerId: string;
  name: string;
  rfId: string;
  userTypes: readonly UserType[];
  page: number;
  size: number;
}

/**
 * Query keys of the users area (end customers and their contracts), the only definition of them.
 * Kept on the device for offline use (`persist`, offline/query-roots.ts).
 */
export const userKeys = {
  all: queryRoot('users', { persist: true }),
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
  /** A location's users tab: a list too, so whatever refreshes the user lists refreshes it. */
  locationList: (locationId: string, params: LocationUsersParams) => [...userKeys.lists(), 'location', locationId, params] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (contractKey: string) => [...userKeys.details(), contractKey] as const,
};

export const isUserType = (value: unknown): value is UserType => (userTypes as readonly unknown[]).includes(value);
