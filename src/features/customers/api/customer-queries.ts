import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { paged } from '../../../../contract/common';
import {
  createDashboardUserAnswerSchema,
  customerDetailSchema,
  customerListRowSchema,
  dashboardUserRowSchema,
  type CreateDashboardUserBody,
} from '../../../../contract/customers';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { customerKeys, type CustomerListParams } from './customer-keys';

const customerListAnswerSchema = paged(customerListRowSchema);
const dashboardUsersAnswerSchema = paged(dashboardUserRowSchema);

/** Every customer, for a select (admins: the operator wizard names the new operator's customer). */
export const ALL_CUSTOMERS: CustomerListParams = { page: 0, size: 10000 };

/** One page of GET /bff/cpos/get-all-customer: the list page, and with ALL_CUSTOMERS every customer select. */
export const customerListQueryOptions = (params: CustomerListParams) =>
  queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/cpos/get-all-customer',
        query: { page: params.page, size: params.size },
        schema: customerListAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** 'id: name', as the customer select lists them. */
export const customerLabel = (c: { customerId: string; companyName: string }) => `${c.customerId}: ${c.companyName}`;

/** GET /bff/cpos/get-customer/{id}. */
export const customerDetailQueryOptions = (customerId: string) =>
  queryOptions({
    queryKey: customerKeys.detail(customerId),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/cpos/get-customer/${encodeURIComponent(customerId)}`,
        schema: customerDetailSchema,
        signal,
      }),
  });

/** One page of a customer's dashboard users: GET /bff/cpos/get-dashboard-user/{id}. */
export const dashboardUsersQueryOptions = (customerId: string, params: CustomerListParams) =>
  queryOptions({
    queryKey: customerKeys.userPage(customerId, params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/cpos/get-dashboard-user/${encodeURIComponent(customerId)}`,
        query: { page: params.page, size: params.size },
        schema: dashboardUsersAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** Whether a customer number is still free (the wizard's 'validate' button, spec 3 §5): a boolean, never a 404. */
export const isCustomerIdFree = (customerId: string): Promise<boolean> =>
  apiRequest({ service: 'bff', path: `/cpos/customer-id/${encodeURIComponent(customerId)}/validate`, method: 'POST', schema: z.boolean() });

/** Whether no dashboard account uses the e-mail yet (checked when the field is left). */
export const isEmailFree = (email: string): Promise<boolean> =>
  apiRequest({ service: 'bff', path: '/cpos/validate-email', method: 'POST', body: { email }, schema: z.boolean() });

/**
 * POST /bff/cpos/create-dashboard-user: a new customer with its first user, or a user added to a
 * customer; either shows in the customer lists and selects and on the customer's page.
 */
export const createDashboardUserMutation = () =>
  plainWrite({
    mutationKey: [...customerKeys.all, 'create-dashboard-user'],
    request: (body: CreateDashboardUserBody) => ({ service: 'bff', path: '/cpos/create-dashboard-user', method: 'POST', body }),
    schema: createDashboardUserAnswerSchema,
    refreshes: (body) => [customerKeys.lists(), customerKeys.detail(body.customerId)],
  });

/** POST /contract-management/send-invitation-email/{contractKey}: a new link, the old one void. */
export const resendInvitationMutation = () =>
  plainWrite({
    mutationKey: [...customerKeys.all, 'resend-invitation'],
    request: ({ contractKey }: { customerId: string; contractKey: string }) => ({
      service: 'contractManagement',
      path: `/send-invitation-email/${encodeURIComponent(contractKey)}`,
      method: 'POST',
    }),
    schema: z.unknown(),
    refreshes: ({ customerId }) => [customerDetailQueryOptions(customerId)],
  });
