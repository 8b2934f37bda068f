import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../api/errors';
import type { TranslateFn } from '../../../i18n/i18n-context';
import { fileErrorMessage, mistakeMessage, mistakesOf } from './import-messages';

const t: TranslateFn = (id, values) => (values ? `${id} ${JSON.stringify(values)}` : id);
const refusal = (errorCodeResponse: string, errorDetail?: unknown) => new ApiError({ status: 400, errorCodeResponse, errorDetail });

describe('station import messages', () => {
  it('a code the dialog does not know is the general error with the code (spec 2 §8)', () => {
    expect(fileErrorMessage(t, refusal('SOMETHING_NEW'))).toBe('stations.import.general {"code":"SOMETHING_NEW"}');
    expect(fileErrorMessage(t, new Error('x'))).toBe('stations.import.general {"code":"UNKNOWN_ERROR"}');
  });

  it('offline reads that the import needs the network', () => {
    expect(fileErrorMessage(t, new NetworkError('offline'))).toBe('stations.import.needsNetwork');
  });

  it('the separator codes name the separators; parsing errors their reason', () => {
    expect(fileErrorMessage(t, refusal('CSV_SEPARATOR_NOT_SUPPORTED', { separator: 'x' }))).toBe(
      'stations.import.file.separator {"separator":"„x“"}',
    );
    expect(fileErrorMessage(t, refusal('CSV_SEPARATOR_NOT_SUPPORTED', { separator: ';', fileSeparator: '\t' }))).toBe(
      'stations.import.file.otherSeparator {"separator":"„;“","fileSeparator":"stations.import.separatorTab"}',
    );
    expect(fileErrorMessage(t, refusal('ERROR_PARSING_XLSX_FILE', { reason: 'missingColumns', columns: ['cpId', 'x'] }))).toBe(
      'stations.import.file.missingColumns {"columns":"cpId, x"}',
    );
    expect(fileErrorMessage(t, refusal('ERROR_PARSING_CSV_FILE', { reason: 'unreadable' }))).toBe(
      'stations.import.file.ERROR_PARSING_CSV_FILE',
    );
    expect(fileErrorMessage(t, refusal('UNSUPPORTED_FILE_TYPE'))).toBe('stations.import.file.UNSUPPORTED_FILE_TYPE');
  });

  it('row mistakes come from the detail; each reads with its value, an empty one as such', () => {
    const m = { code: 'PARKINGLOT_EXISTS' as const, row: 3, column: 'parkingLot1', value: 'P1' };
    expect(mistakesOf(refusal('PARKINGLOT_EXISTS', { errors: [m] }))).toEqual([m]);
    expect(mistakesOf(refusal('PARKINGLOT_EXISTS', { errors: [] }))).toBeUndefined();
    expect(mistakeMessage(t, m)).toBe('stations.import.mistake.PARKINGLOT_EXISTS {"value":"P1"}');
    expect(mistakeMessage(t, { ...m, value: '' })).toBe('stations.import.mistake.PARKINGLOT_EXISTS {"value":"stations.import.emptyCell"}');
  });
});
