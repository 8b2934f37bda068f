import { describe, expect, it } from 'vitest';
import { berlinToday, buildGraphParams, normalizeLocations } from './graph-params';

describe('buildGraphParams', () => {
  const today = '2025-03-14';

  it('7 days: seven daily buckets ending today', () => {
    expect(buildGraphParams({ range: 'DAYS_7', graphType: 'TOTAL_ENERGY', locations: [] }, today)).toEqual({
      graphType: 'TOTAL_ENERGY',
      startDate: '2025-03-08',
      endDate: '2025-03-14',
      unit: 'DAYS',
      locations: '',
    });
  });

  it('30 days: thirty daily buckets ending today', () => {
    const p = buildGraphParams({ range: 'DAYS_30', graphType: 'ACTIVE_USERS', locations: [] }, today);
    expect(p).toMatchObject({
      graphType: 'ACTIVE_USERS',
      startDate: '2025-02-13',
      endDate: '2025-03-14',
      unit: 'DAYS',
    });
  });

  it('12 months: unit MONTHS from the first of the month eleven months back (within 365 days)', () => {
    const p = buildGraphParams({ range: 'MONTHS_12', graphType: 'TOTAL_ENERGY', locations: [] }, today);
    expect(p).toMatchObject({
      startDate: '2024-04-01',
      endDate: '2025-03-14',
      unit: 'MONTHS',
    });
    const days = (Date.parse(p.endDate) - Date.parse(p.startDate)) / 86_400_000 + 1;
    expect(days).toBeLessThanOrEqual(365);
  });

  it('12 months across a year boundary', () => {
    expect(buildGraphParams({ range: 'MONTHS_12', graphType: 'TOTAL_ENERGY', locations: [] }, '2025-01-31')).toMatchObject({
      startDate: '2024-02-01',
      endDate: '2025-01-31',
    });
  });

  it('locations are sorted and comma-joined, so the same choice gives the same key', () => {
    const a = buildGraphParams({ range: 'DAYS_7', graphType: 'TOTAL_ENERGY', locations: ['L2', 'L1'] }, today);
    const b = buildGraphParams({ range: 'DAYS_7', graphType: 'TOTAL_ENERGY', locations: ['L1', 'L2'] }, today);
    expect(a.locations).toBe('L1,L2');
    expect(a).toEqual(b);
  });
});

describe('normalizeLocations', () => {
  it('all selected means none (= all on the server)', () => {
    expect(normalizeLocations(['b', 'a'], ['a', 'b'])).toEqual([]);
  });

  it('keeps a real subset, sorted, and drops ids that no longer exist', () => {
    expect(normalizeLocations(['c', 'a', 'x'], ['a', 'b', 'c'])).toEqual(['a', 'c']);
  });

  it('while the list is loading the choice is kept as is', () => {
    expect(normalizeLocations(['b', 'a'], [])).toEqual(['a', 'b']);
  });
});

describe('berlinToday', () => {
  it('uses the Berlin calendar day', () => {
    // 23:30 UTC on 14 March is already 15 March in Berlin (UTC+1).
    expect(berlinToday(new Date('2025-03-14T23:30:00Z'))).toBe('2025-03-15');
    expect(berlinToday(new Date('2025-07-01T12:00:00Z'))).toBe('2025-07-01');
  });
});
