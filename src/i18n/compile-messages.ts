import { parse, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { isPlainText } from './plain-text';

type Tree = { [key: string]: unknown };

/**
 * A locale file compiled the way `@formatjs/cli compile --ast` does, at build time only
 * (vite.config.ts, messageParts): flat ids, plain text kept as a string, every other message
 * as its ICU syntax tree, so the build can leave the ICU parser out of the app.
 */
export function compileMessages(tree: Tree, locale: string): Record<string, string | MessageFormatElement[]> {
  const flat: Record<string, string | MessageFormatElement[]> = {};
  const walk = (node: Tree, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      const id = prefix ? `${prefix}.${key}` : key;
      if (typeof value === 'object' && value !== null) walk(value as Tree, id);
      else if (typeof value === 'string') flat[id] = isPlainText(value) ? value : parse(value, { locale: new Intl.Locale(locale) });
    }
  };
  walk(tree, '');
  return flat;
}
