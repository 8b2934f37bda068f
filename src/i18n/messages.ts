import type { MessageDescriptor } from '@formatjs/intl';
import type { Locale } from './locale';

/**
 * Flat message table: 'ui.button.next' → ICU message. In the build a message is plain text or its
 * precompiled syntax tree (vite.config.ts, precompileMessages); in tests and dev the ICU source.
 */
export type Message = NonNullable<MessageDescriptor['defaultMessage']>;
export type Messages = Readonly<Record<string, Message>>;

type NestedMessages = { [key: string]: Message | NestedMessages };

/**
 * Each locale file is its own dynamic chunk, so the first route only pays for the language in use.
 * The service worker precaches both chunks, so switching works offline.
 */
const importers: Record<Locale, () => Promise<{ default: NestedMessages }>> = {
  de: () => import('../../locales/de.json'),
  en: () => import('../../locales/en.json'),
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

const loaded = new Map<Locale, Messages>();
const pending = new Map<Locale, Promise<Messages>>();

/** Already loaded messages, synchronously (undefined while the chunk is on its way). */
export const getLoadedMessages = (locale: Locale): Messages | undefined => loaded.get(locale);

/**
 * Loads (once) and caches a locale. main.tsx may call this before the first render with the stored
 * locale so the provider renders at once instead of showing its fallback.
 */
export function loadMessages(locale: Locale): Promise<Messages> {
  const done = loaded.get(locale);
  if (done) return Promise.resolve(done);
  let promise = pending.get(locale);
  if (!promise) {
    promise = importers[locale]()
      .then((mod) => {
        const flat = Object.freeze(flattenMessages(mod.default));
        loaded.set(locale, flat);
        return flat;
      })
      .finally(() => pending.delete(locale));
    pending.set(locale, promise);
  }
  return promise;
}
