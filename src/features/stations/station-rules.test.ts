import { describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../contract/enums';
import {
  availabilityWrites,
  checkAvailabilitySelection,
  checkParkingLotSelection,
  duplicatesInSelection,
  parkingLotWrite,
  validateParkingLot,
  validateParkingLots,
  withQueuedVersions,
  type SelectedConnector,
} from './station-rules';
import type { NewWrite, OutboxState, OutboxWrite } from '../../offline/outbox-write';
import { storedWrite } from '../../offline/test-writes';

const connector = (id: string, status: ConnectorStatus, parkingLot: string | null = 'P1', version = 3): SelectedConnector => ({
  connectorId: `${id}_1`,
  cpId: id,
  locationId: 'LOC1',
  connectorStatus: status,
  version,
  address: { parkingLot },
});

describe('checkParkingLotSelection', () => {
  it('warns when nothing is selected', () => {
    expect(checkParkingLotSelection([])).toEqual({ ok: false, warning: 'noSelection' });
  });
  it('blocks INACTIVE connectors', () => {
    expect(checkParkingLotSelection([connector('A', 'IDLE'), connector('B', 'INACTIVE', null)])).toEqual({
      ok: false,
      warning: 'inactive',
    });
  });
  it('allows any other status, also without a lot', () => {
    expect(checkParkingLotSelection([connector('A', 'OFFLINE'), connector('B', 'CONNECTED_UNAVAILABLE', null)])).toEqual({ ok: true });
  });
});

describe('checkAvailabilitySelection', () => {
  it('warns when nothing is selected', () => {
    expect(checkAvailabilitySelection([])).toEqual({ ok: false, warning: 'noSelection' });
  });
  it('allows IDLE and CONNECTED_UNAVAILABLE with a lot', () => {
    expect(checkAvailabilitySelection([connector('A', 'IDLE'), connector('B', 'CONNECTED_UNAVAILABLE', 'P2')])).toEqual({ ok: true });
  });
  it('says "must be Standby or Active" for CONNECTED_UNAVAILABLE without a lot and other states', () => {
    expect(checkAvailabilitySelection([connector('A', 'CONNECTED_UNAVAILABLE', null)])).toEqual({
      ok: false,
      warning: 'notChangeable',
      cpIds: [],
    });
    expect(checkAvailabilitySelection([connector('A', 'IDLE'), connector('B', 'OFFLINE')])).toMatchObject({ warning: 'notChangeable' });
  });
  it('lists the cpIds in operation', () => {
    expect(
      checkAvailabilitySelection([connector('A', 'OCCUPIED_CHARGING'), connector('B', 'OCCUPIED_UNCHARGED'), connector('C', 'IDLE')]),
    ).toEqual({
      ok: false,
      warning: 'inOperation',
      cpIds: ['A', 'B'],
    });
  });
  it('gives both warnings when both apply', () => {
    expect(checkAvailabilitySelection([connector('A', 'OCCUPIED_CHARGING'), connector('B', 'INACTIVE')])).toEqual({
      ok: false,
      warning: 'both',
      cpIds: ['A'],
    });
  });
});

describe('validateParkingLot', () => {
  it('requires a value', () => {
    expect(validateParkingLot('', 'P1')).toBe('parkingNumreq');
    expect(validateParkingLot('   ', null)).toBe('parkingNumreq');
  });
  it('allows at most 5 characters', () => {
    expect(validateParkingLot('P1234', null)).toBeUndefined();
    expect(validateParkingLot('P12345', null)).toBe('maxparkingLot');
  });
  it('must differ from the current value', () => {
    expect(validateParkingLot('P1', 'P1')).toBe('fildnchange');
    expect(validateParkingLot(' P1 ', 'P1')).toBe('fildnchange');
    expect(validateParkingLot('P2', 'P1')).toBeUndefined();
  });
  it('collects errors per connector', () => {
    const a = connector('A', 'IDLE', 'P1');
    const b = connector('B', 'IDLE', 'P2');
    expect(validateParkingLots([a, b], { [a.connectorId]: 'P1' })).toEqual({ A_1: 'fildnchange', B_1: 'parkingNumreq' });
    expect(validateParkingLots([a, b], { A_1: 'P7', B_1: 'P8' })).toEqual({});
  });
});

describe('one lot twice in the selection (issue 23)', () => {
  it('is caught in step 1 on both fields, naming the other connector; other locations may repeat it', () => {
    const a = connector('A', 'IDLE', 'P1');
    const b = connector('B', 'IDLE', 'P2');
    const elsewhere = { ...connector('C', 'IDLE', 'P3'), locationId: 'LOC2' };
    expect(validateParkingLots([a, b, elsewhere], { A_1: 'P7', B_1: ' P7', C_1: 'P7' })).toEqual({
      A_1: 'duplicateInSelection',
      B_1: 'duplicateInSelection',
    });
    expect(duplicatesInSelection([a, b], { A_1: 'P7', B_1: 'P7' })).toEqual({ A_1: [b], B_1: [a] });
    expect(validateParkingLots([a, b], { A_1: 'P7', B_1: 'P8' })).toEqual({});
  });
});

describe('outbox write builders', () => {
  it('builds ONE parking-lot write for the whole selection (all or nothing), with each version the user saw', () => {
    const a = connector('A', 'IDLE', 'P1', 4);
    const b = connector('B', 'CONNECTED_UNAVAILABLE', 'P2', 9);
    expect(parkingLotWrite([a, b], { A_1: ' P3 ', B_1: 'P4' })).toEqual({
      scope: 'A_1',
      kind: 'station.parking-lot',
      data: {
        connectorId: 'A_1',
        locationId: 'LOC1',
        parkingLot: 'P3',
        items: [
          { connectorId: 'A_1', locationId: 'LOC1', parkingLot: 'P3', version: 4 },
          { connectorId: 'B_1', locationId: 'LOC1', parkingLot: 'P4', version: 9 },
        ],
      },
      request: {
        service: 'bff',
        path: '/connectors/update-parking-lots',
        method: 'PUT',
        body: [
          { connectorId: 'A_1', cpId: 'A', locationId: 'LOC1', parkingLotNumber: 'P3', version: 4 },
          { connectorId: 'B_1', cpId: 'B', locationId: 'LOC1', parkingLotNumber: 'P4', version: 9 },
        ],
      },
    });
    // One connector: its version on the write too, as before batches.
    expect(parkingLotWrite([a], { A_1: 'P3' }).version).toBe(4);
  });
  it('a later change of a connector in a queued batch goes after the batch (same scope), counting its version', () => {
    const a = connector('A', 'IDLE', 'P1', 4);
    const b = connector('B', 'IDLE', 'P2', 9);
    const batch = storedWrite(parkingLotWrite([a, b], { A_1: 'P3', B_1: 'P4' }), { state: 'pending' });
    const [nextB] = withQueuedVersions([b], [batch]);
    expect(nextB!.version).toBe(10);
    expect(availabilityWrites([nextB!], 'CONNECTED_UNAVAILABLE', [batch])[0]).toMatchObject({ scope: 'A_1', version: 10 });
    expect(parkingLotWrite([nextB!], { B_1: 'P5' }, [batch]).scope).toBe('A_1');
    // Once it went through, a new change starts its own scope again.
    expect(parkingLotWrite([b], { B_1: 'P5' }, [{ ...batch, state: 'done' }]).scope).toBe('B_1');
  });
  it('builds one availability write per connector with the version the user saw', () => {
    const writes = availabilityWrites([connector('A', 'IDLE', 'P1', 2)], 'CONNECTED_UNAVAILABLE');
    expect(writes).toEqual([
      {
        scope: 'A_1',
        kind: 'station.availability',
        data: { connectorId: 'A_1', locationId: 'LOC1', status: 'CONNECTED_UNAVAILABLE' },
        version: 2,
        request: {
          service: 'bff',
          path: '/ocpp-client/change-availability',
          method: 'PUT',
          body: { changeAvailabilityRequest: [{ connectorId: 'A_1', connectorStatus: 'CONNECTED_UNAVAILABLE', version: 2 }] },
        },
      },
    ]);
  });
});

describe('withQueuedVersions', () => {
  const queued = (input: NewWrite, state: OutboxState): OutboxWrite => storedWrite(input, { state });

  it('keeps the seen version when nothing of the connector is queued', () => {
    const a = connector('A', 'IDLE', 'P1', 4);
    expect(withQueuedVersions([a], [])).toEqual([a]);
  });

  it('expects one more version per queued write of the same connector, so a second offline change is no conflict', () => {
    const a = connector('A', 'IDLE', 'P1', 4);
    const b = connector('B', 'IDLE', 'P1', 7);
    const first = queued(parkingLotWrite([a], { A_1: 'P2' }), 'pending');
    const [nextA, sameB] = withQueuedVersions([a, b], [first]);
    expect(nextA!.version).toBe(5);
    expect(sameB).toBe(b);
    // A status change queued on top of that expects 6; its builder carries it.
    const second = queued(availabilityWrites([nextA!], 'CONNECTED_UNAVAILABLE')[0]!, 'sending');
    expect(withQueuedVersions([a], [first, second])[0]!.version).toBe(6);
  });

  it('counts a write that just went through (the list may not have refetched yet), but not a failed one', () => {
    const a = connector('A', 'IDLE', 'P1', 4);
    const write = parkingLotWrite([a], { A_1: 'P2' });
    expect(withQueuedVersions([a], [queued(write, 'done')])[0]!.version).toBe(5);
    expect(withQueuedVersions([a], [queued(write, 'failed')])[0]!.version).toBe(4);
    // Once the list shows the new version, nothing is added twice.
    expect(withQueuedVersions([{ ...a, version: 5 }], [queued(write, 'done')])[0]!.version).toBe(5);
  });
});
