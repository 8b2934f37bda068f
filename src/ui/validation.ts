import type * as z from 'zod/mini';
import { isStrongPassword } from '../../contract/auth';
import { fail, isEmpty, required, signInRules, text, type Rule, type ValidationFailure } from './field-rules';

// The rules every form builds on and the sign-in rules live in field-rules.ts (the first route loads
// that file alone); they are part of this module's API.
export {
  EMAIL_PATTERN,
  maxLength,
  required,
  validate,
  validationMessage,
  type Rule,
  type RuleResult,
  type ValidationFailure,
  type ValidationMessageId,
} from './field-rules';

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

/** Ready-made rule sets for the spec's common fields. */
export const rules = {
  ...signInRules,
  newPassword: [required, strongPassword] as Rule<string>[],
};

/**
 * The contract's zod schemas (contract/*.ts) and the forms' own rules use short codes as issue
 * messages; this maps them to the one message set of every form (validation.*), so server 400s and
 * client checks read the same and no form has a wording of its own for the same mistake.
 */
export function failureForCode(code: string): ValidationFailure | null {
  const max = /^max(\d+)$/.exec(code);
  if (max) return fail('validation.maxLength', { max: Number(max[1]) });
  switch (code) {
    case 'required':
    case 'emailRequired':
      return fail('validation.required');
    case 'email':
    case 'emailFormat':
      return fail('validation.email');
    case 'alphanumeric':
      return fail('validation.alphanumeric');
    case 'number':
      return fail('validation.number');
    case 'date':
      return fail('validation.invalidDate');
    case 'invalid':
      return fail('validation.invalid');
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
