import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { I18nContext, type I18nContextValue, type IntlFormatters, type MessageValues } from './i18n-context';
import { formatMessage, formatRelativeTime } from './format-message';
import { ARIA_LOCALE, readStoredLocale, storeLocale, type Locale } from './locale';
import { getLoadedMessages, loadMessages, subscribeMessages, type Messages } from './messages';
import { isPlainText } from './plain-text';

// Start fetching the stored language's chunk while the rest of the app is still evaluating, so the
// provider's first render usually finds it loaded (German, the default, is a ~1–10 KB chunk).
if (typeof window !== 'undefined') loadMessages(readStoredLocale()).catch(() => {});
const reported = new Set<string>();

/** Missing ids are logged once in development and rendered as the id itself: visible, never a crash. */
function reportMissing(locale: Locale, id: string) {
  if (!import.meta.env.DEV) return;
  const key = `${locale}:${id}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.warn(`[i18n] missing message "${id}" for locale "${locale}"`);
}

/**
 * `t` and the relative-time formatter of a locale (format-message.ts: formatjs' formatting of its
 * syntax trees without formatjs on the first route; they read exactly as formatjs' createIntl).
 */
export function createTranslator(locale: Locale, messages: Messages) {
  const intlLocale = ARIA_LOCALE[locale];
  const intl: IntlFormatters = {
    formatRelativeTime: (value, unit, options) => formatRelativeTime(intlLocale, value, unit, options),
  };
  const t = (id: string, values?: MessageValues): string => {
    const message = messages[id];
    if (message === undefined) {
      reportMissing(locale, id);
      return id;
    }
    // Plain text needs no formatting; the build has no ICU parser, and plain text is all it keeps as a string.
    if (typeof message === 'string' && isPlainText(message)) return message;
    try {
      return formatMessage(message, intlLocale, values);
    } catch (error) {
      // A value the message needs is missing, or the message is broken: the id shows, never a crash.
      if (import.meta.env.DEV) console.warn('[i18n]', id, error);
      return id;
    }
  };
  return { intl, t };
}

export interface I18nProviderProps {
  children: ReactNode;
  /** Defaults to the stored choice (localStorage 'language'), else German. */
  initialLocale?: Locale;
  /** Rendered until the first locale chunk has arrived (nothing, by default). */
  fallback?: ReactNode;
}

/**
 * App-wide language: ICU messages from locales/{de,en}.json, <html lang> and the persisted choice.
 * react-aria's own locale is set where its widgets live (ui/aria-providers.tsx), off the first route.
 */
export function I18nProvider({ children, initialLocale, fallback = null }: I18nProviderProps) {
  const [requested, setRequested] = useState<Locale>(() => initialLocale ?? readStoredLocale());
  // The locale whose messages are on screen; it lags `requested` while another chunk loads,
  // so switching never blanks the app.
  const [shown, setShown] = useState<Locale | null>(() => (getLoadedMessages(requested) ? requested : null));
  // Read from the store, so the signed-in part joins the messages in the same render as the
  // screen that awaited it (an external store's update is never later than the router's).
  const messages = useSyncExternalStore(subscribeMessages, () => (shown ? getLoadedMessages(shown) : undefined));
  const active = useMemo(() => (shown && messages ? { locale: shown, messages } : null), [shown, messages]);

  useEffect(() => {
    if (active?.locale === requested) return;
    let cancelled = false;
    loadMessages(requested).then(
      () => {
        if (!cancelled) setShown(requested);
      },
      (error: unknown) => {
        console.error(`[i18n] could not load locale "${requested}"`, error);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [requested, active?.locale]);

  useEffect(() => {
    if (active) document.documentElement.lang = active.locale;
  }, [active]);

  const setLocale = useCallback((locale: Locale) => {
    storeLocale(locale);
    setRequested(locale);
  }, []);

  const value = useMemo<I18nContextValue | null>(() => {
    if (!active) return null;
    const { intl, t } = createTranslator(active.locale, active.messages);
    return { locale: active.locale, setLocale, intl, t };
  }, [active, setLocale]);

  if (!value) return <>{fallback}</>;
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}
