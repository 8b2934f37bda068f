import { describe, expect, it } from 'vitest';
import { createIntl } from '@formatjs/intl';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { compileMessages } from './compile-messages';
import { createTranslator } from './i18n-provider';
import { flattenMessages } from './messages';
import { ARIA_LOCALE, type Locale } from './locale';
import type { MessageValues } from './i18n-context';

/** Every argument a compiled message uses, with the plural counts worth trying. */
function argumentsOf(ast: MessageFormatElement[], out = new Map<string, 'text' | 'count'>()) {
  for (const el of ast) {
    if (el.type === 1) out.set(el.value, out.get(el.value) ?? 'text');
    if (el.type === 2 || el.type === 6) out.set(el.value, 'count');
    if (el.type === 5 || el.type === 6) for (const option of Object.values(el.options)) argumentsOf(option.value, out);
    if (el.type === 8) argumentsOf(el.children, out);
  }
  return out;
}

// The build ships compiled messages and no ICU parser (vite.config.ts); the tests elsewhere run on
// the ICU source. Both must read the same, and nothing in the build may need the parser.
describe.each([
  ['de', de],
  ['en', en],
] as const)('compiled %s messages', (locale: Locale, source) => {
  const compiled = compileMessages(source, ARIA_LOCALE[locale]);
  const fromSource = createTranslator(locale, flattenMessages(source)).t;
  const fromBuild = createTranslator(locale, compiled).t;

  it('has every id of the source', () => {
    expect(Object.keys(compiled).sort()).toEqual(Object.keys(flattenMessages(source)).sort());
  });

  it('read the same as the source, for every message and plural form', () => {
    for (const [id, message] of Object.entries(compiled)) {
      const args = typeof message === 'string' ? new Map<string, 'text' | 'count'>() : argumentsOf(message);
      for (const count of [0, 1, 2, 5]) {
        const values: MessageValues = Object.fromEntries([...args].map(([name, kind]) => [name, kind === 'count' ? count : `‹${name}›`]));
        expect(fromBuild(id, values), id).toBe(fromSource(id, values));
      }
    }
  });

  // The provider formats with format-message.ts instead of formatjs (first-route size); every message
  // and the relative times must read exactly as formatjs' createIntl has them.
  it('format as formatjs createIntl does, compiled and source', () => {
    for (const messages of [compiled, flattenMessages(source)]) {
      const { t, intl } = createTranslator(locale, messages);
      const reference = createIntl({
        locale: ARIA_LOCALE[locale],
        defaultLocale: ARIA_LOCALE.de,
        messages: messages as Record<string, string>,
      });
      for (const [id, message] of Object.entries(compiled)) {
        const args = typeof message === 'string' ? new Map<string, 'text' | 'count'>() : argumentsOf(message);
        for (const count of [0, 1, 2, 5]) {
          const values: MessageValues = Object.fromEntries([...args].map(([name, kind]) => [name, kind === 'count' ? count : `‹${name}›`]));
          expect(t(id, values), id).toBe(reference.formatMessage({ id }, values));
        }
      }
      for (const [value, unit] of [
        [-5, 'minute'],
        [-1, 'day'],
        [0, 'hour'],
        [-3, 'week'],
      ] as const)
        expect(intl.formatRelativeTime(value, unit, { numeric: 'auto' })).toBe(
          reference.formatRelativeTime(value, unit, { numeric: 'auto' }),
        );
    }
  });

  it('keeps as strings only messages shown as they are', () => {
    for (const [id, message] of Object.entries(compiled)) {
      if (typeof message === 'string') expect(fromBuild(id, { unused: 1 }), id).toBe(message);
    }
  });
});

// ICU forms today's locale files do not use yet (select, number, date, offsets, tags): a new message
// using them must read as formatjs has it too.
describe('format-message beyond the locale files', () => {
  const messages = {
    select: '{kind, select, station {Station {name}} location {Standort} other {Anderes}}',
    number: '{n, number} / {n, number, percent} / {n, number, integer} / {n, number, ::currency/EUR}',
    date: '{d, date, short} · {d, date, long} · {d, time, short}',
    offset: '{n, plural, offset:1 =0 {niemand} =1 {{who}} one {{who} und # weitere} other {{who} und # weitere}}',
    ordinal: '{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}',
    nested: '{a, plural, one {{b, select, x {eins-x} other {eins-#}}} other {viele-#}}',
    quoted: "'{'wörtlich'}' und {v}",
  };
  const date = new Date(2026, 10, 24, 14, 5);
  for (const [locale, ariaLocale] of Object.entries(ARIA_LOCALE) as [Locale, string][]) {
    it(`reads as formatjs in ${locale}`, () => {
      const compiled = compileMessages(messages, ariaLocale);
      const reference = createIntl({ locale: ariaLocale, messages });
      for (const table of [compiled, messages]) {
        const { t } = createTranslator(locale, table);
        for (const n of [0, 1, 2, 3, 4, 11, 12.5, 1234.5]) {
          const values: MessageValues = {
            kind: n % 2 ? 'station' : 'x',
            name: 'Süd',
            n,
            d: date,
            who: 'Ada',
            a: n,
            b: n > 3 ? 'x' : 'y',
            v: n,
          };
          for (const id of Object.keys(messages)) expect(t(id, values), `${id} ${n}`).toBe(reference.formatMessage({ id }, values));
        }
      }
    });
  }
});
