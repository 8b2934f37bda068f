import { useMemo } from 'react';
import { useLocale } from './i18n-context';
import type { Locale } from './locale';

/**
 * Display formatters (spec 1 §9). Pure functions taking the locale; `useFormat()` binds them to the
 * active one. Every display formatter renders a missing or unparsable value as EMPTY ('–') so
 * tables never show 'NaN', 'Invalid Date' or a blank that looks like a loading glitch.
 * Wire formatters return '' instead, because request bodies drop empty values.
 */
export const EMPTY = '–';

export type DateInput = Date | string | number | null | undefined;
export type NumberInput = number | string | null | undefined;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Parses into a local Date. 'yyyy-MM-dd' is read as a local calendar day, not UTC midnight. */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'string') {
    const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
    if (day) {
      const d = new Date(2000, Number(day[2]) - 1, Number(day[3]));
      d.setFullYear(Number(day[1]));
      return d.getMonth() === Number(day[2]) - 1 ? d : null;
    }
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** dd.MM.yyyy in both languages (spec 1 §5). Local time zone. */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  return d ? `${pad(d.getDate())}.${pad(d.getMonth() + 1)}.${pad(d.getFullYear(), 4)}` : EMPTY;
}

/** dd.MM.yyyy HH:mm (24 h) in both languages. */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? `${formatDate(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}` : EMPTY;
}

/** HH:mm, e.g. for "ab 14:05 Uhr" in the cockpit's period column. */
export function formatTime(value: DateInput): string {
  const d = toDate(value);
  return d ? `${pad(d.getHours())}:${pad(d.getMinutes())}` : EMPTY;
}

/** yyyy-MM-dd as sent to the server; '' when there is no date. */
export function formatWireDate(value: DateInput): string {
  const d = toDate(value);
  return d ? `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : '';
}

/**
 * Number locale per UI language. German: de-DE. English: en-GB, so English screens use the dot
 * decimal everywhere (spec 1 §9 asks for it for kWh); mixing '1.234,50 €' with '12.50 kWh' on one
 * English screen would be misread. Money is the exception: de-DE EUR in both (spec 1 §9, formatMoney).
 */
const NUMBER_LOCALE: Record<Locale, string> = { de: 'de-DE', en: 'en-GB' };

const formatters = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: Locale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let nf = formatters.get(key);
  if (!nf) {
    // signDisplay 'negative' keeps -0 and values rounding to zero from showing as '-0,00'.
    nf = new Intl.NumberFormat(NUMBER_LOCALE[locale], { signDisplay: 'negative', ...options });
    formatters.set(key, nf);
  }
  return nf;
}

function toNumber(value: NumberInput): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && value.trim() === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/**
 * EUR with two decimals as spec 1 §9 fixes it, de-DE in both languages: '1.234,50 €' (no-break
 * space before €), so an amount reads the same on an English screen as on the bill.
 */
export function formatMoney(value: NumberInput, _locale?: Locale): string {
  const n = toNumber(value);
  return n === null ? EMPTY : numberFormat('de', { style: 'currency', currency: 'EUR' }).format(n);
}

/** Energy with exactly two decimals: de '12,50 kWh', en '12.50 kWh' (no-break space before the unit). */
export function formatKwh(value: NumberInput, locale: Locale): string {
  const n = toNumber(value);
  if (n === null) return EMPTY;
  return `${numberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)}\u00a0kWh`;
}

/** Grouped number, by default without decimals (counts: users, stations, licences). */
export function formatNumber(value: NumberInput, locale: Locale, fractionDigits = 0): string {
  const n = toNumber(value);
  if (n === null) return EMPTY;
  return numberFormat(locale, { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }).format(n);
}

/** Fixed lists rather than Intl: Intl's German short months are irregular ('Jan.', 'März', 'Juni'). */
const MONTHS: Record<Locale, { long: readonly string[]; short: readonly string[] }> = {
  de: {
    long: ['Januar', 'Februar', 'März', 'April', 'Mai', 'Juni', 'Juli', 'August', 'September', 'Oktober', 'November', 'Dezember'],
    short: ['Jan', 'Feb', 'Mär', 'Apr', 'Mai', 'Jun', 'Jul', 'Aug', 'Sep', 'Okt', 'Nov', 'Dez'],
  },
  en: {
    long: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
    short: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  },
};

/** Month name for chart labels; takes a month index 0–11 or a date. German by default. */
export function formatMonth(value: number | DateInput, locale: Locale = 'de', style: 'long' | 'short' = 'long'): string {
  const index = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 12 ? value : toDate(value)?.getMonth();
  return index === undefined ? EMPTY : MONTHS[locale][style][index];
}

/** Chart label for a month bucket: 'März 2024' / 'Mär 24' (short). */
export function formatMonthYear(value: DateInput, locale: Locale = 'de', style: 'long' | 'short' = 'long'): string {
  const d = toDate(value);
  if (!d) return EMPTY;
  const year = style === 'short' ? pad(d.getFullYear() % 100) : String(d.getFullYear());
  return `${MONTHS[locale][style][d.getMonth()]} ${year}`;
}

export interface Formatters {
  date: (value: DateInput) => string;
  dateTime: (value: DateInput) => string;
  time: (value: DateInput) => string;
  wireDate: (value: DateInput) => string;
  money: (value: NumberInput) => string;
  kwh: (value: NumberInput) => string;
  number: (value: NumberInput, fractionDigits?: number) => string;
  month: (value: number | DateInput, style?: 'long' | 'short') => string;
  monthYear: (value: DateInput, style?: 'long' | 'short') => string;
}

export function formattersFor(locale: Locale): Formatters {
  return {
    date: formatDate,
    dateTime: formatDateTime,
    time: formatTime,
    wireDate: formatWireDate,
    money: (v) => formatMoney(v, locale),
    kwh: (v) => formatKwh(v, locale),
    number: (v, digits) => formatNumber(v, locale, digits),
    month: (v, style) => formatMonth(v, locale, style),
    monthYear: (v, style) => formatMonthYear(v, locale, style),
  };
}

/** `const f = useFormat(); f.money(1234.5)` — bound to the active language. */
export function useFormat(): Formatters {
  const { locale } = useLocale();
  return useMemo(() => formattersFor(locale), [locale]);
}
