import type { MessageDescriptor } from '@formatjs/intl';
import { readStoredLocale, type Locale } from './locale';
import type { MessagePart } from './message-parts';

/**
 * Flat message table: 'ui.button.next' → ICU message. In the build a message is plain text or its
 * precompiled syntax tree (vite.config.ts, messageParts); in tests and dev the ICU source.
 */
export type Message = NonNullable<MessageDescriptor['defaultMessage']>;
export type Messages = Readonly<Record<string, Message>>;

type NestedMessages = { [key: string]: Message | NestedMessages };

/**
 * Each locale file is cut into two dynamic chunks (message-parts.ts): the screens before sign-in
 * and the signed-in app. The first route only pays for the signed-out part of the language in use;
 * the service worker precaches all four chunks, so switching works offline.
 */
const importers: Record<Locale, Record<MessagePart, () => Promise<{ default: NestedMessages }>>> = {
  de: {
    'signed-out': () => import('../../locales/de.json?signed-out'),
    'signed-in': () => import('../../locales/de.json?signed-in'),
  },
  en: {
    'signed-out': () => import('../../locales/en.json?signed-out'),
    'signed-in': () => import('../../locales/en.json?signed-in'),
  },
};

/**
 * Nested JSON → dotted ids, so features can group keys by namespace in the files. The build's
 * precompiled files are flat already and pass through unchanged.
 */
export function flattenMessages(tree: NestedMessages, prefix = '', out: Record<string, Message> = {}): Record<string, Message> {
  for (const [key, value] of Object.entries(tree)) {
    const id = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || Array.isArray(value)) out[id] = value;
    else if (value && typeof value === 'object') flattenMessages(value, id, out);
  }
  return out;
}

/** The parts loaded so far, merged, per locale; a new object whenever a part joins. */
const loaded = new Map<Locale, Messages>();
const loadedParts = new Map<Locale, Set<MessagePart>>();
const pending = new Map<string, Promise<void>>();
const listeners = new Set<() => void>();
/** The parts every language needs from now on: the signed-in one joins with the first signed-in screen. */
const needed = new Set<MessagePart>(['signed-out']);

/** The messages of a locale loaded so far (undefined while none is), synchronously. */
export const getLoadedMessages = (locale: Locale): Messages | undefined => loaded.get(locale);

/** Called whenever a part of some locale has arrived (the provider re-renders with it). */
export function subscribeMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function loadPart(locale: Locale, part: MessagePart): Promise<void> {
  if (loadedParts.get(locale)?.has(part)) return Promise.resolve();
  const key = `${locale}:${part}`;
  let promise = pending.get(key);
  if (!promise) {
    promise = importers[locale][part]()
      .then((mod) => {
        loaded.set(locale, Object.freeze({ ...loaded.get(locale), ...flattenMessages(mod.default) }));
        loadedParts.set(locale, new Set([...(loadedParts.get(locale) ?? []), part]));
        for (const listener of listeners) listener();
      })
      .finally(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}

/**
 * Loads (once) and caches what the app needs of a locale: the signed-out part, and the signed-in
 * one too once `loadSignedInMessages` was called. main.tsx calls this before the first render with
 * the stored locale so the provider renders at once instead of showing its fallback.
 */
export async function loadMessages(locale: Locale): Promise<Messages> {
  await Promise.all([...needed].map((part) => loadPart(locale, part)));
  return loaded.get(locale)!;
}

/**
 * The signed-in screens' messages, in `locale` now and in any language switched to later. Awaited
 * by whatever shows a signed-in screen before it renders (the signed-in layout's beforeLoad, the
 * signed-in not-found page).
 */
export function loadSignedInMessages(locale: Locale = readStoredLocale()): Promise<Messages> {
  needed.add('signed-in');
  return loadMessages(locale);
}
