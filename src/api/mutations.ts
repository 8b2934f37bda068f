import {
  MutationCache,
  hashKey,
  mutationOptions,
  type Mutation,
  type MutationFunctionContext,
  type MutationKey,
  type QueryClient,
} from '@tanstack/react-query';
import { refreshAfterWrite, type RefreshTarget } from '../offline/refresh-after-write';
import type * as z from 'zod/mini';
import { apiRequest, newIdempotencyKey, type HttpMethod, type UntypedRequestOptions } from './client';
import { isApiError } from './errors';
import { isRetryableError } from './retryable';

/**
 * Plain writes: a dialog sends one request and waits for its answer (creating a location, the
 * support mail). Field work goes through the outbox instead; both declare in their area's `api/`
 * what a write changes, and both refresh it the same way (offline/refresh-after-write.ts).
 */

// A type, not an interface: TanStack takes the meta type only when it is a Record.
export type WriteMeta = {
  /**
   * What the write changes (factory options or key families), refreshed once the server answered
   * it: applied, or refused because the entity is not what the screen showed.
   */
  // Method syntax: each area's factory narrows `variables` to its own body.
  refreshes?(variables: unknown): readonly RefreshTarget[];
};

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: WriteMeta;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- mutations of every shape share one key table
type AnyMutation = Mutation<any, any, any, any>;

/** The key of one press: TanStack hands every attempt of a run the same context object. */
const keyOfRun = new WeakMap<MutationFunctionContext, string>();
const keyOfMutation = new WeakMap<AnyMutation, string>();

/**
 * The Idempotency-Key of the press `context` belongs to: the same for every retry of it, so a
 * retry after a lost answer is answered from the server's record instead of applied again.
 */
export function writeKeyOf(context: MutationFunctionContext): string {
  let key = keyOfRun.get(context);
  if (key === undefined) {
    key = newIdempotencyKey();
    keyOfRun.set(context, key);
  }
  return key;
}

/** No answer, a 5xx, or the first request still running: the server may have applied it. */
const answerLost = (error: unknown) =>
  isRetryableError(error) || (isApiError(error) && error.errorCodeResponse === 'IDEMPOTENCY_KEY_IN_PROGRESS');

/**
 * A press that repeats the previous press of the same write with the same values, whose answer was
 * lost, is a resend of it: it takes that press's key (the server answers it from its record). Any
 * other press is a new write, also one with the values of a write that went through.
 */
function resentKey(client: QueryClient, mutation: AnyMutation, variables: unknown): string | undefined {
  const { mutationKey } = mutation.options;
  if (!mutationKey) return undefined;
  const previous = client
    .getMutationCache()
    .findAll({ mutationKey, exact: true, predicate: (m) => m !== mutation })
    .at(-1);
  if (!previous || previous.state.status !== 'error' || !answerLost(previous.state.error)) return undefined;
  return hashKey([previous.state.variables]) === hashKey([variables]) ? keyOfMutation.get(previous) : undefined;
}

function refresh(mutation: AnyMutation, variables: unknown, context: MutationFunctionContext): void {
  for (const target of mutation.meta?.refreshes?.(variables) ?? []) refreshAfterWrite(context.client, target);
}

/** The app's mutation cache: a key per press when a mutation starts, the declared refresh when it is answered. */
export function createWriteMutationCache(): MutationCache {
  return new MutationCache({
    onMutate: (variables, mutation, context) => {
      const key = resentKey(context.client, mutation, variables) ?? newIdempotencyKey();
      keyOfRun.set(context, key);
      keyOfMutation.set(mutation, key);
    },
    onSuccess: (_data, variables, _result, mutation, context) => refresh(mutation, variables, context),
    // A refusal too: the screen showed what the server no longer has. A lost answer refreshes
    // nothing; offline that would only drop the kept copies of list pages.
    onError: (error, variables, _result, mutation, context) => {
      if (isApiError(error)) refresh(mutation, variables, context);
    },
  });
}

/** What a press sends; its Idempotency-Key is the helper's to add. */
export type WriteRequest = Pick<UntypedRequestOptions, 'service' | 'path' | 'query' | 'body' | 'headers'> & {
  method: Exclude<HttpMethod, 'GET'>;
};

export interface PlainWrite<S extends z.ZodMiniType, TVariables> {
  mutationKey: MutationKey;
  request: (variables: TVariables) => WriteRequest;
  /** Validates the answer's `data`. */
  schema: S;
  /** What the write changes: the queries of every screen that shows it (see WriteMeta). */
  refreshes: (variables: TVariables) => readonly RefreshTarget[];
}

/**
 * The mutation options of a plain write, for `useMutation({ ...xMutation(), onSuccess: … })`: the
 * screen adds only what it shows. It fails at once offline instead of waiting unseen in a queue,
 * and is not retried behind the dialog's back: the user sees the failure and may press again.
 */
export function plainWrite<S extends z.ZodMiniType, TVariables = void>(write: PlainWrite<S, TVariables>) {
  return mutationOptions<z.output<S>, Error, TVariables>({
    mutationKey: write.mutationKey,
    // A zod schema's answer is its output (AnswerOf<S>, which TypeScript cannot see through for a generic S).
    mutationFn: (variables, context) =>
      apiRequest({ ...write.request(variables), idempotencyKey: writeKeyOf(context), schema: write.schema }) as Promise<z.output<S>>,
    meta: { refreshes: write.refreshes },
    networkMode: 'always',
    retry: false,
  });
}
