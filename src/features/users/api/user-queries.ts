import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { contractDetailSchema, contractListAnswerSchema, historyExportFileName } from '../../../../contract/contracts';
import { apiRequest } from '../../../api/client';
import { isApiError } from '../../../api/errors';
import { isUserType, userKeys, type UserListParams } from './user-keys';

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
  });

/** Hands a downloaded file to the browser under `filename`. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The contract PDF (GET /pdf/{contractKey}?verificationId={contractId}). It needs the bearer token,
 * so it is fetched as a blob and opened from memory, not linked.
 */
export async function fetchContractPdf(contractKey: string, contractId: string): Promise<{ blob: Blob; filename: string }> {
  const result = await apiRequest({
    service: 'contractManagement',
    path: `/pdf/${encodeURIComponent(contractKey)}`,
    query: { verificationId: contractId },
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
