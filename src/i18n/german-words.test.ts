import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';

/**
 * English words that have no place in a German message (issue 23 found 'Operator', 'The request
 * failed', 'Parking lot already exists…' and raw 'false'/'APP' in the German screens). Only words that
 * are not German as well: 'Name', 'Status', 'Details', 'Partner', 'Version', 'Support', 'App', 'an' are, and 'Stations-ID'.
 */
const ENGLISH_WORDS = [
  'the',
  'and',
  'or',
  'of',
  'to',
  'for',
  'with',
  'from',
  'by',
  'on',
  'at',
  'is',
  'are',
  'was',
  'not',
  'this',
  'that',
  'please',
  'yes',
  'no',
  'true',
  'false',
  'null',
  'undefined',
  'request',
  'failed',
  'already',
  'exists',
  'error',
  'mistake',
  'something',
  'went',
  'wrong',
  'invalid',
  'input',
  'required',
  'field',
  'save',
  'saved',
  'cancel',
  'submit',
  'next',
  'back',
  'delete',
  'edit',
  'create',
  'new',
  'retry',
  'again',
  'loading',
  'enter',
  'valid',
  'only',
  'parking',
  'lot',
  'operator',
  'operators',
  'customer',
  'customers',
  'user',
  'users',
  'charging',
  'station',
  'location',
  'locations',
  'settings',
  'password',
  'email',
  'contract',
  'invoice',
  'bill',
  'bills',
  'payment',
  'terminated',
  'pending',
  'finished',
  'denied',
  'postcode',
  'postal',
  'zip',
  'city',
  'street',
  'address',
  'number',
  'date',
  'file',
  'download',
  'upload',
];

/** The words of every message: ICU argument names and keywords are code, not text. */
function messageWords(message: string): string[] {
  const text = message
    .replace(/\{\s*\w+\s*,\s*(number|date|time)\s*(,[^{}]*)?\}/g, ' ')
    .replace(/\{\s*\w+\s*,\s*(plural|select|selectordinal|number|date|time)\s*,/g, '{')
    .replace(/\b(zero|one|two|few|many|other)\s*\{/g, '{')
    .replace(/\{\s*\w+\s*\}/g, ' ');
  return text.match(/[A-Za-zÄÖÜäöüß]+/g) ?? [];
}

type Messages = { [key: string]: string | Messages };
function flatten(messages: Messages, prefix = ''): [string, string][] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : flatten(value, `${prefix}${key}.`),
  );
}

describe('the German messages', () => {
  const german = flatten(de as Messages);

  it('hold no English word', () => {
    const english = new Set(ENGLISH_WORDS);
    const found = german.flatMap(([key, value]) =>
      messageWords(value)
        .filter((word) => english.has(word.toLowerCase()))
        .map((word) => `${key}: ${word}`),
    );
    expect(found).toEqual([]);
  });

  it('show no raw enum value (APP, terminated_request, CONNECTED_UNAVAILABLE)', () => {
    const raw = german.filter(([, value]) =>
      /\b[A-Z]{2,}(_[A-Z]+)+\b|\b[a-z]+_[a-z_]+\b|^(APP|RFID_ONLY|BOTH)$/.test(value.replace(/\{[^{}]*\}/g, '')),
    );
    expect(raw).toEqual([]);
  });

  it('say "required" one way, in one message every form uses', () => {
    const required = german
      .filter(([, value]) => /^(Pflichtfeld\.?|[^:]*erforderlich\.?|Bitte füllen Sie.*)$/.test(value))
      .map(([key]) => key);
    expect(required).toEqual(['validation.required']);
  });

  it('have the same keys as the English ones', () => {
    expect(german.map(([key]) => key).sort()).toEqual(
      flatten(en as Messages)
        .map(([key]) => key)
        .sort(),
    );
  });

  it('find what they look for', () => {
    expect(messageWords('{count, plural, one {# Zeile} other {# Zeilen}} · {name}')).toEqual(['Zeile', 'Zeilen']);
    expect(messageWords('The request failed')).toEqual(['The', 'request', 'failed']);
  });
});
