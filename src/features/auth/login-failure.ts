import { ApiError } from '../../api/errors';
import { genericErrorText, tooManyRequestsText } from '../../auth/error-text';
import type { TranslateFn } from '../../i18n/i18n-context';

/**
 * What a failed sign-in says (spec 1 §8): UNAUTHORIZED → 'wrongInput'; too many attempts → when to
 * try again; an account not yet active; anything else → the 'mistake' dialog. Loaded with the
 * error dialog when the form is sent, off the first route.
 */
export function loginFailure(t: TranslateFn, error: unknown): { title: string; text: string } {
  const tooMany = tooManyRequestsText(t, error);
  if (tooMany) return { title: t('errors.tooManyRequestsTitle'), text: tooMany };
  if (error instanceof ApiError && error.errorCodeResponse === 'UNAUTHORIZED') {
    return { title: t('auth.wrongInputTitle'), text: t('auth.wrongInput') };
  }
  if (error instanceof ApiError && error.errorCodeResponse === 'USER_NOT_VERIFIED') {
    return { title: t('auth.mistakeTitle'), text: t('auth.accountNotActive') };
  }
  return { title: t('auth.mistakeTitle'), text: genericErrorText(t, error) };
}
