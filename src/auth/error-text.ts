import { ApiError, isNetworkError } from '../api/errors';
import type { TranslateFn } from '../i18n/i18n-context';

/** How long a 429 asks to wait: the answer's errorDetail.retryAfterSeconds (the Retry-After header's value). */
function retryAfterSeconds(error: ApiError): number | undefined {
  const detail = error.errorDetail as { retryAfterSeconds?: unknown } | undefined;
  const seconds = detail?.retryAfterSeconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds : undefined;
}

/** Spec: HTTP 429 shows 'too many requests'; with when to try again, where the server says it. */
export function tooManyRequestsText(t: TranslateFn, error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status !== 429) return undefined;
  const seconds = retryAfterSeconds(error) ?? 60;
  return seconds < 60
    ? t('errors.tooManyRequestsSeconds', { seconds: Math.ceil(seconds) })
    : t('errors.tooManyRequestsMinutes', { minutes: Math.ceil(seconds / 60) });
}

/** The generic fallback of spec 1 §8, or the offline text when no answer came back at all. */
export function genericErrorText(t: TranslateFn, error: unknown): string {
  if (isNetworkError(error)) return t('errors.offline');
  if (error instanceof ApiError && error.status === 403) return t('errors.forbidden');
  return tooManyRequestsText(t, error) ?? t('errors.somethingWrong');
}
