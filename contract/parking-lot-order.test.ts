import { describe, expect, it } from 'vitest';
import { compareParkingLots, sortParkingLots } from './common';

describe('parking lots in natural order (issue 23)', () => {
  it('sorts numbers inside lot names by value, not as text', () => {
    expect(sortParkingLots(['P10', 'P2', 'P1', 'H000', 'P02', 'p3', 'A10b', 'A9b'])).toEqual([
      'A9b',
      'A10b',
      'H000',
      'P1',
      'P02',
      'P2',
      'p3',
      'P10',
    ]);
  });

  it('is a total order: equal only for the same text, so the order never depends on the input order', () => {
    expect(compareParkingLots('P2', 'P02')).not.toBe(0);
    expect(sortParkingLots(['P02', 'P2'])).toEqual(sortParkingLots(['P2', 'P02']));
    expect(['P1', 'P10', 'P2'].sort()).toEqual(['P1', 'P10', 'P2']);
    expect(sortParkingLots(['P1', 'P10', 'P2'])).toEqual(['P1', 'P2', 'P10']);
  });
});
