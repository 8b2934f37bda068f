import { userTypes, type UserType } from '../../../../contract/enums';

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

/**
 * Query keys of the users area (end customers and their contracts), the only definition of them.
 * The root 'users' is persisted for offline use (src/offline/persister.ts allow-list).
 */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (params: UserListParams) => [...userKeys.lists(), params] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (contractKey: string) => [...userKeys.details(), contractKey] as const,
};

export const isUserType = (value: unknown): value is UserType => (userTypes as readonly unknown[]).includes(value);
