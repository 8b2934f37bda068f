import { describe, expect, it } from 'vitest';
import {
  EMPTY,
  formatDate,
  formatDateTime,
  formatKwh,
  formatMoney,
  formatMonth,
  formatMonthYear,
  formatNumber,
  formatTime,
  formatWireDate,
  formattersFor,
  toDate,
} from './format';

const NBSP = '\u00a0';

describe('dates', () => {
  // Local-time constructors keep these tests independent of the machine's time zone.
  const d = new Date(2024, 0, 5, 9, 7, 30);

  it('formats dd.MM.yyyy with zero padding', () => {
    expect(formatDate(d)).toBe('05.01.2024');
    expect(formatDate(new Date(2023, 11, 31))).toBe('31.12.2023');
  });

  it('reads a wire date as a local calendar day (no UTC shift)', () => {
    expect(formatDate('2024-03-01')).toBe('01.03.2024');
    expect(formatWireDate('2024-03-01')).toBe('2024-03-01');
  });

  it('accepts timestamps and ISO strings', () => {
    expect(formatDate(d.getTime())).toBe('05.01.2024');
    expect(formatDate(d.toISOString())).toBe('05.01.2024');
  });

  it('formats date-time as dd.MM.yyyy HH:mm in 24 h', () => {
    expect(formatDateTime(d)).toBe('05.01.2024 09:07');
    expect(formatDateTime(new Date(2024, 5, 30, 23, 59))).toBe('30.06.2024 23:59');
    expect(formatDateTime(new Date(2024, 5, 30, 0, 0))).toBe('30.06.2024 00:00');
    expect(formatTime(new Date(2024, 5, 30, 14, 5))).toBe('14:05');
  });

  it('formats the wire date yyyy-MM-dd', () => {
    expect(formatWireDate(d)).toBe('2024-01-05');
    expect(formatWireDate(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31');
  });

  it('renders missing or broken dates as – (display) and empty (wire)', () => {
    for (const v of [null, undefined, '', 'not a date', new Date(Number.NaN), '2024-02-31']) {
      expect(formatDate(v)).toBe(EMPTY);
      expect(formatDateTime(v)).toBe(EMPTY);
      expect(formatWireDate(v)).toBe('');
    }
    expect(toDate('2024-02-31')).toBeNull();
  });

  it('is the same in both languages', () => {
    expect(formattersFor('de').date(d)).toBe(formattersFor('en').date(d));
    expect(formattersFor('en').dateTime(d)).toBe('05.01.2024 09:07');
  });
});

describe('money (EUR)', () => {
  it('German: 1.234,50 € with a no-break space', () => {
    expect(formatMoney(1234.5, 'de')).toBe(`1.234,50${NBSP}€`);
    expect(formatMoney(0, 'de')).toBe(`0,00${NBSP}€`);
    expect(formatMoney(1234567.891, 'de')).toBe(`1.234.567,89${NBSP}€`);
    expect(formatMoney(-12.5, 'de')).toBe(`-12,50${NBSP}€`);
  });

  it('English: de-DE EUR as well (spec 1 §9), not €1,234.50', () => {
    expect(formatMoney(1234.5, 'en')).toBe(`1.234,50${NBSP}€`);
    expect(formatMoney(2.42, 'en')).toBe(`2,42${NBSP}€`);
    expect(formatMoney(1234567.891, 'en')).toBe(`1.234.567,89${NBSP}€`);
  });

  it('never shows minus zero', () => {
    expect(formatMoney(-0, 'de')).toBe(`0,00${NBSP}€`);
    expect(formatMoney(-0.001, 'en')).toBe(`0,00${NBSP}€`);
  });

  it('accepts numeric strings and renders missing values as –', () => {
    expect(formatMoney('99.9', 'de')).toBe(`99,90${NBSP}€`);
    for (const v of [null, undefined, '', 'abc', Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatMoney(v, 'de')).toBe(EMPTY);
      expect(formatMoney(v, 'en')).toBe(EMPTY);
    }
  });
});

describe('energy (kWh, two decimals)', () => {
  it('German: comma decimal', () => {
    expect(formatKwh(12.5, 'de')).toBe(`12,50${NBSP}kWh`);
    expect(formatKwh(0, 'de')).toBe(`0,00${NBSP}kWh`);
    expect(formatKwh(1234567.006, 'de')).toBe(`1.234.567,01${NBSP}kWh`);
    expect(formatKwh(0.005, 'de')).toBe(`0,01${NBSP}kWh`);
  });

  it('English: dot decimal', () => {
    expect(formatKwh(12.5, 'en')).toBe(`12.50${NBSP}kWh`);
    expect(formatKwh(0, 'en')).toBe(`0.00${NBSP}kWh`);
    expect(formatKwh(1234567.006, 'en')).toBe(`1,234,567.01${NBSP}kWh`);
  });

  it('renders missing values as –', () => {
    expect(formatKwh(null, 'de')).toBe(EMPTY);
    expect(formatKwh(undefined, 'en')).toBe(EMPTY);
    expect(formatKwh(' ', 'en')).toBe(EMPTY);
  });
});

describe('plain numbers', () => {
  it('groups by language, no decimals by default', () => {
    expect(formatNumber(1234567, 'de')).toBe('1.234.567');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatNumber(0, 'de')).toBe('0');
    expect(formatNumber(2.345, 'de', 1)).toBe('2,3');
    expect(formatNumber(null, 'de')).toBe(EMPTY);
  });
});

describe('months for chart labels', () => {
  it('German names by default', () => {
    expect(formatMonth(0)).toBe('Januar');
    expect(formatMonth(2)).toBe('März');
    expect(formatMonth(11, 'de', 'short')).toBe('Dez');
    expect(formatMonth(new Date(2024, 4, 1))).toBe('Mai');
    expect(formatMonth('2024-10-15', 'de', 'short')).toBe('Okt');
  });

  it('English names when asked', () => {
    expect(formatMonth(2, 'en')).toBe('March');
    expect(formatMonth(9, 'en', 'short')).toBe('Oct');
  });

  it('month and year', () => {
    expect(formatMonthYear(new Date(2024, 2, 1))).toBe('März 2024');
    expect(formatMonthYear(new Date(2024, 2, 1), 'de', 'short')).toBe('Mär 24');
    expect(formatMonthYear('2025-01-31', 'en')).toBe('January 2025');
  });

  it('out-of-range and missing input give –', () => {
    expect(formatMonth(null)).toBe(EMPTY);
    expect(formatMonthYear(undefined)).toBe(EMPTY);
  });
});
