import { ApiError, isNetworkError } from '../api/errors';
import type { TranslateFn } from '../i18n/i18n-context';

/** The generic fallback of spec 1 §8, or the offline text when no answer came back at all. */
export function genericErrorText(t: TranslateFn, error: unknown): string {
  if (isNetworkError(error)) return t('errors.offline');
  if (error instanceof ApiError && error.status === 403) return t('errors.forbidden');
  return t('errors.somethingWrong');
}
