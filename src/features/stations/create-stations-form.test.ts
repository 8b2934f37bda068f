import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import {
  buildCreateStationsPayload,
  createStationsFailure,
  emptyCreateStations,
  isCreateStationsValid,
  validateCreateStations,
} from './create-stations-form';

const filled = { chargingStationModel: 'Wallbe Pro', locationId: 'L10001', numOfChargingStations: '3' };

describe('station creation rules (spec 2 §5)', () => {
  it('starts with one station and the preselected location', () => {
    expect(emptyCreateStations('L10002')).toEqual({ chargingStationModel: '', locationId: 'L10002', numOfChargingStations: '1' });
    expect(emptyCreateStations().locationId).toBe('');
  });

  it('requires the model and the location', () => {
    expect(validateCreateStations({ ...filled, chargingStationModel: ' ' })).toEqual({ chargingStationModel: 'modelRequired' });
    expect(validateCreateStations({ ...filled, locationId: '' })).toEqual({ locationId: 'locationRequired' });
    expect(isCreateStationsValid(filled)).toBe(true);
  });

  it.each([
    ['', 'countMin'],
    ['0', 'countMin'],
    ['-2', 'countMin'],
    ['abc', 'countMin'],
    ['1.5', 'countWhole'],
    ['101', 'countMax'],
  ])('refuses the count %j with %s', (count, error) => {
    expect(validateCreateStations({ ...filled, numOfChargingStations: count }).numOfChargingStations).toBe(error);
  });

  it.each(['1', ' 7 ', '100'])('accepts the count %j', (count) => {
    expect(validateCreateStations({ ...filled, numOfChargingStations: count })).toEqual({});
  });

  it('sends trimmed values and the count as a number', () => {
    expect(
      buildCreateStationsPayload(
        { chargingStationModel: ' Wallbe Pro ', locationId: ' L10001', numOfChargingStations: ' 2 ' },
        'Tiefgarage',
      ),
    ).toEqual({
      chargingStationModel: 'Wallbe Pro',
      locationId: 'L10001',
      locationName: 'Tiefgarage',
      numOfChargingStations: 2,
    });
  });

  it('maps failures: offline, a vanished location, anything else', () => {
    expect(createStationsFailure(new NetworkError('offline'))).toEqual({ kind: 'offline' });
    expect(
      createStationsFailure(new ApiError({ status: 404, errorCodeResponse: 'LOCATION_NOT_FOUND', errorMessage: 'Location L1 not found' })),
    ).toEqual({ kind: 'locationNotFound' });
    expect(createStationsFailure(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR', errorMessage: 'bad' }))).toEqual({
      kind: 'generic',
    });
    expect(createStationsFailure(new Error('boom'))).toEqual({ kind: 'generic' });
  });
});
