import { beforeAll, describe, expect, it } from 'vitest';
import { createTranslator } from '../../../i18n/i18n-provider';
import { loadSignedInMessages } from '../../../i18n/messages';
import type { TranslateFn } from '../../../i18n/i18n-context';
import type { OutboxWrite } from '../../../offline/outbox-write';
import { describeFailure, failureText, formPath, queriesChangedBy, writeKindName, writeLabel } from '../../../offline/write-kinds';
import { locationKeys } from '../../locations/api/location-keys';
import { availabilityWrites, parkingLotWrites, type SelectedConnector } from '../station-rules';
import { registerStationWrites } from './station-writes';
import { stationKeys } from './station-keys';

let de: TranslateFn;
let en: TranslateFn;

beforeAll(async () => {
  registerStationWrites();
  de = createTranslator('de', await loadSignedInMessages('de')).t;
  en = createTranslator('en', await loadSignedInMessages('en')).t;
});

const connector: SelectedConnector = {
  connectorId: 'OLI1_2',
  cpId: 'OLI1',
  locationId: 'L7',
  connectorStatus: 'IDLE',
  version: 3,
  address: { parkingLot: 'P1' },
};

const stored = (
  input: ReturnType<typeof parkingLotWrites>[number] | ReturnType<typeof availabilityWrites>[number],
  patch: Partial<OutboxWrite> = {},
): OutboxWrite => ({
  ...input,
  id: 'w1',
  idempotencyKey: 'k1',
  createdAt: 0,
  seq: 1,
  owner: 'u',
  state: 'failed',
  attempts: 1,
  lastError: null,
  nextAttemptAt: 0,
  ...patch,
});

describe('station write kinds', () => {
  it('label a write from its data in the language of the moment', () => {
    const lot = stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!);
    const status = stored(availabilityWrites([connector], 'CONNECTED_UNAVAILABLE')[0]!);
    expect(writeLabel(lot, de)).toBe('Parkplatz P12 für OLI1_2');
    expect(writeLabel(lot, en)).toBe('Parking lot P12 for OLI1_2');
    expect(writeLabel(status, de)).toBe('Status Standby für OLI1_2');
    expect(writeKindName(lot, de)).toBe('Parkplatzzuordnung');
    expect(writeKindName(status, en)).toMatch(/status/i);
  });

  it('lead back to the station with the form open and what the user entered', () => {
    expect(formPath(stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!))).toBe('/stationen/OLI1_2?edit=parking-lot&lot=P12');
    expect(formPath(stored(availabilityWrites([connector], 'CONNECTED_UNAVAILABLE')[0]!))).toBe(
      '/stationen/OLI1_2?edit=availability&status=CONNECTED_UNAVAILABLE',
    );
  });

  it('refresh the station lists, the connector and its location once applied', () => {
    const lot = stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!);
    const targets = queriesChangedBy(lot).map((t) => (Array.isArray(t) ? t : (t as { queryKey: unknown }).queryKey));
    expect(targets).toEqual([stationKeys.lists(), stationKeys.detail('OLI1_2'), locationKeys.detail('L7')]);
  });

  it('word a conflict as what the connector looks like now; other refusals keep the server message', () => {
    const conflict = stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!, {
      lastError: {
        code: 'CONFLICT',
        status: 409,
        message: 'Conflict',
        detail: { connectorId: 'OLI1_2', currentVersion: 7, current: { parkingLot: 'P9', connectorStatus: 'CONNECTED_UNAVAILABLE' } },
      },
    });
    expect(describeFailure(conflict, de)).toContain('Parkplatz P9, Status Standby (Version 7)');
    const refused = stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!, {
      lastError: { code: 'VALIDATION_ERROR', status: 400, message: 'Ungültig' },
    });
    expect(describeFailure(refused, de)).toBeNull();
  });

  it("name a lot the location has already in the user's language, never the server's English reason", () => {
    const taken = stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!, {
      lastError: {
        code: 'DATA_INCONSISTENCY',
        status: 409,
        message: 'Parking lot already exists at the location: P12',
        detail: [{ locationId: 'L7', parkingLot: 'P12' }],
      },
    });
    expect(failureText(taken, de)).toBe('Die Parkplatznummer P12 ist an diesem Standort bereits vergeben.');
    expect(failureText(taken, en)).toBe('Parking lot P12 already exists at this location.');
    const lost = stored(parkingLotWrites([connector], { OLI1_2: 'P12' })[0]!, {
      state: 'pending',
      lastError: { code: 'NETWORK_ERROR', message: 'The request failed' },
    });
    expect(failureText(lost, de)).toBe('Der Server hat nicht geantwortet.');
  });
});
