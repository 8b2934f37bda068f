import type { ImportMistake } from '../../../../contract/station-import';
import { ApiError, NetworkError } from '../../../api/errors';
import type { TranslateFn } from '../../../i18n/i18n-context';

/** The codes that mean the file as a whole (spec 2 §8), each with its own message. */
const fileCodes = [
  'CSV_SEPARATOR_NOT_SUPPORTED',
  'ERROR_PARSING_CSV_FILE',
  'ERROR_PARSING_XLS_FILE',
  'ERROR_PARSING_XLSX_FILE',
  'UNSUPPORTED_FILE_TYPE',
  'PAYLOAD_TOO_LARGE',
  'UPLOAD_NOT_READABLE',
  'TOO_MANY_REQUESTS',
] as const;

const separatorName = (t: TranslateFn, s: unknown) =>
  s === '\t' ? t('stations.import.separatorTab') : typeof s === 'string' && s ? `„${s}“` : '?';

/** One row's mistake in the user's language: what is wrong with the cell's value. */
export function mistakeMessage(t: TranslateFn, m: ImportMistake): string {
  return t(`stations.import.mistake.${m.code}`, { value: m.value || t('stations.import.emptyCell') });
}

/** A refusal of the whole file, or the general error with its code (spec 2 §8: 'any other code'). */
export function fileErrorMessage(t: TranslateFn, error: unknown): string {
  if (error instanceof NetworkError) return t('stations.import.needsNetwork');
  if (!(error instanceof ApiError)) return t('stations.import.general', { code: 'UNKNOWN_ERROR' });
  const code = error.errorCodeResponse;
  const detail = (error.errorDetail ?? {}) as {
    separator?: unknown;
    fileSeparator?: unknown;
    reason?: unknown;
    columns?: unknown;
    maxRows?: unknown;
  };
  if (!(fileCodes as readonly string[]).includes(code)) return t('stations.import.general', { code });
  if (code === 'CSV_SEPARATOR_NOT_SUPPORTED') {
    return detail.fileSeparator
      ? t('stations.import.file.otherSeparator', {
          separator: separatorName(t, detail.separator),
          fileSeparator: separatorName(t, detail.fileSeparator),
        })
      : t('stations.import.file.separator', { separator: separatorName(t, detail.separator) });
  }
  if (code.startsWith('ERROR_PARSING_') && detail.reason === 'missingColumns' && Array.isArray(detail.columns)) {
    return t('stations.import.file.missingColumns', { columns: detail.columns.join(', ') });
  }
  if (code.startsWith('ERROR_PARSING_') && detail.reason === 'tooManyRows') {
    return t('stations.import.file.tooManyRows', { max: Number(detail.maxRows) || 0 });
  }
  if (code.startsWith('ERROR_PARSING_') && detail.reason === 'empty') return t('stations.import.file.empty');
  return t(`stations.import.file.${code}`);
}

/** The mistakes of a refused file, when the refusal is about its rows. */
export function mistakesOf(error: unknown): ImportMistake[] | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const errors = (error.errorDetail as { errors?: unknown } | undefined)?.errors;
  return Array.isArray(errors) && errors.length > 0 ? (errors as ImportMistake[]) : undefined;
}
