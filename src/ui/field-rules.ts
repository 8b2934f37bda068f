/*
 * What every form rule builds on (failures, `required`, `maxLength`, `validate`, the message of a
 * failure) and the sign-in form's rules: the sign-in page is the first route and loads this file
 * alone (with use-form.ts); validation.ts holds the other rules and re-exports these.
 *
 * The sign-in rules (e-mail, password) are the contract's (contract/auth.ts) spelled out: the
 * first route leaves zod out. validation-rules.test.ts holds them to the contract's schemas.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const EMAIL_MAX = 255;
const PASSWORD_MAX = 255;

/**
 * Reusable field rules (spec 1 §5). Each rule is pure: value in, `null` (passes) or a failure with
 * a message id under "validation.*" out. Screens turn failures into text with `t(f.id, f.values)`
 * (or `validationMessage(t, f)`), so wording lives only in the locale files.
 */
export type ValidationMessageId =
  | 'validation.required'
  | 'validation.maxLength'
  | 'validation.email'
  | 'validation.weakPassword'
  | 'validation.passwordMismatch'
  | 'validation.newEmailSameAsOld'
  | 'validation.emailMismatch'
  | 'validation.digitsOnly'
  | 'validation.lettersOnly'
  | 'validation.alphanumeric'
  | 'validation.number'
  | 'validation.invalidDate'
  | 'validation.endBeforeStart'
  | 'validation.endAfterToday'
  | 'validation.invalid';

export interface ValidationFailure {
  id: ValidationMessageId;
  values?: Record<string, string | number>;
}
export type RuleResult = ValidationFailure | null;
export type Rule<T = string> = (value: T) => RuleResult;

export const fail = (id: ValidationMessageId, values?: ValidationFailure['values']): ValidationFailure =>
  values ? { id, values } : { id };

export const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** Empty, whitespace-only, null/undefined and empty arrays count as missing. */
export function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'string') return value.trim() === '';
  return false;
}

export const required: Rule<unknown> = (value) => (isEmpty(value) ? fail('validation.required') : null);

export const maxLength =
  (max: number): Rule<string | null | undefined> =>
  (value) =>
    text(value).length > max ? fail('validation.maxLength', { max }) : null;

/** Runs rules in order and returns the first failure. */
export function validate<T>(value: T, ...rules: Rule<T>[]): RuleResult {
  for (const rule of rules) {
    const result = rule(value);
    if (result) return result;
  }
  return null;
}

/** Failure → display text; undefined when valid, which is what the fields' `errorMessage` expects. */
export function validationMessage(
  t: (id: string, values?: Record<string, string | number>) => string,
  failure: RuleResult | undefined,
): string | undefined {
  return failure ? t(failure.id, failure.values) : undefined;
}

/** An e-mail address (contract/auth.ts emailSchema): trimmed, required, at most 255 characters, the pattern. */
const email: Rule<string> = (value) => {
  const s = text(value).trim();
  if (!s) return fail('validation.required');
  if (s.length > EMAIL_MAX) return fail('validation.maxLength', { max: EMAIL_MAX });
  return EMAIL_PATTERN.test(s) ? null : fail('validation.email');
};

/** The sign-in password (contract/auth.ts loginRequestSchema): required as typed (spaces count), at most 255 characters. */
const password: Rule<string> = (value) => {
  const s = text(value);
  if (!s) return fail('validation.required');
  return s.length > PASSWORD_MAX ? fail('validation.maxLength', { max: PASSWORD_MAX }) : null;
};

/** The sign-in form's rule sets (validation.ts `rules` has them too). */
export const signInRules = {
  email: [email] as Rule<string>[],
  password: [password] as Rule<string>[],
};
