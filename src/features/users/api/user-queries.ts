import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { contractDetailSchema, contractListAnswerSchema } from '../../../../contract/contracts';
import { historyExportFileName } from '../../../../contract/contract-bookings';
import { locationContractsAnswerSchema } from '../../../../contract/locations';
import { apiRequest } from '../../../api/client';
import { isApiError } from '../../../api/errors';
import { billKeys } from '../../bills/api/bill-keys';
import { isUserType, userKeys, type LocationUsersParams, type UserListParams } from './user-keys';

/** Users lists and a contract's page show its newest bill's status: a bill write refreshes them (offline/refresh-after-write.ts). */
const showsBills = { shows: [billKeys.lists()] };

/** One page of GET /contract-management/contracts/operator (server-side filters and paging). */
export const userListQueryOptions = (params: UserListParams) =>
  queryOptions({
    queryKey: userKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'contractManagement',
        path: '/contracts/operator',
        query: {
          endCustomerId: params.endCustomerId || undefined,
          name: params.name || undefined,
          rfId: params.rfId || undefined,
          locationIds: params.locationIds.length ? params.locationIds.join(',') : undefined,
          userTypes: params.userTypes.filter(isUserType).join(',') || undefined,
          page: params.page,
          size: params.size,
        },
        schema: contractListAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
    meta: showsBills,
  });

/**
 * One page of GET /contract-management/location/{id}/contracts: the users (contracts) of one
 * location with the /nutzer filters except the location filter (server-side filters and paging).
 */
export const locationUsersQueryOptions = (locationId: string, params: LocationUsersParams) =>
  queryOptions({
    queryKey: userKeys.locationList(locationId, params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'contractManagement',
        path: `/location/${encodeURIComponent(locationId)}/contracts`,
        query: {
          endCustomerId: params.endCustomerId || undefined,
          name: params.name || undefined,
          rfId: params.rfId || undefined,
          userTypes: params.userTypes.length ? params.userTypes.join(',') : undefined,
          page: params.page,
          size: params.size,
        },
        schema: locationContractsAnswerSchema,
        signal,
      }),
    meta: showsBills,
    // Paging or filtering keeps the old rows (marked busy) instead of an empty table, but never the
    // rows of another location when the page switches to a different one.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === locationId ? keepPreviousData(previous) : undefined),
  });

/** GET /contract-management/contract/id/{contractKey}: the contract with its version. */
export const userDetailQueryOptions = (contractKey: string) =>
  queryOptions({
    queryKey: userKeys.detail(contractKey),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'contractManagement',
        path: `/contract/id/${encodeURIComponent(contractKey)}`,
        schema: contractDetailSchema,
        signal,
      }),
    meta: showsBills,
  });

/**
 * Whether an end-customer id the operator typed is still free (the wizard's id check): for a new
 * contract among the operator's (`cpoId`), for an edit among the others than `contractKey`.
 */
export function isEndCustomerIdFree(id: string, of: { cpoId: string } | { contractKey: string }): Promise<boolean> {
  return apiRequest({
    service: 'contractManagement',
    path:
      'contractKey' in of
        ? `/end-customer-id/${encodeURIComponent(id)}/validate/on-update/${encodeURIComponent(of.contractKey)}`
        : `/end-customer-id/${encodeURIComponent(id)}/validate/on-create`,
    method: 'POST',
    query: 'cpoId' in of ? { cpoId: of.cpoId } : undefined,
    schema: z.boolean(),
  });
}

/**
 * The contract PDF (GET /pdf/{contractKey}?verificationId={contractId}). It needs the bearer token,
 * so it is fetched as a blob and opened from memory, not linked.
 */
export async function fetchContractPdf(contractKey: string, contractId: string): Promise<{ blob: Blob; filename: string }> {
  const result = await apiRequest({
    service: 'contractManagement',
    path: `/pdf/${encodeURIComponent(contractKey)}`,
    // Shown in a tab, not saved: the server answers a download unless asked to view.
    query: { verificationId: contractId, view: 'true' },
    responseType: 'blob',
  });
  return { blob: result.blob, filename: result.filename ?? `${contractKey}.pdf` };
}

/**
 * The contract's charging history of a range as CSV (spec 2 §7); null when there is nothing to
 * download (204, or 404: 'no info found').
 */
export async function fetchHistoryCsv(
  contractKey: string,
  startDate: string,
  endDate: string,
  today: string,
): Promise<{ blob: Blob; filename: string } | null> {
  try {
    const result = await apiRequest({
      service: 'bookingService',
      path: '/bookings/charging-history/export',
      query: { contractKey, startDate, endDate, format: 'CSV' },
      responseType: 'blob',
    });
    if (result.status === 204) return null;
    return { blob: result.blob, filename: result.filename ?? historyExportFileName(today) };
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}
