import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../api/errors';
import {
  keysToAskAgain,
  operationBlock,
  operationFailure,
  operationIssues,
  operationsFor,
  operationTypeMessageId,
} from './station-operations';

const body = { cpId: 'CP1', connectorId: 'CP1_1' };

describe('station operations', () => {
  it('offers admins all ten, everyone else unlock, hard reset and trigger status notification (spec 2 §2)', () => {
    expect(operationsFor(true)).toHaveLength(10);
    expect(operationsFor(false)).toEqual(['CONNECTOR_UNLOCK', 'HARD_RESET', 'TRIGGER_STATUS_NOTIFICATION']);
  });

  it('are blocked for an OFFLINE or INACTIVE station (spec 2 §4) and while the app is offline', () => {
    expect(operationBlock('OFFLINE', true)).toBe('stationOffline');
    expect(operationBlock('INACTIVE', true)).toBe('stationInactive');
    expect(operationBlock('IDLE', false)).toBe('network');
    expect(operationBlock('OCCUPIED_CHARGING', true)).toBeNull();
    expect(operationBlock('CONNECTED_UNAVAILABLE', true)).toBeNull();
  });

  it('need a key and a value to change the configuration and a key to get it (spec 2 §5)', () => {
    expect(operationIssues({ ...body, connectorOperationType: 'CHANGE_CONFIGURATION', key: '', value: '' })).toEqual({
      key: { id: 'validation.required' },
      value: { id: 'validation.required' },
    });
    expect(operationIssues({ ...body, connectorOperationType: 'CHANGE_CONFIGURATION', key: 'A,B', value: '1' })).toEqual({
      key: { id: 'ocpp.validation.oneKey' },
    });
    expect(operationIssues({ ...body, connectorOperationType: 'CHANGE_CONFIGURATION', key: 'K'.repeat(51), value: '1' }).key).toEqual({
      id: 'validation.maxLength',
      values: { max: 50 },
    });
    expect(operationIssues({ ...body, connectorOperationType: 'GET_CONFIGURATION', key: ' ' }).key).toEqual({ id: 'validation.required' });
    expect(
      operationIssues({ ...body, connectorOperationType: 'GET_CONFIGURATION', key: 'HeartbeatInterval, MeterValueSampleInterval' }),
    ).toEqual({});
    expect(operationIssues({ ...body, connectorOperationType: 'GET_DIAGNOSTICS', value: 'c:\\x' }).value).toEqual({
      id: 'ocpp.validation.url',
    });
    expect(operationIssues({ ...body, connectorOperationType: 'HARD_RESET' })).toEqual({});
  });

  it('read each refusal in the user’s words, and a lost connection as not sent', () => {
    const refused = (code: string, errorDetail?: unknown) =>
      operationFailure(new ApiError({ status: 409, errorCodeResponse: code, errorDetail }));
    expect(refused('STATION_NO_ANSWER')).toEqual({ id: 'ocpp.failure.noAnswer' });
    expect(refused('STATION_NOT_CONNECTED')).toEqual({ id: 'ocpp.failure.notConnected' });
    expect(refused('STATION_UNAVAILABLE')).toEqual({ id: 'ocpp.failure.unavailable' });
    expect(refused('STATION_CALL_FAILED', { ocppErrorCode: 'NotImplemented' })).toEqual({
      id: 'ocpp.failure.callFailed',
      values: { code: 'NotImplemented' },
    });
    expect(operationFailure(new NetworkError('offline'))).toEqual({ id: 'ocpp.failure.network' });
  });

  it('name a status change that reached the station in the history, and another type as another operation', () => {
    expect(operationTypeMessageId('HARD_RESET')).toBe('ocpp.types.HARD_RESET');
    expect(operationTypeMessageId('CHANGE_AVAILABILITY')).toBe('ocpp.types.CHANGE_AVAILABILITY');
    expect(operationTypeMessageId('SOMETHING_ELSE')).toBe('ocpp.types.unknown');
  });

  it('ask again for the keys reported last, within the contract’s length', () => {
    expect(keysToAskAgain(['A', 'B', 'C'])).toBe('A,B,C');
    expect(keysToAskAgain(['AAAA', 'BBBB', 'CCCC'], 9)).toBe('AAAA,BBBB');
  });
});
