/**
 * The largest unit that fits an age, for 'Stand: vor 5 Minuten' / 'As of 5 minutes ago'. Under a
 * minute reads as 'now'; the value is negative because the moment lies in the past.
 */
export type AgeUnit = 'second' | 'minute' | 'hour' | 'day';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function relativeAge(ageMs: number): { value: number; unit: AgeUnit } {
  const age = Math.max(0, ageMs);
  if (age < MINUTE) return { value: 0, unit: 'second' };
  if (age < HOUR) return { value: -Math.floor(age / MINUTE), unit: 'minute' };
  if (age < DAY) return { value: -Math.floor(age / HOUR), unit: 'hour' };
  return { value: -Math.floor(age / DAY), unit: 'day' };
}
