import { describe, expect, it } from 'vitest';
import { formatGraphLabel, parseGraphLabel } from './graph-labels';

describe('formatGraphLabel', () => {
  it('months in German', () => {
    expect(formatGraphLabel('2025-03', 'MONTHS', 'de')).toBe('März 2025');
    expect(formatGraphLabel('2025-03', 'MONTHS', 'de', 'axis')).toBe('März');
    expect(formatGraphLabel('2025-03', 'MONTHS', 'de', 'axis-short')).toBe('Mär');
    expect(formatGraphLabel('2024-12', 'MONTHS', 'de')).toBe('Dezember 2024');
    expect(formatGraphLabel('2025-10', 'MONTHS', 'de', 'axis-short')).toBe('Okt');
  });

  it('months in English', () => {
    expect(formatGraphLabel('2025-03', 'MONTHS', 'en')).toBe('March 2025');
    expect(formatGraphLabel('2025-05', 'MONTHS', 'en', 'axis')).toBe('May');
    expect(formatGraphLabel('2025-10', 'MONTHS', 'en', 'axis-short')).toBe('Oct');
  });

  it('days as dd.MM. on the axis and dd.MM.yyyy in full, in both languages', () => {
    expect(formatGraphLabel('2025-03-04', 'DAYS', 'de', 'axis')).toBe('04.03.');
    expect(formatGraphLabel('2025-03-04', 'DAYS', 'en', 'full')).toBe('04.03.2025');
  });

  it('a day label under MONTHS still names the month; unknown labels pass through', () => {
    expect(formatGraphLabel('2025-01-01', 'MONTHS', 'de')).toBe('Januar 2025');
    expect(formatGraphLabel('KW 12', 'DAYS', 'de')).toBe('KW 12');
    expect(formatGraphLabel('', 'DAYS', 'de')).toBe('–');
  });
});

describe('parseGraphLabel', () => {
  it('reads both wire shapes and refuses impossible months', () => {
    expect(parseGraphLabel('2025-03')).toEqual({
      year: 2025,
      month: 3,
      day: null,
    });
    expect(parseGraphLabel('2025-03-09')).toEqual({
      year: 2025,
      month: 3,
      day: 9,
    });
    expect(parseGraphLabel('2025-13')).toBeNull();
  });
});
