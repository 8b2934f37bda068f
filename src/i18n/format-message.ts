import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/**
 * ICU message formatting over formatjs' syntax trees, as formatjs' `formatMessage` does it, in ~1 KB
 * instead of ~4.4 KB of @formatjs/intl, intl-messageformat and their memoizer on the first route
 * (issue 11). The build ships every message precompiled (compile-messages.ts), so `parse` is
 * formatjs' no-parser there (vite.config.ts); dev and the tests read the ICU source and parse it
 * once per message. `compile-messages.test.ts` checks every message against formatjs' createIntl.
 */
export type FormatValue = string | number | boolean | Date | null | undefined | ((chunks: string[]) => string);
type Values = Record<string, FormatValue>;

/** formatjs' default named formats (`{n, number, percent}`, `{d, date, short}`, `{t, time, short}`). */
const NAMED: Record<'number' | 'date' | 'time', Record<string, Intl.NumberFormatOptions & Intl.DateTimeFormatOptions>> = {
  number: { integer: { maximumFractionDigits: 0 }, currency: { style: 'currency' }, percent: { style: 'percent' } },
  date: {
    short: { month: 'numeric', day: 'numeric', year: '2-digit' },
    medium: { month: 'short', day: 'numeric', year: 'numeric' },
    long: { month: 'long', day: 'numeric', year: 'numeric' },
    full: { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' },
  },
  time: {
    short: { hour: 'numeric', minute: 'numeric' },
    medium: { hour: 'numeric', minute: 'numeric', second: 'numeric' },
    long: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
    full: { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' },
  },
};

/** Intl formatters are costly to build: one per locale and options. */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules | Intl.RelativeTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules | Intl.RelativeTimeFormat>(
  kind: new (locale: string, options?: object) => T,
  locale: string,
  options?: object,
): T {
  const key = `${kind.name}|${locale}|${JSON.stringify(options ?? {})}`;
  let formatter = cache.get(key) as T | undefined;
  if (!formatter) cache.set(key, (formatter = new kind(locale, options)));
  return formatter;
}

export class MissingValueError extends Error {}

const styleOf = (el: { style?: unknown }, named: Record<string, object>, fallback?: object): object | undefined => {
  const style = el.style as string | { parsedOptions?: object } | null | undefined;
  if (typeof style === 'string') return named[style];
  return style?.parsedOptions ?? fallback;
};

function formatElements(elements: MessageFormatElement[], locale: string, values: Values, plural?: number): string {
  let out = '';
  for (const el of elements) {
    if (el.type === 0) {
      out += el.value;
      continue;
    }
    if (el.type === 7) {
      if (typeof plural === 'number') out += cached(Intl.NumberFormat, locale).format(plural);
      continue;
    }
    if (!(el.value in values)) throw new MissingValueError(`The intl string context variable "${el.value}" was not provided`);
    const value = values[el.value];
    switch (el.type) {
      case 1:
        out += value === null || value === undefined || value === false ? '' : String(value);
        break;
      case 2: {
        const options = styleOf(el, NAMED.number) as (Intl.NumberFormatOptions & { scale?: number }) | undefined;
        out += cached(Intl.NumberFormat, locale, options).format(Number(value) * (options?.scale ?? 1));
        break;
      }
      case 3:
      case 4:
        out += cached(
          Intl.DateTimeFormat,
          locale,
          styleOf(el, NAMED[el.type === 3 ? 'date' : 'time'], NAMED[el.type === 3 ? 'date' : 'time'].medium),
        ).format(value as Date | number);
        break;
      case 5:
        out += formatElements((el.options[String(value)] ?? el.options.other)!.value, locale, values, plural);
        break;
      case 6: {
        const n = Number(value);
        const exact = el.options[`=${n}`];
        const rule = exact ? undefined : cached(Intl.PluralRules, locale, { type: el.pluralType }).select(n - el.offset);
        const option = exact ?? el.options[rule!] ?? el.options.other;
        if (!option) throw new Error(`No plural option for ${n} in "${el.value}"`);
        out += formatElements(option.value, locale, values, n - el.offset);
        break;
      }
      case 8: {
        const children = formatElements(el.children, locale, values, plural);
        out += typeof value === 'function' ? value([children]) : children;
        break;
      }
    }
  }
  return out;
}

const parsed = new Map<string, MessageFormatElement[]>();

/** A message (plain text, ICU source or its syntax tree) with its values in `locale`. */
export function formatMessage(message: string | MessageFormatElement[], locale: string, values: Values = {}): string {
  let ast = message;
  if (typeof ast === 'string') {
    const source = ast;
    ast = parsed.get(`${locale}|${source}`) ?? parse(source, { locale: new Intl.Locale(locale) });
    parsed.set(`${locale}|${source}`, ast);
  }
  return formatElements(ast, locale, values);
}

/** `Intl.RelativeTimeFormat` of a locale, one per options. */
export const formatRelativeTime = (
  locale: string,
  value: number,
  unit: Intl.RelativeTimeFormatUnit,
  options?: Intl.RelativeTimeFormatOptions,
): string => cached(Intl.RelativeTimeFormat, locale, options).format(value, unit);
