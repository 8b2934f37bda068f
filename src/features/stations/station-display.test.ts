import { describe, expect, it } from 'vitest';
import de from '../../../locales/de.json';
import en from '../../../locales/en.json';
import { flattenMessages } from '../../i18n/messages';
import { displayConnectorId, heartbeatDisplay, relativeAge, statusColour, statusMessageId } from './station-display';

const deMessages = flattenMessages(de);
const enMessages = flattenMessages(en);

describe('displayConnectorId', () => {
  it('shows the part after the last underscore', () => {
    expect(displayConnectorId('CP-0001_2')).toBe('2');
    expect(displayConnectorId('A_B_C_13')).toBe('13');
  });
  it('keeps ids without a usable suffix whole', () => {
    expect(displayConnectorId('CP0001')).toBe('CP0001');
    expect(displayConnectorId('CP0001_')).toBe('CP0001_');
  });
});

describe('status wording', () => {
  it('reads IDLE as Aktiv regardless of the parking lot', () => {
    expect(deMessages[statusMessageId('IDLE', null)]).toBe('Aktiv');
    expect(deMessages[statusMessageId('IDLE', '12')]).toBe('Aktiv');
    expect(enMessages[statusMessageId('IDLE', '12')]).toBe('Active');
  });
  it('reads CONNECTED_UNAVAILABLE as Standby with a lot and as linked without one', () => {
    expect(deMessages[statusMessageId('CONNECTED_UNAVAILABLE', 'P7')]).toBe('Standby');
    expect(deMessages[statusMessageId('CONNECTED_UNAVAILABLE', null)]).toBe('Verknüpft (Parkplatz hinterlegen)');
    expect(deMessages[statusMessageId('CONNECTED_UNAVAILABLE', '')]).toBe('Verknüpft (Parkplatz hinterlegen)');
  });
  it('has a wording for every status in both languages', () => {
    for (const s of ['IDLE', 'CONNECTED_UNAVAILABLE', 'OCCUPIED_UNCHARGED', 'OCCUPIED_CHARGING', 'OFFLINE', 'INACTIVE'] as const) {
      for (const lot of [null, 'P1']) {
        expect(deMessages[statusMessageId(s, lot)]).toBeTruthy();
        expect(enMessages[statusMessageId(s, lot)]).toBeTruthy();
      }
    }
  });
  it('uses the served colour when valid, else the display status colour', () => {
    expect(statusColour('IDLE', null, '#123456')).toBe('#123456');
    expect(statusColour('CONNECTED_UNAVAILABLE', null, 'nonsense')).toBe('#F9A825');
    expect(statusColour('CONNECTED_UNAVAILABLE', 'P1')).toBe('#1565C0');
  });
});

describe('heartbeatDisplay', () => {
  const now = new Date(2026, 10, 22, 12, 0).getTime();
  it('is none without a heartbeat or with garbage', () => {
    expect(heartbeatDisplay(null, now)).toEqual({ kind: 'none' });
    expect(heartbeatDisplay('not a date', now)).toEqual({ kind: 'none' });
  });
  it('formats the moment and how long ago it was', () => {
    const at = new Date(2026, 10, 22, 11, 55, 30);
    expect(heartbeatDisplay(at.toISOString(), now)).toEqual({ kind: 'at', dateTime: '22.11.2026 11:55', value: -4, unit: 'minute' });
    expect(heartbeatDisplay(new Date(2026, 10, 20, 9, 0), now)).toEqual({
      kind: 'at',
      dateTime: '20.11.2026 09:00',
      value: -2,
      unit: 'day',
    });
  });
  it('reads a fresh (or slightly future) heartbeat as now', () => {
    expect(heartbeatDisplay(new Date(now + 5_000), now)).toMatchObject({ value: 0, unit: 'second' });
  });
});

describe('relativeAge', () => {
  it('picks the largest whole unit', () => {
    expect(relativeAge(3 * 3_600_000)).toEqual({ value: -3, unit: 'hour' });
  });
});
