import { QueryClient, type QueryClientConfig } from '@tanstack/react-query';
import { PERSIST_MAX_AGE_MS } from '../offline/cache-policy';
import { wireOnlineManager } from '../offline/online-manager';
import { isRetryableError } from './retryable';
import { createWriteMutationCache } from './mutations';

/** Spec 1 §7: server errors are retried every 3 seconds, up to 10 times; lower statuses never. */
export const MAX_QUERY_RETRIES = 10;
export const QUERY_RETRY_DELAY_MS = 3_000;
/** Interactive writes (sign-in, dialogs) should not leave the user waiting through ten attempts. */
export const MAX_MUTATION_RETRIES = 3;

/** `failureCount` is 0 on the first failure (TanStack's convention), so this allows 10 retries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_QUERY_RETRIES && isRetryableError(error);
}

export function retryDelay(): number {
  return QUERY_RETRY_DELAY_MS;
}

export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  return failureCount < MAX_MUTATION_RETRIES && isRetryableError(error);
}

/** 1 s, 2 s, 4 s … capped at 30 s. */
export function mutationRetryDelay(failureCount: number): number {
  return Math.min(1_000 * 2 ** failureCount, 30_000);
}

export function createQueryClient(config: QueryClientConfig = {}): QueryClient {
  wireOnlineManager();
  return new QueryClient({
    // Every mutation: one Idempotency-Key per press, and what it names refreshed once answered.
    mutationCache: createWriteMutationCache(),
    ...config,
    defaultOptions: {
      ...config.defaultOptions,
      queries: {
        retry: shouldRetry,
        retryDelay,
        refetchOnWindowFocus: false,
        // Show restored data and try the network anyway; a failing fetch then pauses while offline.
        networkMode: 'offlineFirst',
        gcTime: PERSIST_MAX_AGE_MS,
        staleTime: 30_000,
        ...config.defaultOptions?.queries,
      },
      mutations: {
        retry: shouldRetryMutation,
        retryDelay: mutationRetryDelay,
        // 'online' (the default): a write made offline pauses and waits rather than failing.
        networkMode: 'online',
        ...config.defaultOptions?.mutations,
      },
    },
  });
}
