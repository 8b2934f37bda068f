import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paged } from '../../../../contract/common';
import { operatorDetailSchema, operatorListRowSchema } from '../../../../contract/operators';
import { createOperatorAnswerSchema, type CreateOperatorBody } from '../../../../contract/operator-writes';
import { apiRequest } from '../../../api/client';
import { plainWrite } from '../../../api/mutations';
import { operatorKeys, type OperatorListParams } from './operator-keys';

/** Spec 1 §7: an operator select asks for every operator, as page 0 of size 10000. */
export const ALL_OPERATORS: OperatorListParams = { page: 0, size: 10000 };

const operatorListAnswerSchema = paged(operatorListRowSchema);

/**
 * One page of GET /bff/cpos (server-side paging): the list page, and with ALL_OPERATORS every
 * operator select (the location and user wizards), so a new operator shows in all of them.
 */
export const operatorListQueryOptions = (params: OperatorListParams) =>
  queryOptions({
    queryKey: operatorKeys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/cpos',
        query: { page: params.page, size: params.size },
        schema: operatorListAnswerSchema,
        signal,
      }),
    // Paging keeps the old rows (marked busy) instead of an empty table.
    placeholderData: keepPreviousData,
  });

/** GET /bff/cpos/{id}/operator-details. */
export const operatorDetailQueryOptions = (cpoId: string) =>
  queryOptions({
    queryKey: operatorKeys.detail(cpoId),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: `/cpos/${encodeURIComponent(cpoId)}/operator-details`,
        schema: operatorDetailSchema,
        signal,
      }),
  });

/** 'id: name', as every operator select lists them (spec 1 §2, spec 3 §2). */
export const operatorLabel = (op: { cpoId: string; cpoName: string }): string => `${op.cpoId}: ${op.cpoName}`;

/** A payment method's name (locales: operators.paymentMethod.*; every value of the contract's enums has one). */
export const methodMessageId = (method: string) => `operators.paymentMethod.${method}`;

/** POST /bff/cpos/create-operator: the new operator shows in the list and in every operator select. */
export const createOperatorMutation = () =>
  plainWrite({
    mutationKey: [...operatorKeys.all, 'create'],
    request: (body: CreateOperatorBody) => ({ service: 'bff', path: '/cpos/create-operator', method: 'POST', body }),
    schema: createOperatorAnswerSchema,
    refreshes: () => [operatorKeys.lists()],
  });
