import { CalendarDate, getLocalTimeZone, parseDate, today } from '@internationalized/date';
import type { ValidationFailure } from './validation';

/**
 * Date-range rules (spec 1 §5): start and end required, end not before start, end not later than
 * today, incomplete or impossible dates rejected. Shown dd.MM.yyyy, sent yyyy-MM-dd.
 */
export interface DateRange {
  start: CalendarDate | null;
  end: CalendarDate | null;
}

export interface DateRangeInput extends DateRange {
  /** The user typed part of a date (some segments empty): the value is not a date yet. */
  startIncomplete?: boolean;
  endIncomplete?: boolean;
}

export interface DateRangeValidation {
  start: ValidationFailure | null;
  end: ValidationFailure | null;
  isValid: boolean;
}

export const DEFAULT_RANGE_DAYS = 7;
/** Years before this are typos (a half-typed '2' becomes year 0002), not real filter dates. */
export const MIN_YEAR = 1900;

const implausible = (date: CalendarDate | null) => Boolean(date && date.year < MIN_YEAR);

/** Today in the device's time zone (the staff's calendar day, not UTC's). */
export const todayLocal = (): CalendarDate => today(getLocalTimeZone());

/** The default filter: from `days` days ago up to and including today. */
export function defaultRange(
  todayDate: CalendarDate = todayLocal(),
  days = DEFAULT_RANGE_DAYS,
): { start: CalendarDate; end: CalendarDate } {
  return { start: todayDate.subtract({ days }), end: todayDate };
}

/** CalendarDate → 'yyyy-MM-dd' for the wire; '' when empty (empty values are dropped from requests). */
export function toWire(date: CalendarDate | null | undefined): string {
  return date ? date.toString() : '';
}

/** 'yyyy-MM-dd' (e.g. from search params) → CalendarDate, or null when missing or not a real date. */
export function fromWire(value: string | null | undefined): CalendarDate | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  try {
    const d = parseDate(value);
    return d.toString() === value ? d : null;
  } catch {
    return null;
  }
}

/** 'dd.MM.yyyy' → CalendarDate, or null (rejects 31.02.2024 and the like). */
export function fromDisplay(value: string | null | undefined): CalendarDate | null {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec((value ?? '').trim());
  return m ? fromWire(`${m[3]}-${m[2]}-${m[1]}`) : null;
}

/** CalendarDate → 'dd.MM.yyyy'. */
export function toDisplay(date: CalendarDate | null | undefined): string {
  if (!date) return '';
  const [y, mo, d] = date.toString().split('-');
  return `${d}.${mo}.${y}`;
}

export function validateDateRange(input: DateRangeInput, todayDate: CalendarDate = todayLocal()): DateRangeValidation {
  const { start, end } = input;
  let startError: ValidationFailure | null = null;
  let endError: ValidationFailure | null = null;

  if (input.startIncomplete || implausible(start)) startError = { id: 'validation.invalidDate' };
  else if (!start) startError = { id: 'validation.required' };

  if (input.endIncomplete || implausible(end)) endError = { id: 'validation.invalidDate' };
  else if (!end) endError = { id: 'validation.required' };
  else if (start && !startError && end.compare(start) < 0) endError = { id: 'validation.endBeforeStart' };
  else if (end.compare(todayDate) > 0) endError = { id: 'validation.endAfterToday' };

  return { start: startError, end: endError, isValid: !startError && !endError };
}
