import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import { validate } from '../../ui/validation';
import {
  buildCreatePayload,
  buildUpdatePayload,
  editRules,
  editValuesOf,
  createFailure,
  canAddRow,
  emptyInfrastructure,
  emptyPropertyInfo,
  fixedOperatorId,
  hasErrors,
  isEmsConnected,
  isInfrastructureValid,
  chargePointCount,
  stationCount,
  validateInfrastructure,
  validatePropertyInfo,
  type Infrastructure,
  type PropertyInfo,
} from './location-form';

const info: PropertyInfo = {
  locationName: ' Parkhaus Nord ',
  street: 'Hauptstraße 1',
  careOf: '',
  zipCode: '10115',
  city: 'Berlin-Mitte',
  cpoId: 'CPO-1',
};

const infra = (rows: Array<[string, string]>, ems: Partial<Infrastructure> = {}): Infrastructure => ({
  ...emptyInfrastructure(),
  rows: rows.map(([model, count], key) => ({ key, model, count })),
  ...ems,
});

describe('validatePropertyInfo', () => {
  it('accepts a complete step', () => {
    expect(hasErrors(validatePropertyInfo(info))).toBe(false);
  });
  it('requires name, street, operator and checks zip and city', () => {
    const errors = validatePropertyInfo({ ...emptyPropertyInfo(), zipCode: '12a', city: 'Berlin 2' });
    expect(errors.locationName?.id).toBe('validation.required');
    expect(errors.street?.id).toBe('validation.required');
    expect(errors.cpoId?.id).toBe('validation.required');
    expect(errors.zipCode?.id).toBe('validation.digitsOnly');
    expect(errors.city?.id).toBe('validation.lettersOnly');
    expect(errors.careOf).toBeNull();
    expect(validatePropertyInfo({ ...info, careOf: 'x'.repeat(201) }).careOf?.id).toBe('validation.maxLength');
  });
});

describe('validateInfrastructure', () => {
  it('is valid without rows', () => {
    expect(isInfrastructureValid(emptyInfrastructure())).toBe(true);
  });
  it('needs a model and a count from 1 to 100 per visible row', () => {
    const errors = validateInfrastructure(
      infra([
        ['', '5'],
        ['B', '101'],
        ['C', 'x'],
      ]),
    );
    expect(errors.rows[0]).toEqual({ model: 'required', count: null });
    expect(errors.rows[1]).toEqual({ model: null, count: 'countRange' });
    expect(errors.rows[2]).toEqual({ model: null, count: 'countRange' });
    expect(
      isInfrastructureValid(
        infra([
          ['A', '1'],
          ['B', '100'],
        ]),
      ),
    ).toBe(true);
  });
  it('rejects a count of 0 in a visible row', () => {
    expect(validateInfrastructure(infra([['A', '0']])).rows[0].count).toBe('countRange');
  });
  it('rejects the same model twice', () => {
    const errors = validateInfrastructure(
      infra([
        ['A', '1'],
        ['A', '2'],
      ]),
    );
    expect(errors.rows[1].model).toBe('duplicateModel');
    expect(
      isInfrastructureValid(
        infra([
          ['A', '1'],
          ['A', '2'],
        ]),
      ),
    ).toBe(false);
  });
  it('requires an EMS model when connected, but only with infrastructure', () => {
    expect(isInfrastructureValid(infra([['A', '1']], { emsConnected: true }))).toBe(false);
    expect(isInfrastructureValid(infra([['A', '1']], { emsConnected: true, emsModel: 'Smart1 EMS' }))).toBe(true);
    expect(isInfrastructureValid(infra([['A', '1']], { emsConnected: true, emsModel: 'Other' }))).toBe(false);
    expect(isInfrastructureValid(infra([], { emsConnected: true }))).toBe(true);
    expect(isEmsConnected(infra([], { emsConnected: true }))).toBe(false);
  });
  it('allows at most four rows', () => {
    expect(
      canAddRow(
        infra([
          ['A', '1'],
          ['B', '1'],
          ['C', '1'],
        ]),
      ),
    ).toBe(true);
    expect(
      canAddRow(
        infra([
          ['A', '1'],
          ['B', '1'],
          ['C', '1'],
          ['D', '1'],
        ]),
      ),
    ).toBe(false);
  });
});

describe('buildCreatePayload', () => {
  it('sends only rows with a count above 0 and drops empty values', () => {
    const payload = buildCreatePayload(
      info,
      infra(
        [
          ['A', '3'],
          ['B', '0'],
        ],
        { emsConnected: true, emsModel: 'CFOS Charging Manager' },
      ),
      'Stadtwerke',
    );
    expect(payload).toEqual({
      locationName: 'Parkhaus Nord',
      locationAddress: { city: 'Berlin-Mitte', street: 'Hauptstraße 1', zipCode: '10115' },
      cpoId: 'CPO-1',
      cpoName: 'Stadtwerke',
      wallBoxesData: [{ numOfChargingStations: 3, chargingStationModel: 'A' }],
      isEmsConnected: true,
      emsModel: 'CFOS Charging Manager',
    });
  });
  it('treats the EMS as not connected without infrastructure', () => {
    const payload = buildCreatePayload(
      { ...info, careOf: 'Hausverwaltung' },
      infra([], { emsConnected: true, emsModel: 'Smart1 EMS', emsId: 'E1' }),
      undefined,
    );
    expect(payload).toEqual({
      locationName: 'Parkhaus Nord',
      locationAddress: { careOf: 'Hausverwaltung', city: 'Berlin-Mitte', street: 'Hauptstraße 1', zipCode: '10115' },
      cpoId: 'CPO-1',
      isEmsConnected: false,
    });
  });
});

describe('createFailure', () => {
  const generic = 'Something went wrong';
  it('names the operator on OPERATOR_NOT_FOUND', () => {
    const error = new ApiError({ status: 404, errorCodeResponse: 'OPERATOR_NOT_FOUND', errorMessage: 'Operator X not found' });
    expect(createFailure(error, 'CPO-9', generic)).toEqual({ kind: 'operatorNotFound', cpoId: 'CPO-9' });
  });
  it("shows the response's message, else the generic error", () => {
    expect(createFailure(new ApiError({ status: 409, errorCodeResponse: 'CONFLICT', errorMessage: 'Name taken' }), 'C', generic)).toEqual({
      kind: 'message',
      text: 'Name taken',
    });
    expect(createFailure(new ApiError({ status: 500 }), 'C', generic)).toEqual({ kind: 'generic' });
    expect(createFailure(new Error('x'), 'C', generic)).toEqual({ kind: 'generic' });
    expect(createFailure(new NetworkError('offline'), 'C', generic)).toEqual({ kind: 'offline' });
  });
});

describe('stationCount', () => {
  const counts = { totalNrChargingStation: 10, removedNrChargingStation: 3 };
  it('shows admins the total including removed stations', () => {
    expect(stationCount(counts, true)).toBe(10);
  });
  it('shows everyone else the total minus removed', () => {
    expect(stationCount(counts, false)).toBe(7);
  });
});

describe('fixedOperatorId', () => {
  it('fixes Operator-type users to their first operator', () => {
    expect(fixedOperatorId({ customer_type: 'Operator', cpo_id: ['C1', 'C2'] })).toBe('C1');
  });
  it('leaves partners free to choose', () => {
    expect(fixedOperatorId({ customer_type: 'Partner', cpo_id: ['C1'] })).toBeNull();
    expect(fixedOperatorId(null)).toBeNull();
  });
});

describe('location edit', () => {
  const location = {
    locationId: 'L1',
    locationName: 'Alt',
    locationAddress: { street: 'Weg 1', careOf: null, zipCode: '12345', city: 'Köln' },
    version: 3,
  };
  it('starts from the loaded location and requires name, street, zip and city', () => {
    const values = editValuesOf(location);
    expect(values).toEqual({ locationName: 'Alt', street: 'Weg 1', careOf: '', zipCode: '12345', city: 'Köln' });
    const check = (key: keyof typeof values, value: string) => validate(value, ...(editRules[key] ?? []));
    expect(check('locationName', '')?.id).toBe('validation.required');
    expect(check('street', ' ')?.id).toBe('validation.required');
    expect(check('zipCode', '')?.id).toBe('validation.required');
    expect(check('city', '')?.id).toBe('validation.required');
    expect(check('careOf', '')).toBeNull();
    expect(check('zipCode', '12345678901')?.id).toBe('validation.maxLength');
  });
  it('sends the trimmed values with the version and without an empty c/o', () => {
    const payload = buildUpdatePayload(location, { locationName: ' Neu ', street: 'Weg 2', careOf: ' ', zipCode: '12345', city: 'Köln' });
    expect(payload).toEqual({
      locationId: 'L1',
      locationName: 'Neu',
      locationAddress: { street: 'Weg 2', city: 'Köln', zipCode: '12345', countryCode: 'DE', careOf: undefined },
      version: 3,
    });
  });
});

describe('chargePointCount (issue 23: Ladepunkte apart from Ladestationen)', () => {
  it('counts connectors the way stations are counted: admins with removed ones, others without', () => {
    const counts = { totalNrChargePoints: 4, removedNrChargePoints: 1 };
    expect(chargePointCount(counts, true)).toBe(4);
    expect(chargePointCount(counts, false)).toBe(3);
  });
});
