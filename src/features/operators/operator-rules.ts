import type * as z from 'zod/mini';
import { MAX_PAYMENT_GAP_DAYS } from '../../../contract/operators';
import { fromSchema, type Rule, type RuleResult, type ValidationFailure } from '../../ui/validation';

/**
 * What the operator forms (operator-form.ts, operator-billing-form.ts, operator-erp-form.ts) share:
 * the area's own validation codes with their messages, and small helpers for values as typed.
 */

// ---- messages of the area's own codes ---------------------------------------------------------

/**
 * The contract's codes that ui/validation.ts does not know, with texts of their own
 * (locales: operators.validation.*). Anything else reads as the shared validation messages.
 */
const areaCodes = {
  invalidIban: 'operators.validation.invalidIban',
  invalidBic: 'operators.validation.invalidBic',
  invalidCreditorId: 'operators.validation.invalidCreditorId',
  minOneDay: 'operators.validation.minOneDay',
  tooManyDays: 'operators.validation.tooManyDays',
  wholeNumber: 'operators.validation.wholeNumber',
  invalidVatId: 'operators.validation.invalidVatId',
  invalidTaxNumber: 'operators.validation.invalidTaxNumber',
  invalidBillNumberPrefix: 'operators.validation.invalidBillNumberPrefix',
  billNumberPrefixReserved: 'operators.validation.billNumberPrefixReserved',
  ledgerAccount: 'operators.validation.ledgerAccount',
  vatIdOrTaxNumber: 'operators.validation.vatIdOrTaxNumber',
  billNumberPrefixTaken: 'operators.validation.billNumberPrefixTaken',
} as const;

// bindField translates whatever id a failure names; the shared id type lists only the shared ones.
export const areaFailure = (code: keyof typeof areaCodes): ValidationFailure =>
  ({ id: areaCodes[code], values: code === 'tooManyDays' ? { max: MAX_PAYMENT_GAP_DAYS } : undefined }) as unknown as ValidationFailure;

/** fromSchema with the area's codes read as the area's messages. */
export function operatorRule(schema: z.ZodMiniType): Rule<unknown> {
  const shared = fromSchema(schema);
  return (value) => {
    const result = schema.safeParse(value ?? '');
    if (result.success) return null;
    const code = result.error.issues[0]?.message ?? '';
    return code in areaCodes ? areaFailure(code as keyof typeof areaCodes) : shared(value);
  };
}

export const requiredFailure: RuleResult = { id: 'validation.required' };
export const isBlank = (v: string) => v.trim() === '';
export const isOn = (v: string) => v === 'true';
export const flag = (on: boolean): 'true' | 'false' => (on ? 'true' : 'false');
