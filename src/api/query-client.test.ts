import { describe, expect, it } from 'vitest';
import { PERSIST_MAX_AGE_MS } from '../offline/cache-policy';
import { ApiError, NetworkError, ResponseShapeError, SessionExpiredError } from './errors';
import { createQueryClient, mutationRetryDelay, retryDelay, shouldRetry, shouldRetryMutation } from './query-client';

const apiError = (status: number) => new ApiError({ status });

describe('shouldRetry', () => {
  it('never retries 4xx', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 499]) expect(shouldRetry(0, apiError(status))).toBe(false);
    expect(shouldRetry(0, new SessionExpiredError({ status: 401 }))).toBe(false);
  });

  it('retries 5xx and network errors up to 10 times', () => {
    for (const error of [apiError(500), apiError(503), new NetworkError('failed'), new NetworkError('offline')]) {
      for (let failureCount = 0; failureCount < 10; failureCount++) expect(shouldRetry(failureCount, error)).toBe(true);
      // failureCount 10 is the 11th failure: give up.
      expect(shouldRetry(10, error)).toBe(false);
    }
  });

  it('does not retry contract violations or unknown errors', () => {
    expect(shouldRetry(0, new ResponseShapeError({ status: 200 }))).toBe(false);
    expect(shouldRetry(0, new TypeError('x is undefined'))).toBe(false);
    expect(shouldRetry(0, new DOMException('aborted', 'AbortError'))).toBe(false);
  });

  it('waits 3 seconds between attempts', () => {
    expect(retryDelay()).toBe(3000);
  });
});

describe('mutation retry', () => {
  it('never retries 4xx, retries 5xx a few times with backoff', () => {
    expect(shouldRetryMutation(0, apiError(400))).toBe(false);
    expect(shouldRetryMutation(0, apiError(500))).toBe(true);
    expect(shouldRetryMutation(3, apiError(500))).toBe(false);
    expect([0, 1, 2, 10].map(mutationRetryDelay)).toEqual([1000, 2000, 4000, 30000]);
  });
});

describe('createQueryClient', () => {
  it('applies the policy as defaults', () => {
    const defaults = createQueryClient().getDefaultOptions();
    expect(defaults.queries?.retry).toBe(shouldRetry);
    expect(defaults.queries?.retryDelay).toBe(retryDelay);
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.networkMode).toBe('offlineFirst');
    expect(defaults.queries?.gcTime).toBeGreaterThanOrEqual(PERSIST_MAX_AGE_MS);
    expect(defaults.mutations?.retry).toBe(shouldRetryMutation);
  });

  it('lets callers override single defaults', () => {
    const defaults = createQueryClient({ defaultOptions: { queries: { staleTime: 5 } } }).getDefaultOptions();
    expect(defaults.queries?.staleTime).toBe(5);
    expect(defaults.queries?.retry).toBe(shouldRetry);
  });

  it('does not retry a 404 query but does retry a 500', async () => {
    const client = createQueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
    let calls404 = 0;
    await client
      .fetchQuery({
        queryKey: ['t', 404],
        queryFn: () => {
          calls404++;
          throw apiError(404);
        },
      })
      .catch(() => undefined);
    expect(calls404).toBe(1);

    let calls500 = 0;
    await client
      .fetchQuery({
        queryKey: ['t', 500],
        retry: shouldRetry,
        queryFn: () => {
          calls500++;
          throw apiError(500);
        },
      })
      .catch(() => undefined);
    expect(calls500).toBe(11);
  });
});
