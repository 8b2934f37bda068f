import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { paged } from '../../../../contract/common';
import {
  createOperatorAnswerSchema,
  operatorDetailSchema,
  operatorListRowSchema,
  type CreateOperatorAnswer,
  type CreateOperatorBody,
} from '../../../../contract/operators';
import { apiRequest } from '../../../api/client';
import { operatorKeys, type OperatorListParams } from './operator-keys';

/** Spec 1 §7: the operator list for selects is requested with page 0 and size 10000. */
export const OPERATOR_OPTIONS_PAGE_SIZE = 10000;

const operatorListAnswerSchema = paged(operatorListRowSchema);

/** One page of GET /bff/cpos (server-side paging). */
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

const operatorOptionsAnswerSchema = paged(z.pick(operatorListRowSchema, { cpoId: true, cpoName: true }));

/**
 * The caller's operators for a select ('id: name'): the location wizard's and every later operator
 * select read this one factory, so a new operator shows in all of them once its list is refreshed.
 */
export const operatorOptionsQueryOptions = () =>
  queryOptions({
    queryKey: operatorKeys.options(),
    queryFn: ({ signal }) =>
      apiRequest({
        service: 'bff',
        path: '/cpos',
        query: { page: 0, size: OPERATOR_OPTIONS_PAGE_SIZE },
        schema: operatorOptionsAnswerSchema,
        signal,
      }),
    select: (answer) => answer.response,
    staleTime: 5 * 60_000,
  });

/** 'id: name', as every operator select lists them (spec 1 §2, spec 3 §2). */
export const operatorLabel = (op: { cpoId: string; cpoName: string }): string => `${op.cpoId}: ${op.cpoName}`;

/** A payment method's name (locales: operators.paymentMethod.*; every value of the contract's enums has one). */
export const methodMessageId = (method: string) => `operators.paymentMethod.${method}`;

/**
 * POST /bff/cpos/create-operator. The key makes a resend of the same filled-in wizard (a lost
 * answer, a second press) answer with the operator created the first time.
 */
export function createOperator(body: CreateOperatorBody, idempotencyKey: string): Promise<CreateOperatorAnswer> {
  return apiRequest({
    service: 'bff',
    path: '/cpos/create-operator',
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: createOperatorAnswerSchema,
  });
}
