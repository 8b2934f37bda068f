import { describe, expect, it } from 'vitest';
import { saveRfidBodySchema } from '../../../contract/rfid';
import { ApiError } from '../../api/errors';
import { buildRfidPayload, emptyRow, rowErrors, rowsValid, saveFailure } from './rfid-form';

describe('the add-RFID rows (spec 2 §2, §7)', () => {
  it('need a serial number and a tag in every row', () => {
    const row = emptyRow();
    expect(rowErrors(row)).toEqual({ serialNumber: { id: 'validation.required' }, rfidTag: { id: 'validation.required' } });
    expect(rowsValid([row])).toBe(false);
    expect(
      rowsValid([
        { ...row, serialNumber: 'SN1', rfidTag: 'T1' },
        { ...emptyRow(), serialNumber: 'SN2', rfidTag: ' ' },
      ]),
    ).toBe(false);
    expect(rowsValid([{ ...row, serialNumber: 'SN1', rfidTag: 'T1' }])).toBe(true);
    expect(rowsValid([])).toBe(false);
  });

  it('are sent trimmed, in the order entered', () => {
    const payload = buildRfidPayload([
      { ...emptyRow(), serialNumber: ' SN1 ', rfidTag: '\tT1' },
      { ...emptyRow(), serialNumber: 'SN2', rfidTag: 'T2 ' },
    ]);
    expect(payload).toEqual([
      { serialNumber: 'SN1', rfidTag: 'T1' },
      { serialNumber: 'SN2', rfidTag: 'T2' },
    ]);
    expect(saveRfidBodySchema.safeParse(payload).success).toBe(true);
  });

  it('read ERR_RFID_ID_EXISTS with the values in use; anything else is the generic error', () => {
    const conflicts = [{ field: 'serialNumber', value: 'SN1', endCustomerId: null }];
    expect(saveFailure(new ApiError({ status: 409, errorCodeResponse: 'ERR_RFID_ID_EXISTS', errorDetail: conflicts }))).toEqual({
      kind: 'exists',
      conflicts,
    });
    expect(saveFailure(new ApiError({ status: 500, errorCodeResponse: 'INTERNAL_ERROR' }))).toEqual({ kind: 'generic' });
  });
});
