import type { BillStatus, PaymentMethod, UserType } from '../../../../contract/enums';
import { queryRoot } from '../../../offline/query-roots';

/** What one page of bills asks the server: the range resolved, only known values (bill-params.ts). */
export interface BillListParams {
  startDate: string;
  endDate: string;
  userTypes: readonly UserType[];
  paymentMethods: readonly PaymentMethod[];
  billingStatuses: readonly BillStatus[];
  /** One end customer's bills (a contract's detail); '' for all. */
  endCustomerId: string;
  /** One contract's bills (a contract's detail); '' or absent for all. */
  contractKey?: string;
  page: number;
  size: number;
}

/**
 * Query keys of the bills area, the only definition of them. Kept on the device (`persist`): an
 * operator's own bills, shown offline with their age.
 */
export const billKeys = {
  all: queryRoot('bills', { persist: true }),
  lists: () => [...billKeys.all, 'list'] as const,
  list: (params: BillListParams) => [...billKeys.lists(), params] as const,
  dropdown: () => [...billKeys.all, 'dropdown'] as const,
};
