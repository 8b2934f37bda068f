import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { paged } from '../../../../contract/common';
import { rfidRowSchema, type RfidEntry } from '../../../../contract/rfid';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { rfidKeys, type RfidListParams } from './rfid-keys';

const rfidListAnswerSchema = paged(rfidRowSchema);

/** One page of GET /contract-management/auth/get-rfid-tags. */
export const rfidListQueryOptions = (params: RfidListParams) =>
  queryOptions({
    queryKey: rfidKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'contractManagement',
        path: '/auth/get-rfid-tags',
        query: { page: params.page, size: params.size },
        schema: rfidListAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** POST /contract-management/auth/save-rfid-tags: all cards or none (409 ERR_RFID_ID_EXISTS); the list shows them. */
export const saveRfidTagsMutation = () =>
  plainWrite({
    mutationKey: [...rfidKeys.all, 'save'],
    request: (entries: RfidEntry[]) => ({ service: 'contractManagement', path: '/auth/save-rfid-tags', method: 'POST', body: entries }),
    schema: z.object({ saved: z.int() }),
    refreshes: () => [rfidKeys.lists()],
  });
