import { describe, expect, it } from 'vitest';
import { chargingRequestStatuses, type ChargingRequestStatus } from '../../../contract/enums';
import { periodDisplay, periodKind } from './period';

// Local times, so the test reads the same in any time zone.
const start = new Date(2025, 2, 14, 14, 5).toISOString();
const endSameDay = new Date(2025, 2, 14, 16, 30).toISOString();
const endNextDay = new Date(2025, 2, 15, 1, 2).toISOString();

describe('periodKind', () => {
  it('early statuses show only the start', () => {
    for (const s of ['processing', 'accepted', 'connected'] as const) expect(periodKind(s)).toBe('start');
  });

  it('charging, paused and terminated_request show the start plus a charging label', () => {
    for (const s of ['charging', 'paused', 'terminated_request'] as const) expect(periodKind(s)).toBe('charging');
  });

  it('every other status shows start to end', () => {
    const others: ChargingRequestStatus[] = [
      'finished',
      'denied',
      'denied_parking_timer',
      'terminated_not_started',
      'termination_requested',
      'terminated_rejected',
      'broken',
    ];
    for (const s of others) expect(periodKind(s)).toBe('range');
    // Every status of the catalogue has a rule.
    for (const s of chargingRequestStatuses) expect(['start', 'charging', 'range']).toContain(periodKind(s));
  });
});

describe('periodDisplay', () => {
  it('start only for an early status, whatever the end says', () => {
    expect(
      periodDisplay({
        status: 'accepted',
        startDate: start,
        endDate: endSameDay,
      }),
    ).toEqual({ kind: 'start', start: '14.03.2025 14:05' });
  });

  it('start plus label while charging', () => {
    expect(periodDisplay({ status: 'paused', startDate: start, endDate: null })).toEqual({ kind: 'charging', start: '14.03.2025 14:05' });
  });

  it('start – end, with the end shortened to its time on the same day', () => {
    expect(
      periodDisplay({
        status: 'finished',
        startDate: start,
        endDate: endSameDay,
      }),
    ).toEqual({
      kind: 'range',
      start: '14.03.2025 14:05',
      end: '16:30',
    });
    expect(
      periodDisplay({
        status: 'broken',
        startDate: start,
        endDate: endNextDay,
      }),
    ).toEqual({
      kind: 'range',
      start: '14.03.2025 14:05',
      end: '15.03.2025 01:02',
    });
  });

  it('a missing end shows the start alone instead of a dangling dash', () => {
    expect(
      periodDisplay({
        status: 'termination_requested',
        startDate: start,
        endDate: null,
      }),
    ).toEqual({ kind: 'ended', start: '14.03.2025 14:05' });
  });
});
