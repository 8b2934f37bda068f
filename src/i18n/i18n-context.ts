import { createContext, useContext } from 'react';
import type { Locale } from './locale';

/** Values an ICU message can interpolate. Plain text only: components decide the markup. */
export type MessageValues = Record<string, string | number | boolean | Date | null | undefined>;
export type TranslateFn = (id: string, values?: MessageValues) => string;

export interface I18nContextValue {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  t: TranslateFn;
  intl: IntlFormatters;
}

/**
 * The formatters the app uses beyond `t` (format-message.ts). Only these: the first route carries
 * every formatter the provider binds (i18n-provider.tsx).
 */
export interface IntlFormatters {
  formatRelativeTime(value: number, unit: Intl.RelativeTimeFormatUnit, options?: Intl.RelativeTimeFormatOptions): string;
}

export const I18nContext = createContext<I18nContextValue | null>(null);

function useI18nContext(): I18nContextValue {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error('useT/useLocale need an <I18nProvider> above them');
  return ctx;
}

/** `const t = useT(); t('ui.pagination.pageOf', { page: 2, pages: 5 })` */
export const useT = (): TranslateFn => useI18nContext().t;

/** The active language and a setter that loads, persists and applies another one. */
export function useLocale(): { locale: Locale; setLocale: (locale: Locale) => void } {
  const { locale, setLocale } = useI18nContext();
  return { locale, setLocale };
}

/** The formatters beyond `t` (relative time). */
export const useIntl = (): IntlFormatters => useI18nContext().intl;
