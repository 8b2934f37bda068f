import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { ApiError, NetworkError } from '../api/errors';
import { createTranslator } from '../i18n/i18n-provider';
import { flattenMessages } from '../i18n/messages';
import { genericErrorText, tooManyRequestsText } from './error-text';

const tDe = createTranslator('de', flattenMessages(de)).t;
const tEn = createTranslator('en', flattenMessages(en)).t;
const tooMany = (retryAfterSeconds?: number) =>
  new ApiError({ status: 429, errorCodeResponse: 'TOO_MANY_REQUESTS', errorDetail: retryAfterSeconds ? { retryAfterSeconds } : undefined });

describe('too many attempts', () => {
  it('says when to try again, in seconds under a minute and in whole minutes after', () => {
    expect(tooManyRequestsText(tDe, tooMany(1))).toBe('Zu viele Versuche. Bitte versuchen Sie es in 1 Sekunde erneut.');
    expect(tooManyRequestsText(tDe, tooMany(42))).toBe('Zu viele Versuche. Bitte versuchen Sie es in 42 Sekunden erneut.');
    expect(tooManyRequestsText(tDe, tooMany(60))).toBe('Zu viele Versuche. Bitte versuchen Sie es in 1 Minute erneut.');
    expect(tooManyRequestsText(tDe, tooMany(61))).toBe('Zu viele Versuche. Bitte versuchen Sie es in 2 Minuten erneut.');
    expect(tooManyRequestsText(tEn, tooMany(120))).toBe('Too many attempts. Please try again in 2 minutes.');
    // Without the server's figure: a minute, the shortest block.
    expect(tooManyRequestsText(tEn, tooMany())).toBe('Too many attempts. Please try again in 1 minute.');
  });

  it('is only for 429, and the generic text falls back to it', () => {
    expect(tooManyRequestsText(tDe, new ApiError({ status: 401, errorCodeResponse: 'UNAUTHORIZED' }))).toBeUndefined();
    expect(tooManyRequestsText(tDe, new NetworkError('offline'))).toBeUndefined();
    expect(genericErrorText(tDe, tooMany(30))).toContain('30 Sekunden');
    expect(genericErrorText(tDe, new ApiError({ status: 500 }))).toBe(tDe('errors.somethingWrong'));
  });
});
