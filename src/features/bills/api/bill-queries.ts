import { keepPreviousData, mutationOptions, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import {
  BILLS_ZIP_NAME,
  billPageSchema,
  billPdfPath,
  regenerateAnswerSchema,
  type BillRow,
  type RegenerateBillsBody,
} from '../../../../contract/bills';
import { dropdownEntrySchema } from '../../../../contract/dropdown';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { billKeys, type BillListParams } from './bill-keys';

/** One page of GET /booking-service/bookings/get-bills/operator (spec 3 §7: Berlin days, ' 00:00' to ' 23:59'). */
export const billListQueryOptions = (params: BillListParams) =>
  queryOptions({
    queryKey: billKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bookingService',
        path: '/bookings/get-bills/operator',
        query: {
          startDate: params.startDate ? `${params.startDate} 00:00` : undefined,
          endDate: params.endDate ? `${params.endDate} 23:59` : undefined,
          userTypes: params.userTypes.join(',') || undefined,
          paymentMethods: params.paymentMethods.join(',') || undefined,
          billingStatuses: params.billingStatuses.join(',') || undefined,
          endCustomerId: params.endCustomerId || undefined,
          contractKey: params.contractKey || undefined,
          page: params.page,
          size: params.size,
        },
        schema: billPageSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** The filters' options (spec 3 §2): GET /bff/dropdown-configuration for USER_TYPE, PAYMENT_METHOD, BILLING_STATUS. */
export const billDropdownQueryOptions = () =>
  queryOptions({
    queryKey: billKeys.dropdown(),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/dropdown-configuration',
        query: { mappingTypes: 'USER_TYPE,PAYMENT_METHOD,BILLING_STATUS' },
        schema: z.array(dropdownEntrySchema),
        signal,
      }),
    staleTime: 30 * 60_000,
  });

/**
 * A bill's PDF (GET /bookings/pdf/{billNumber}?verificationId={billId}). It needs the bearer token,
 * so it is fetched as a blob and opened from memory, as the contract PDF is. The server notes the
 * first download, so the lists are refreshed once it answered (a mutation for that reason).
 */
export const billPdfMutation = () =>
  mutationOptions({
    mutationKey: [...billKeys.all, 'pdf'],
    mutationFn: async (bill: Pick<BillRow, 'billNumber' | 'billId'>) =>
      (await apiRequest({ service: 'bookingService', path: billPdfPath(bill), query: { view: 'true' }, responseType: 'blob' })).blob,
    meta: { refreshes: () => [billKeys.lists()] },
    networkMode: 'always',
    retry: false,
    // The file is the caller's once saved or opened; the cache keeps no copy of it.
    gcTime: 0,
  });

/**
 * The selected bills' PDFs as one zip (POST /bookings/download-bill), read as it streams in with
 * the bytes received reported; named as the server says, 'Rechnungen.zip' otherwise. Not a write
 * (it changes nothing the screen shows), so no overlay: the dialog shows the progress.
 */
export async function downloadBillsZip(
  bills: readonly Pick<BillRow, 'billNumber' | 'billId'>[],
  onProgress: (received: number, total: number | null) => void,
  signal?: AbortSignal,
): Promise<{ blob: Blob; filename: string }> {
  const result = await apiRequest({
    service: 'bookingService',
    path: '/bookings/download-bill',
    method: 'POST',
    body: { billPdfDtoList: bills.map((b) => ({ billId: b.billId, billNumber: b.billNumber })) },
    responseType: 'blob',
    background: true,
    onDownloadProgress: onProgress,
    signal,
  });
  return { blob: result.blob, filename: result.filename ?? BILLS_ZIP_NAME };
}

/** POST /bookings/regenerate-bills (admins; one GENERATED bill, not AD_HOC): the list shows the new figures. */
export const regenerateBillsMutation = () =>
  plainWrite({
    mutationKey: [...billKeys.all, 'regenerate'],
    request: (body: RegenerateBillsBody) => ({ service: 'bookingService', path: '/bookings/regenerate-bills', method: 'POST', body }),
    schema: regenerateAnswerSchema,
    refreshes: () => [billKeys.lists()],
  });
