import { describe, expect, it } from 'vitest';
import { relativeAge } from './data-age';

describe('relativeAge', () => {
  it('picks the largest whole unit in the past', () => {
    expect(relativeAge(10_000)).toEqual({ value: 0, unit: 'second' });
    expect(relativeAge(5 * 60_000 + 59_000)).toEqual({
      value: -5,
      unit: 'minute',
    });
    expect(relativeAge(3 * 3_600_000)).toEqual({ value: -3, unit: 'hour' });
    expect(relativeAge(2 * 86_400_000 + 1)).toEqual({ value: -2, unit: 'day' });
    expect(relativeAge(-5)).toEqual({ value: 0, unit: 'second' });
  });
});
