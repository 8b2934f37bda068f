import * as z from 'zod/mini';
import { customerTypeSchema } from './common';
import { erpPaymentMethods, operatorBillingTypes, operatorPaymentModes, operatorUpdateWorkflows, type OperatorPaymentMode } from './enums';
import {
  billNumberPrefixSchema,
  contactPersonEmailSchema,
  contactPersonNameSchema,
  contactPersonPhoneSchema,
  contactPersonPositionSchema,
  cpoBankNameSchema,
  cpoBicSchema,
  cpoIbanSchema,
  creditorIdSchema,
  erpValueSchema,
  ledgerAccountSchema,
  optionalLedgerAccountSchema,
  missingIsRequired,
  moneyCollectionGapSchema,
  operatorCareOfSchema,
  operatorCitySchema,
  operatorDetailSchema,
  operatorNameSchema,
  operatorStreetSchema,
  operatorZipCodeSchema,
  requiredText,
  taxNumberSchema,
  templateLineKeys,
  templateLineSchema,
  vatIdSchema,
  type TemplateLineKey,
} from './operators';

/**
 * The writes of operators (the routes and their rules: `contract/operators.ts`): the parts of a
 * write, the creation, the two update workflows and the ERP update, with their answers.
 */

// ---------------------------------------------------------------------------------------------
// The parts of a write: address, contact person, invoice template (billing)
// ---------------------------------------------------------------------------------------------

export const operatorAddressInputSchema = z.object(
  {
    street: operatorStreetSchema,
    careOf: operatorCareOfSchema,
    zipCode: operatorZipCodeSchema,
    city: operatorCitySchema,
    countryCode: z.optional(z.literal('DE')),
  },
  missingIsRequired,
);

export const contactPersonInputSchema = z.object(
  {
    contactPersonName: contactPersonNameSchema,
    contactPersonPosition: contactPersonPositionSchema,
    contactPersonPhone: contactPersonPhoneSchema,
    contactPersonEmail: contactPersonEmailSchema,
  },
  missingIsRequired,
);

/** Header or footer lines 1..4; blank lines count as absent. Which are required: `templateLineIssues`. */
export const templateLinesInputSchema = z.object({
  lineOne: templateLineSchema,
  lineTwo: templateLineSchema,
  lineThree: templateLineSchema,
  lineFour: templateLineSchema,
});
export type TemplateLinesInput = z.input<typeof templateLinesInputSchema>;

/**
 * The chosen payment modes (SEPA and/or BANK_TRANSFER, at least one: `billingRequired`), in the
 * order SEPA, BANK_TRANSFER without repeats.
 */
export const cpoPaymentPreferenceSchema = z.pipe(
  z
    .array(z.enum(operatorPaymentModes), {
      error: (iss) => (iss.input === undefined || iss.input === null ? 'billingRequired' : undefined),
    })
    .check(z.minLength(1, 'billingRequired'), z.maxLength(4, 'max4')),
  z.transform((modes: OperatorPaymentMode[]) => operatorPaymentModes.filter((m) => modes.includes(m))),
);

/**
 * Payment reception (spec 1 §5, spec 3 §5). Days until payment ≥ 1 always; SEPA requires the
 * creditor id; BANK_TRANSFER requires IBAN, bank name and BIC. A value given for a mode not chosen
 * is checked all the same (a wrong IBAN is never stored) and kept.
 */
export const cpoPaymentDetailsInputSchema = z
  .object({
    cpoPaymentPreference: cpoPaymentPreferenceSchema,
    cpoIban: cpoIbanSchema,
    cpoBankName: cpoBankNameSchema,
    cpoBic: cpoBicSchema,
    creditorId: creditorIdSchema,
    moneyCollectionGapInDays: moneyCollectionGapSchema,
  })
  .check(
    z.superRefine((p, ctx) => {
      const modes = Array.isArray(p.cpoPaymentPreference) ? p.cpoPaymentPreference : [];
      const need = (field: keyof typeof p) => {
        if (!p[field]) ctx.addIssue({ code: 'custom', path: [field], message: 'required', input: p[field] });
      };
      if (modes.includes('SEPA')) need('creditorId');
      if (modes.includes('BANK_TRANSFER')) {
        need('cpoIban');
        need('cpoBankName');
        need('cpoBic');
      }
    }),
  );
export type CpoPaymentDetailsInput = z.input<typeof cpoPaymentDetailsInputSchema>;

/**
 * Header line 1 is required and every shown line too (spec 1 §5): the form shows lines 1..N, so a
 * line after a blank one marks the blank one as shown and missing. Footer lines are optional.
 */
export function templateHeaderIssues(lines: Partial<Record<TemplateLineKey, string | null | undefined>> | null | undefined) {
  const last = Math.max(0, ...templateLineKeys.map((k, i) => (lines?.[k] ? i : 0)));
  return templateLineKeys.slice(0, last + 1).filter((k) => !lines?.[k]);
}

/** The invoice template of an operator: the BillingInfo workflow and the creation wizard's second step. */
const billingFields = {
  contactPersonDetails: contactPersonInputSchema,
  /**
   * 'with billing info' (default) or 'no billing info' (spec 3 §4). Without billing info only the
   * contact person is saved: payment details, template lines and the charging-history flag are
   * not required, not stored and left as they were.
   */
  withBillingInfo: z._default(z.boolean(), true),
  /** The wizard's SEPA/BANK toggle; stored as given, else SEPA when SEPA is a chosen mode, else BANK. */
  billingType: z.optional(z.nullable(z.enum(operatorBillingTypes))),
  isChargingHistoryIncluded: z._default(z.boolean(), true),
  cpoPaymentDetails: z.optional(z.nullable(cpoPaymentDetailsInputSchema)),
  billingTemplateHeader: z.optional(z.nullable(templateLinesInputSchema)),
  billingTemplateFooter: z.optional(z.nullable(templateLinesInputSchema)),
  /** § 14 UStG: every invoice names the issuer's VAT id or tax number (issue 24). */
  vatId: vatIdSchema,
  taxNumber: taxNumberSchema,
  billNumberPrefix: billNumberPrefixSchema,
};

type BillingFields = {
  withBillingInfo: boolean;
  cpoPaymentDetails?: unknown;
  billingTemplateHeader?: Partial<Record<TemplateLineKey, string | null>> | null;
  vatId?: string | null;
  taxNumber?: string | null;
};

/**
 * § 14 (4) Nr. 2 UStG: an invoice names the issuer's tax number or VAT id, so a template with
 * billing info needs at least one of them; the issue names both fields ('vatIdOrTaxNumber').
 */
export const VAT_ID_OR_TAX_NUMBER = 'vatIdOrTaxNumber';

/** The rules across fields of the invoice template: payment details and header line 1.. when billing info is given. */
const billingRules = z.superRefine((b: BillingFields, ctx) => {
  if (!b.withBillingInfo) return;
  if (!b.cpoPaymentDetails) ctx.addIssue({ code: 'custom', path: ['cpoPaymentDetails'], message: 'required', input: b.cpoPaymentDetails });
  for (const k of templateHeaderIssues(b.billingTemplateHeader))
    ctx.addIssue({ code: 'custom', path: ['billingTemplateHeader', k], message: 'required', input: b.billingTemplateHeader?.[k] });
  if (!b.vatId && !b.taxNumber)
    for (const field of ['vatId', 'taxNumber'] as const)
      ctx.addIssue({ code: 'custom', path: [field], message: VAT_ID_OR_TAX_NUMBER, input: b[field] });
});

const optionalVersion = z.optional(z.int().check(z.positive()));
const cpoIdSchema = requiredText(100);

// ---------------------------------------------------------------------------------------------
// POST /bff/cpos/create-operator
// ---------------------------------------------------------------------------------------------

/**
 * Operator creation (spec 1 §2 wizard, §3, §5). The new operator belongs to the caller's customer;
 * an admin names the customer (`customerId`, required for admins). A non-admin may send its own
 * customer id or none; another one answers 404 CUSTOMER_NOT_FOUND. `customerType` is informative
 * (the customer's type counts). Operator-type accounts that are not admins may not create (403).
 * After success the client refreshes its tokens (spec 1 §4): the new operator is in `cpo_id` and,
 * since the scope is read from the database on every request, usable at once.
 */
export const createOperatorBodySchema = z
  .object({
    cpoName: operatorNameSchema,
    cpoAddress: operatorAddressInputSchema,
    customerId: z.pipe(
      z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(100, 'max100')))),
      z.transform((v: string | null | undefined) => (v ? v : null)),
    ),
    customerType: z.optional(z.nullable(customerTypeSchema)),
    /** The manual end-customer-id flag (spec 1 §2). */
    createManualEndCustomerId: z._default(z.boolean(), false),
    ...billingFields,
  })
  .check(billingRules);
export type CreateOperatorBody = z.input<typeof createOperatorBodySchema>;

export const createOperatorAnswerSchema = z.object({ cpoId: z.string(), cpoName: z.string(), version: z.int() });
export type CreateOperatorAnswer = z.infer<typeof createOperatorAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// PUT /bff/cpos/update-operator-information
// ---------------------------------------------------------------------------------------------

/** `AddressInfo`: name and address only; any other field sent along is ignored. */
export const updateOperatorAddressBodySchema = z.object({
  workFlow: z.literal('AddressInfo'),
  cpoId: cpoIdSchema,
  cpoName: operatorNameSchema,
  cpoAddress: operatorAddressInputSchema,
  version: optionalVersion,
});

/**
 * `BillingInfo`: the invoice template (contact person, billing choice, payment details, header and
 * footer lines, charging-history flag); name, address and the rest are ignored. The template lines
 * are replaced whole: a line not sent is cleared. STRIPE_SEPA, set up through Stripe and not chosen
 * in the form, stays in the stored preference.
 */
export const updateOperatorBillingBodySchema = z
  .object({
    workFlow: z.literal('BillingInfo'),
    cpoId: cpoIdSchema,
    ...billingFields,
    version: optionalVersion,
  })
  .check(billingRules);

export const updateOperatorBodySchema = z.discriminatedUnion(
  'workFlow',
  [updateOperatorAddressBodySchema, updateOperatorBillingBodySchema],
  {
    error: 'invalidWorkflow',
  },
);
export type UpdateOperatorBody = z.input<typeof updateOperatorBodySchema>;
export const operatorUpdateWorkflowSchema = z.enum(operatorUpdateWorkflows);

/** Answer of either update and of the ERP update; also `ETag: "v<version>"`. */
export const operatorWriteAnswerSchema = z.object({ cpoId: z.string(), version: z.int() });
export type OperatorWriteAnswer = z.infer<typeof operatorWriteAnswerSchema>;

/** errorDetail of a stale operator write (409 CONFLICT): the operator as it is now. */
export const operatorConflictDetailSchema = z.object({
  cpoId: z.string(),
  currentVersion: z.int(),
  current: operatorDetailSchema,
});
export type OperatorConflictDetail = z.infer<typeof operatorConflictDetailSchema>;

// ---------------------------------------------------------------------------------------------
// PUT /booking-service/bookings/update-erp-information
// ---------------------------------------------------------------------------------------------

/**
 * One ERP value per operator and payment method (spec 3 §3, §5): inserted when the operator has
 * none for that method, replaced otherwise. clientNumber, netLedgerAccountNr and paymentMethod
 * are required, taxLedgerAccountNr is optional (blank clears it); the ledger accounts are 4 to 8
 * digits (LEDGER_ACCOUNT_PATTERN), as the ERP XML and the DATEV file need them.
 */
export const updateErpBodySchema = z.object({
  cpoId: cpoIdSchema,
  clientNumber: requiredText(50),
  netLedgerAccountNr: ledgerAccountSchema,
  taxLedgerAccountNr: optionalLedgerAccountSchema,
  /** The clearing account (Geldtransitkonto) of a Stripe method; blank clears it (issue 35). */
  clearingAccountNr: optionalLedgerAccountSchema,
  paymentMethod: z.enum(erpPaymentMethods, missingIsRequired),
  version: optionalVersion,
});
export type UpdateErpBody = z.input<typeof updateErpBodySchema>;

export const erpWriteAnswerSchema = z.object({
  cpoId: z.string(),
  version: z.int(),
  /** Whether the operator had no value for this payment method before. */
  created: z.boolean(),
  erpValue: erpValueSchema,
});
export type ErpWriteAnswer = z.infer<typeof erpWriteAnswerSchema>;
