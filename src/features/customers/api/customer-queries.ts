import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { paged } from '../../../../contract/common';
import {
  createDashboardUserAnswerSchema,
  customerDetailSchema,
  customerListRowSchema,
  dashboardUserRowSchema,
  type CreateDashboardUserAnswer,
  type CreateDashboardUserBody,
} from '../../../../contract/customers';
import { apiRequest } from '../../../api/client';
import { customerKeys, type CustomerListParams } from './customer-keys';

const customerListAnswerSchema = paged(customerListRowSchema);
const dashboardUsersAnswerSchema = paged(dashboardUserRowSchema);

/** One page of GET /bff/cpos/get-all-customer. */
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

/** Customers one select lists at most (the operator options' size, spec 1 §7). */
export const CUSTOMER_OPTIONS_PAGE_SIZE = 10000;

/**
 * Every customer for a select (admins: the operator wizard names the new operator's customer):
 * GET /bff/cpos/get-all-customer with page 0 and size 10000. Creating a customer refreshes it.
 */
export const customerOptionsQueryOptions = () =>
  queryOptions({
    queryKey: customerKeys.options(),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/cpos/get-all-customer',
        query: { page: 0, size: CUSTOMER_OPTIONS_PAGE_SIZE },
        schema: customerListAnswerSchema,
        signal,
      }),
    select: (answer) => answer.response,
    staleTime: 5 * 60_000,
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

/**
 * Whether a customer number is still free (the wizard's 'validate' button, spec 3 §5): the
 * customer detail answers 404 CUSTOMER_NOT_FOUND for a free one.
 */
export async function isCustomerIdFree(customerId: string): Promise<boolean> {
  try {
    await apiRequest({ service: 'bff', path: `/cpos/get-customer/${encodeURIComponent(customerId)}`, schema: z.unknown() });
    return false;
  } catch (error) {
    if ((error as { status?: number }).status === 404) return true;
    throw error;
  }
}

/**
 * POST /bff/cpos/create-dashboard-user: a new customer with its first user, or a user added to a
 * customer. The key makes a resend of the same filled-in dialog answer with what the first created.
 */
export function createDashboardUser(body: CreateDashboardUserBody, idempotencyKey: string): Promise<CreateDashboardUserAnswer> {
  return apiRequest({
    service: 'bff',
    path: '/cpos/create-dashboard-user',
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: createDashboardUserAnswerSchema,
  });
}

/** POST /contract-management/send-invitation-email/{contractKey}: a new link, the old one void. */
export function resendInvitation(contractKey: string, idempotencyKey: string): Promise<unknown> {
  return apiRequest({
    service: 'contractManagement',
    path: `/send-invitation-email/${encodeURIComponent(contractKey)}`,
    method: 'POST',
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: z.unknown(),
  });
}
