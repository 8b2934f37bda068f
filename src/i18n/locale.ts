/** The two UI languages (spec 1 §2: German is the default, English second). */
export const LOCALES = ['de', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'de';

/** localStorage key holding the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'language';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/**
 * Locale handed to react-aria (date fields, number fields, its own built-in strings).
 * en-GB rather than en-US: day-first dates, Monday-first calendars, euro-area users.
 */
export const ARIA_LOCALE: Record<Locale, string> = { de: 'de-DE', en: 'en-GB' };

/**
 * Date inputs must show dd.MM.yyyy in both languages (spec 1 §5). en-GB would segment them as
 * dd/mm/yyyy, so date fields get en-CH: English segment names, dotted day-first order.
 */
export const DATE_FIELD_LOCALE: Record<Locale, string> = { de: 'de-DE', en: 'en-CH' };

/** The stored choice, or German. Safe where localStorage is missing or blocked. */
export function readStoredLocale(): Locale {
  try {
    const stored = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isLocale(stored) ? stored : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

export function storeLocale(locale: Locale): void {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Private mode or quota: the choice then lasts for this session only.
  }
}
