/**
 * Each locale file is loaded in two parts, so the first route carries only what the screens before
 * sign-in show (~3 KB gzip of German instead of ~8): sign-in, forgot password, not found, the
 * Stripe return pages, route errors, notices, the alert dialog and the language switch. The build
 * (vite.config.ts, `messageParts`) cuts both parts out of the one file per language, so de.json and
 * en.json stay the single source with identical keys; the signed-in part is loaded by the signed-in
 * layout before its first render (`loadSignedInMessages`, messages.ts).
 *
 * An entry is a namespace or a key (or a group of keys) of the locale files. A screen before
 * sign-in that uses a key outside this list shows the key instead of the text:
 * `message-parts.test.ts` follows the imports of those screens and names what to add here.
 */
export const SIGNED_OUT_MESSAGES = [
  'auth',
  'errors',
  'notFound',
  'routeError',
  'screenTitle',
  'stripe',
  'validation',
  'app.name',
  'app.updateAvailable',
  'app.updateNow',
  'nav.language',
  'nav.languageDe',
  'nav.languageEn',
  'settings.passwordRules',
  'ui.alert',
  'ui.common',
  'ui.notices',
] as const;

export const MESSAGE_PARTS = ['signed-out', 'signed-in'] as const;
export type MessagePart = (typeof MESSAGE_PARTS)[number];

export const isSignedOutMessage = (id: string): boolean => SIGNED_OUT_MESSAGES.some((entry) => id === entry || id.startsWith(`${entry}.`));

/** The messages of one part out of a flat message table. */
export function pickMessagePart<M>(flat: Record<string, M>, part: MessagePart): Record<string, M> {
  return Object.fromEntries(Object.entries(flat).filter(([id]) => isSignedOutMessage(id) === (part === 'signed-out')));
}
