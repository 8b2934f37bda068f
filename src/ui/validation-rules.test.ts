import { describe, expect, it } from 'vitest';
import { EMAIL_PATTERN as CONTRACT_EMAIL_PATTERN, emailSchema, loginRequestSchema } from '../../contract/auth';
import { EMAIL_PATTERN, signInRules, validate } from './field-rules';
import { fromSchema, rules } from './validation';

// The sign-in form's rules are spelled out in field-rules.ts (the first route leaves zod out); they
// must answer as the contract's schemas do, which the server checks with.
const emails = [
  '',
  '   ',
  'max.mustermann@example.de',
  ' a@b.co ',
  'max',
  'max@',
  'max@example',
  'max@example.d',
  'a b@c.de',
  'ä@ö.üü',
  `${'a'.repeat(246)}@b.de.de`,
  `${'a'.repeat(247)}@b.de.de`,
  `  ${'a'.repeat(246)}@b.de.de  `,
  `${'a'.repeat(300)}`,
];
const passwords = ['', ' ', 'x', 'geheim', 'x'.repeat(255), 'x'.repeat(256), ` ${'x'.repeat(254)} `];

describe('the sign-in rules spelled out in field-rules.ts', () => {
  it('e-mail: as the contract schema', () => {
    expect(EMAIL_PATTERN.source).toBe(CONTRACT_EMAIL_PATTERN.source);
    expect(rules.email).toBe(signInRules.email);
    for (const value of emails) expect([value, validate(value, ...signInRules.email)]).toEqual([value, fromSchema(emailSchema)(value)]);
  });

  it('sign-in password: as the contract schema', () => {
    for (const value of passwords)
      expect([value, validate(value, ...signInRules.password)]).toEqual([value, fromSchema(loginRequestSchema.shape.password)(value)]);
  });
});
