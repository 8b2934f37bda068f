import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { flattenMessages } from '../i18n/messages';
import {
  differentEmail,
  digitsOnly,
  emailsMatch,
  failureForCode,
  maxLength,
  passwordsMatch,
  required,
  rules,
  strongPassword,
  validate,
  validationMessage,
  type ValidationMessageId,
} from './validation';

const id = (r: { id: string } | null) => r?.id ?? null;

describe('required', () => {
  it('fails on empty, whitespace, null, undefined and empty arrays', () => {
    for (const v of ['', '   ', null, undefined, []]) expect(id(required(v))).toBe('validation.required');
  });
  it('passes on content, 0 and false', () => {
    for (const v of ['a', 0, false, ['x']]) expect(required(v)).toBeNull();
  });
});

describe('maxLength', () => {
  it('allows up to max and reports the limit', () => {
    expect(maxLength(3)('abc')).toBeNull();
    expect(maxLength(3)('abcd')).toEqual({ id: 'validation.maxLength', values: { max: 3 } });
    expect(maxLength(3)(null)).toBeNull();
  });
});

describe('email', () => {
  it('uses the contract pattern', () => {
    expect(validate('max.mustermann@example.de', ...rules.email)).toBeNull();
    expect(validate(' a@b.co ', ...rules.email)).toBeNull();
    for (const v of ['max', 'max@', 'max@example', 'max@example.d', 'a b@c.de'])
      expect(id(validate(v, ...rules.email))).toBe('validation.email');
  });
  it('rule set: required, max 255, pattern', () => {
    expect(id(validate('', ...rules.email))).toBe('validation.required');
    expect(id(validate(`${'a'.repeat(250)}@b.de.de`, ...rules.email))).toBe('validation.maxLength');
    expect(id(validate('nope', ...rules.email))).toBe('validation.email');
    expect(validate('ok@example.com', ...rules.email)).toBeNull();
  });
});

describe('strong password', () => {
  it('needs 10 characters with a digit, a lowercase and an uppercase letter', () => {
    expect(strongPassword('Abcdefghi1')).toBeNull();
    expect(id(strongPassword('Abcdefgh1'))).toBe('validation.weakPassword'); // 9 chars
    expect(id(strongPassword('abcdefghi1'))).toBe('validation.weakPassword'); // no upper
    expect(id(strongPassword('ABCDEFGHI1'))).toBe('validation.weakPassword'); // no lower
    expect(id(strongPassword('Abcdefghij'))).toBe('validation.weakPassword'); // no digit
  });
  it('repeat must match', () => {
    expect(passwordsMatch('Abcdefghi1')('Abcdefghi1')).toBeNull();
    expect(id(passwordsMatch('Abcdefghi1')('Abcdefghi2'))).toBe('validation.passwordMismatch');
  });
});

describe('e-mail change', () => {
  it('new e-mail must differ from the old one, ignoring case', () => {
    expect(id(differentEmail('Max@Example.de')('max@example.DE'))).toBe('validation.newEmailSameAsOld');
    expect(differentEmail('max@example.de')('moritz@example.de')).toBeNull();
  });
  it('repeat must match the new e-mail', () => {
    expect(emailsMatch('new@example.de')('NEW@example.de')).toBeNull();
    expect(id(emailsMatch('new@example.de')('other@example.de'))).toBe('validation.emailMismatch');
  });
});

describe('digits and letters', () => {
  it('digits only (zip codes, ids)', () => {
    expect(digitsOnly('01067')).toBeNull();
    for (const v of ['12a45', '12 45', '-1', '1.5']) expect(id(digitsOnly(v))).toBe('validation.digitsOnly');
  });
});

describe('helpers', () => {
  it('validate returns the first failure in order', () => {
    expect(id(validate('', required, maxLength(2)))).toBe('validation.required');
    expect(id(validate('xyz', required, maxLength(2)))).toBe('validation.maxLength');
    expect(validate('xy', required, maxLength(2))).toBeNull();
  });
  it('maps contract zod codes', () => {
    expect(failureForCode('max255')).toEqual({ id: 'validation.maxLength', values: { max: 255 } });
    expect(id(failureForCode('newemailsameasold'))).toBe('validation.newEmailSameAsOld');
    expect(id(failureForCode('weakPassword'))).toBe('validation.weakPassword');
    expect(failureForCode('unknown')).toBeNull();
  });
  it('validationMessage passes values through and gives undefined when valid', () => {
    const t = (mid: string, v?: Record<string, string | number>) => `${mid}:${JSON.stringify(v ?? {})}`;
    expect(validationMessage(t, { id: 'validation.maxLength', values: { max: 5 } })).toBe('validation.maxLength:{"max":5}');
    expect(validationMessage(t, null)).toBeUndefined();
  });
});

describe('message texts', () => {
  const ids: ValidationMessageId[] = [
    'validation.required',
    'validation.maxLength',
    'validation.email',
    'validation.weakPassword',
    'validation.passwordMismatch',
    'validation.newEmailSameAsOld',
    'validation.emailMismatch',
    'validation.digitsOnly',
    'validation.lettersOnly',
    'validation.invalidDate',
    'validation.endBeforeStart',
    'validation.endAfterToday',
    'validation.invalid',
  ];
  it('exist in German and English for every rule', () => {
    const deFlat = flattenMessages(de);
    const enFlat = flattenMessages(en);
    for (const mid of ids) {
      expect(deFlat[mid], mid).toBeTruthy();
      expect(enFlat[mid], mid).toBeTruthy();
    }
    expect(deFlat['validation.required']).toBe('Bitte füllen Sie das Feld aus');
  });
});

describe('fromSchema: form rules from the contract', () => {
  it('maps the contract schema issues to the form messages', async () => {
    const { createLocationBodySchema, updateLocationBodySchema } = await import('../../contract/locations');
    const { fromSchema } = await import('./validation');
    const zip = fromSchema(createLocationBodySchema.shape.locationAddress.shape.zipCode);
    expect(zip('01067')).toBeNull();
    expect(zip('  ')?.id).toBe('validation.required');
    expect(zip('12a')?.id).toBe('validation.digitsOnly');
    expect(zip('12345678901')).toEqual({ id: 'validation.maxLength', values: { max: 10 } });
    const city = fromSchema(createLocationBodySchema.shape.locationAddress.shape.city);
    expect(city('Berlin 2')?.id).toBe('validation.lettersOnly');
    // The edit's own spec codes (LNameReq …) read as 'required' too.
    expect(fromSchema(updateLocationBodySchema.shape.locationName)('')?.id).toBe('validation.required');
    expect(fromSchema(updateLocationBodySchema.shape.locationName)(null)?.id).toBe('validation.required');
  });
});
