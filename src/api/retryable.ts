import { ApiError, NetworkError } from './errors';

/**
 * Only failures that may pass by themselves: no answer at all, or a 5xx. For a write it also means
 * the server may have applied it: the answer may just not have arrived. (Not in errors.ts, which
 * the sign-in page loads: only the signed-in query client and mutations need it.)
 */
export function isRetryableError(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if (error instanceof ApiError) return error.status >= 500;
  // Bugs, aborts and unknown throws: repeating them only delays the error screen.
  return false;
}
