import type * as z from 'zod/mini';

/*
 * The sign-in form's rules (e-mail, password, password strength) are the contract's
 * (contract/auth.ts) spelled out: the sign-in page is the first route, which leaves zod out, and
 * this file is on it (use-form.ts). validation-rules.test.ts holds them to the contract's schemas.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
const EMAIL_MAX = 255;
const PASSWORD_MAX = 255;
const isStrongPassword = (p: string) => p.length >= 10 && /\d/.test(p) && /[a-z]/.test(p) && /[A-Z]/.test(p);

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

const fail = (id: ValidationMessageId, values?: ValidationFailure['values']): ValidationFailure => (values ? { id, values } : { id });

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** Empty, whitespace-only, null/undefined and empty arrays count as missing. */
function isEmpty(value: unknown): boolean {
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

// Format rules pass on empty input: combine with `required` when the field is mandatory.
export const strongPassword: Rule<string | null | undefined> = (value) =>
  isEmpty(value) || isStrongPassword(text(value)) ? null : fail('validation.weakPassword');

export const digitsOnly: Rule<string | null | undefined> = (value) =>
  isEmpty(value) || /^\d+$/.test(text(value).trim()) ? null : fail('validation.digitsOnly');

/** Repeat fields: the repeat must equal the first entry. */
export const passwordsMatch =
  (password: string): Rule<string | null | undefined> =>
  (repeat) =>
    isEmpty(repeat) || text(repeat) === password ? null : fail('validation.passwordMismatch');

export const emailsMatch =
  (newEmail: string): Rule<string | null | undefined> =>
  (repeat) =>
    isEmpty(repeat) || text(repeat).trim().toLowerCase() === newEmail.trim().toLowerCase() ? null : fail('validation.emailMismatch');

/** The new e-mail must differ from the current one, ignoring case ('newemailsameasold'). */
export const differentEmail =
  (oldEmail: string): Rule<string | null | undefined> =>
  (newEmail) =>
    !isEmpty(newEmail) && text(newEmail).trim().toLowerCase() === oldEmail.trim().toLowerCase()
      ? fail('validation.newEmailSameAsOld')
      : null;

/** Runs rules in order and returns the first failure. */
export function validate<T>(value: T, ...rules: Rule<T>[]): RuleResult {
  for (const rule of rules) {
    const result = rule(value);
    if (result) return result;
  }
  return null;
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

/** Ready-made rule sets for the spec's common fields. */
export const rules = {
  email: [email] as Rule<string>[],
  password: [password] as Rule<string>[],
  newPassword: [required, strongPassword] as Rule<string>[],
};

/**
 * The contract's zod schemas (contract/*.ts) use short codes as issue messages; this maps them to
 * the same ids so server 400s and client checks read the same.
 */
export function failureForCode(code: string): ValidationFailure | null {
  const max = /^max(\d+)$/.exec(code);
  if (max) return fail('validation.maxLength', { max: Number(max[1]) });
  switch (code) {
    case 'required':
      return fail('validation.required');
    case 'email':
      return fail('validation.email');
    case 'weakPassword':
      return fail('validation.weakPassword');
    case 'newemailsameasold':
      return fail('validation.newEmailSameAsOld');
    case 'digitsOnly':
      return fail('validation.digitsOnly');
    case 'lettersSpacesHyphensOnly':
      return fail('validation.lettersOnly');
    // Spec 2 §5's codes for the location edit's required fields.
    case 'LNameReq':
    case 'LBLNameReq':
    case 'LBLLocReq':
    case 'ZipcodeReq':
      return fail('validation.required');
    default:
      return null;
  }
}

/** Failure → display text; undefined when valid, which is what the fields' `errorMessage` expects. */
export function validationMessage(
  t: (id: string, values?: Record<string, string | number>) => string,
  failure: RuleResult | undefined,
): string | undefined {
  return failure ? t(failure.id, failure.values) : undefined;
}

/**
 * A form rule from the contract's schema for that field (contract/*.ts), so every limit and format
 * has one source that the server checks too: a form never accepts what the server would refuse,
 * and a change of a limit reaches both sides. The first issue decides the message.
 */
export function fromSchema(schema: z.ZodMiniType): Rule<unknown> {
  return (value) => {
    const result = schema.safeParse(value ?? '');
    if (result.success) return null;
    const issue = result.error.issues[0]!;
    const byCode = failureForCode(issue.message);
    if (byCode) return byCode;
    if (issue.code === 'too_big' && issue.origin === 'string') return fail('validation.maxLength', { max: Number(issue.maximum) });
    if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) return fail('validation.required');
    return fail('validation.invalid');
  };
}
