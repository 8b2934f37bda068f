import { ApiError, NetworkError, ResponseShapeError, SessionExpiredError, isAbortError } from '../api/errors';
import type { OutboxError } from './outbox-write';

/** How the outbox reads a send's outcome and how long it waits before the next attempt. */

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 60_000;
/** Done writes stay visible this long, then are pruned. */
export const DONE_TTL_MS = 30_000;
/** Scopes (entities) sent side by side (a browser opens 6 connections per host); writes within one scope stay strictly in order. */
export const PARALLEL_SCOPES = 6;

export function backoffDelay(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

export type Outcome = 'done' | 'retry' | 'failed' | 'signin' | 'offline';

export function classify(error: unknown): Outcome {
  if (error instanceof SessionExpiredError) return 'signin';
  // A 2xx with a body we cannot read: the server applied the write, so sending it again is pointless.
  if (error instanceof ResponseShapeError && error.status >= 200 && error.status < 300) return 'done';
  if (error instanceof NetworkError || isAbortError(error)) return 'offline';
  if (error instanceof ApiError) {
    if (error.status >= 500 || error.status === 408 || error.status === 429) return 'retry';
    if (error.status === 409 && error.errorCodeResponse === 'IDEMPOTENCY_KEY_IN_PROGRESS') return 'retry';
    return 'failed';
  }
  // Anything unexpected (config not loadable, …) is retried rather than dropped.
  return 'retry';
}

export function toOutboxError(error: unknown): OutboxError {
  if (error instanceof ApiError) {
    return { code: error.errorCodeResponse, message: error.errorMessage, status: error.status, detail: error.errorDetail };
  }
  if (error instanceof NetworkError) return { code: 'NETWORK_ERROR', message: error.message };
  return { code: 'UNKNOWN_ERROR', message: error instanceof Error ? error.message : String(error) };
}
