import { CalendarDate } from '@internationalized/date';
import { describe, expect, it } from 'vitest';
import { defaultRange, fromDisplay, fromWire, toDisplay, toWire, validateDateRange } from './date-range';

const today = new CalendarDate(2024, 3, 15);
const d = (y: number, m: number, day: number) => new CalendarDate(y, m, day);

describe('defaultRange', () => {
  it('is the last 7 days up to today', () => {
    const r = defaultRange(today);
    expect(toWire(r.start)).toBe('2024-03-08');
    expect(toWire(r.end)).toBe('2024-03-15');
  });
  it('crosses month and year boundaries and takes other lengths', () => {
    expect(toWire(defaultRange(d(2024, 1, 3)).start)).toBe('2023-12-27');
    expect(toWire(defaultRange(today, 30).start)).toBe('2024-02-14'); // 2024 is a leap year
  });
  it('is valid by the rules', () => {
    expect(validateDateRange(defaultRange(today), today).isValid).toBe(true);
  });
});

describe('wire and display formats', () => {
  it('toWire gives yyyy-MM-dd, empty for none', () => {
    expect(toWire(d(2024, 1, 5))).toBe('2024-01-05');
    expect(toWire(null)).toBe('');
  });
  it('fromWire parses real dates only', () => {
    expect(fromWire('2024-02-29')?.toString()).toBe('2024-02-29');
    for (const v of ['2023-02-29', '2024-13-01', '15.03.2024', '', null, undefined]) expect(fromWire(v)).toBeNull();
  });
  it('display dd.MM.yyyy round-trips', () => {
    expect(toDisplay(d(2024, 1, 5))).toBe('05.01.2024');
    expect(fromDisplay('05.01.2024')?.toString()).toBe('2024-01-05');
    expect(fromDisplay('31.02.2024')).toBeNull();
    expect(fromDisplay('5.1.2024')).toBeNull();
  });
});

describe('validateDateRange', () => {
  it('requires start and end', () => {
    const r = validateDateRange({ start: null, end: null }, today);
    expect(r.start?.id).toBe('validation.required');
    expect(r.end?.id).toBe('validation.required');
    expect(r.isValid).toBe(false);
  });

  it('rejects an end before the start', () => {
    const r = validateDateRange({ start: d(2024, 3, 10), end: d(2024, 3, 9) }, today);
    expect(r.start).toBeNull();
    expect(r.end?.id).toBe('validation.endBeforeStart');
    expect(r.isValid).toBe(false);
  });

  it('accepts start equal to end', () => {
    expect(validateDateRange({ start: d(2024, 3, 10), end: d(2024, 3, 10) }, today).isValid).toBe(true);
  });

  it('rejects an end after today but accepts today', () => {
    expect(validateDateRange({ start: d(2024, 3, 1), end: d(2024, 3, 16) }, today).end?.id).toBe('validation.endAfterToday');
    expect(validateDateRange({ start: d(2024, 3, 1), end: today }, today).isValid).toBe(true);
  });

  it('reports incomplete dates as invalid, not as missing', () => {
    const r = validateDateRange({ start: null, end: null, startIncomplete: true, endIncomplete: true }, today);
    expect(r.start?.id).toBe('validation.invalidDate');
    expect(r.end?.id).toBe('validation.invalidDate');
  });

  it('rejects implausible years (a half-typed year)', () => {
    const r = validateDateRange({ start: d(2, 3, 8), end: d(2024, 3, 10) }, today);
    expect(r.start?.id).toBe('validation.invalidDate');
    expect(r.end).toBeNull();
    expect(validateDateRange({ start: d(2024, 3, 8), end: d(20, 3, 10) }, today).end?.id).toBe('validation.invalidDate');
  });

  it('checks the end alone when the start is missing', () => {
    const r = validateDateRange({ start: null, end: d(2024, 4, 1) }, today);
    expect(r.start?.id).toBe('validation.required');
    expect(r.end?.id).toBe('validation.endAfterToday');
  });
});
