import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { validateCreditorID } from 'sepa';
import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './auth';
import { customerTypeSchema } from './common';
import {
  erpPaymentMethods,
  operatorBillingTypes,
  operatorPaymentModes,
  operatorPaymentPreferences,
  operatorUpdateWorkflows,
  type OperatorPaymentMode,
} from './enums';

/**
 * Operators (spec 1 §2-3, §5, §7; spec 3 §2-5, §7). On the BFF base (`/bff`) except the ERP
 * update, which lives on the booking service (`/booking-service`).
 *
 * - `GET  /bff/cpos`                               paged(operatorListRowSchema); page 0 size 10000 for selects
 * - `GET  /bff/cpos/{id}/operator-details`         operatorDetailSchema, header `ETag: "v<version>"`
 * - `POST /bff/cpos/create-operator`               createOperatorBodySchema → createOperatorAnswerSchema;
 *                                                  Operator-type accounts (not admins) → 403 FORBIDDEN
 * - `PUT  /bff/cpos/update-operator-information`   updateOperatorBodySchema (workFlow BillingInfo | AddressInfo)
 *                                                  → operatorWriteAnswerSchema
 * - `PUT  /booking-service/bookings/update-erp-information`  updateErpBodySchema → erpWriteAnswerSchema
 *
 * Writes take the Idempotency-Key header. The two updates carry the operator version the user saw
 * (`version` in the body or `If-Match: "v<n>"`); every accepted write to an operator (either
 * workflow, an ERP value) moves it on by exactly one, and a stale one answers 409 CONFLICT with
 * errorDetail operatorConflictDetailSchema. An operator outside the caller's scope, or none at
 * all, answers 404 OPERATOR_NOT_FOUND (errorDetail `{ cpoId }`); a customer outside it 404
 * CUSTOMER_NOT_FOUND (errorDetail `{ customerId }`).
 *
 * Field issues of a 400 carry a short code as message (the form layer maps them to texts):
 * `required`, `max<n>`, `digitsOnly`, `email`, `invalidIban`, `invalidBic`, `invalidCreditorId`,
 * `billingRequired` (no payment mode chosen), `minOneDay`, `tooManyDays`, `wholeNumber`, `invalidWorkflow`.
 */

/** Operator list row (spec 1 §3, spec 3 §3). */
export const operatorListRowSchema = z.object({
  cpoId: z.string(),
  cpoName: z.string(),
  nrOfLocations: z.int().check(z.nonnegative()),
  nrOfEndCustomers: z.int().check(z.nonnegative()),
});
export type OperatorListRow = z.infer<typeof operatorListRowSchema>;

export const addressSchema = z.object({
  street: z.string(),
  careOf: z.optional(z.nullable(z.string())),
  zipCode: z.string(),
  city: z.string(),
  countryCode: z._default(z.literal('DE'), 'DE'),
});

export const templateLinesSchema = z.object({
  lineOne: z.optional(z.nullable(z.string())),
  lineTwo: z.optional(z.nullable(z.string())),
  lineThree: z.optional(z.nullable(z.string())),
  lineFour: z.optional(z.nullable(z.string())),
});

export const erpValueSchema = z.object({
  cpoId: z.string(),
  clientNumber: z.string(),
  netLedgerAccountNr: z.string(),
  taxLedgerAccountNr: z.optional(z.nullable(z.string())),
  paymentMethod: z.enum(erpPaymentMethods),
});
export type ErpValue = z.infer<typeof erpValueSchema>;

/** Operator detail (`GET /cpos/{id}/operator-details`, spec 3 §3). */
export const operatorDetailSchema = z.object({
  cpoId: z.string(),
  cpoName: z.string(),
  cpoAddress: addressSchema,
  customerId: z.string(),
  customerType: customerTypeSchema,
  createManualEndCustomerId: z.boolean(),
  contactPersonDetails: z.object({
    contactPersonName: z.optional(z.nullable(z.string())),
    contactPersonPosition: z.optional(z.nullable(z.string())),
    contactPersonPhone: z.optional(z.nullable(z.string())),
    contactPersonEmail: z.optional(z.nullable(z.string())),
  }),
  billingType: z.optional(z.nullable(z.enum(operatorBillingTypes))),
  isChargingHistoryIncluded: z.boolean(),
  cpoPaymentDetails: z.nullable(
    z.object({
      cpoPaymentPreference: z.array(z.enum(operatorPaymentPreferences)),
      cpoIban: z.optional(z.nullable(z.string())),
      cpoBankName: z.optional(z.nullable(z.string())),
      cpoBic: z.optional(z.nullable(z.string())),
      creditorId: z.optional(z.nullable(z.string())),
      moneyCollectionGapInDays: z.optional(z.nullable(z.int())),
    }),
  ),
  billingTemplateHeader: templateLinesSchema,
  billingTemplateFooter: templateLinesSchema,
  vatId: z.optional(z.nullable(z.string())),
  taxNumber: z.optional(z.nullable(z.string())),
  billNumberPrefix: z.optional(z.nullable(z.string())),
  erpValues: z.array(erpValueSchema),
  /** Optimistic-concurrency token: send back as If-Match on updates. */
  version: z.optional(z.int()),
});
export type OperatorDetail = z.infer<typeof operatorDetailSchema>;

// ---------------------------------------------------------------------------------------------
// Field rules of the operator wizards (spec 1 §5, spec 3 §5): one source for the forms and the server
// ---------------------------------------------------------------------------------------------

export const MAX_TEMPLATE_LINES = 4;
export const templateLineKeys = ['lineOne', 'lineTwo', 'lineThree', 'lineFour'] as const;
export type TemplateLineKey = (typeof templateLineKeys)[number];
export const MIN_PAYMENT_GAP_DAYS = 1;
/** Not in the spec; keeps the value a sensible payment term (and inside the database's integer). */
export const MAX_PAYMENT_GAP_DAYS = 365;
export const OPERATOR_TEXT_MAX = 200;
export const TEMPLATE_LINE_MAX = 255;

/** `required` for a missing value as well as for a blank one. */
const missingIsRequired = { error: (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? 'required' : undefined) };

const requiredText = (max: number) =>
  z.string(missingIsRequired).check(z.trim(), z.minLength(1, 'required'), z.maxLength(max, `max${max}`));

/** A format check that passes on blank input, so a blank required field reads `required` only. */
const pattern = (re: RegExp, code: string) => z.refine<string>((v) => v === '' || re.test(v), code);
const DIGITS = /^\d+$/;

/** Optional text: empty or blank counts as absent (clients drop empty values anyway). */
const optionalText = (max: number) =>
  z.pipe(
    z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max, `max${max}`)))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  );

/** Spaces dropped, upper case: how IBAN, BIC and creditor id are compared and stored. */
export const compactId = (v: string) => v.replace(/\s+/g, '').toUpperCase();

/** IBAN by its structure and ISO 13616 mod-97 checksum (ibantools); spaces allowed, stored compact. */
export const isIban = (v: string) => isValidIBAN(electronicFormatIBAN(v) ?? '');
/** BIC by its pattern, 6 letters, 2 alphanumerics, optional 3 (spec 1 §5), with a known country (ibantools). */
export const isBic = (v: string) => isValidBIC(compactId(v));
/**
 * SEPA creditor identifier: country, 2 check digits, 3-character business code, national id (at
 * most 35 characters), a SEPA country (ibantools), check digits by ISO 7064 mod 97-10 over the
 * national id (sepa.js; the business code is not part of the check).
 */
export const isCreditorId = (v: string) => {
  const c = compactId(v);
  return /^[A-Z]{2}\d{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$/.test(c) && isSEPACountry(c.slice(0, 2)) && validateCreditorID(c);
};

/** An optional bank id: blank is absent; when given, `check` must hold. Answers the compact form. */
const optionalBankId = (max: number, check: (v: string) => boolean, code: string) =>
  z.pipe(
    z.optional(
      z.nullable(
        z.string().check(
          z.trim(),
          z.maxLength(max, `max${max}`),
          z.refine((v) => v === '' || check(v), code),
        ),
      ),
    ),
    z.transform((v: string | null | undefined) => (v ? compactId(v) : null)),
  );

export const operatorNameSchema = requiredText(OPERATOR_TEXT_MAX);
export const operatorStreetSchema = requiredText(OPERATOR_TEXT_MAX);
export const operatorCareOfSchema = optionalText(OPERATOR_TEXT_MAX);
/** Zip code: required, digits only (spec 1 §5). */
export const operatorZipCodeSchema = z
  .string(missingIsRequired)
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(10, 'max10'), pattern(DIGITS, 'digitsOnly'));
export const operatorCitySchema = requiredText(100);

export const contactPersonNameSchema = requiredText(OPERATOR_TEXT_MAX);
export const contactPersonPositionSchema = requiredText(OPERATOR_TEXT_MAX);
/** Phone: required, digits only (spec 3 §5: 'numeric and required'). */
export const contactPersonPhoneSchema = z
  .string(missingIsRequired)
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(30, 'max30'), pattern(DIGITS, 'digitsOnly'));
/** E-mail: required, pattern (the sign-in's rule, spec 1 §5). */
export const contactPersonEmailSchema = z
  .string(missingIsRequired)
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(255, 'max255'), pattern(EMAIL_PATTERN, 'email'));

export const cpoIbanSchema = optionalBankId(42, isIban, 'invalidIban');
export const cpoBankNameSchema = optionalText(OPERATOR_TEXT_MAX);
export const cpoBicSchema = optionalBankId(11 + 4, isBic, 'invalidBic');
export const creditorIdSchema = optionalBankId(35 + 8, isCreditorId, 'invalidCreditorId');
/** Days until payment: a whole number, at least 1 (spec 1 §5, spec 3 §5). */
export const moneyCollectionGapSchema = z
  .int({ error: (iss) => (iss.input === undefined || iss.input === null ? 'required' : 'wholeNumber') })
  .check(z.gte(MIN_PAYMENT_GAP_DAYS, 'minOneDay'), z.lte(MAX_PAYMENT_GAP_DAYS, 'tooManyDays'));
export const templateLineSchema = optionalText(TEMPLATE_LINE_MAX);

/** The German VAT id (USt-IdNr., § 27a UStG): DE and 9 digits; spaces allowed, stored compact. */
export const isGermanVatId = (v: string) => /^DE\d{9}$/.test(compactId(v));
export const vatIdSchema = optionalBankId(11 + 4, isGermanVatId, 'invalidVatId');
/** The tax number (Steuernummer) as the tax office writes it: 10 to 13 digits with optional '/' or spaces. */
export const isTaxNumber = (v: string) => /^[\d/ ]+$/.test(v) && (v.match(/\d/g)?.length ?? 0) >= 10 && (v.match(/\d/g)?.length ?? 0) <= 13;
export const taxNumberSchema = z
  .pipe(
    z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(20, 'max20'), pattern(/^[\d/ ]*$/, 'invalidTaxNumber')))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  )
  .check(z.refine((v) => v === null || isTaxNumber(v), 'invalidTaxNumber'));
export const BILL_NUMBER_PREFIX_MAX = 12;
/** The operator's own bill-number prefix (`SWS-` → `SWS-000042`): capitals, digits and '-'; none: `RE-{year}-{cpoId}-`. */
export const billNumberPrefixSchema = z.pipe(
  z.optional(
    z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(BILL_NUMBER_PREFIX_MAX, `max${BILL_NUMBER_PREFIX_MAX}`),
          pattern(/^[A-Z0-9-]*$/, 'invalidBillNumberPrefix'),
        ),
    ),
  ),
  z.transform((v: string | null | undefined) => (v ? v : null)),
);

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
};

/** The rules across fields of the invoice template: payment details and header line 1.. when billing info is given. */
const billingRules = z.superRefine((b: BillingFields, ctx) => {
  if (!b.withBillingInfo) return;
  if (!b.cpoPaymentDetails) ctx.addIssue({ code: 'custom', path: ['cpoPaymentDetails'], message: 'required', input: b.cpoPaymentDetails });
  for (const k of templateHeaderIssues(b.billingTemplateHeader))
    ctx.addIssue({ code: 'custom', path: ['billingTemplateHeader', k], message: 'required', input: b.billingTemplateHeader?.[k] });
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
 * are required, taxLedgerAccountNr is optional (blank clears it).
 */
export const updateErpBodySchema = z.object({
  cpoId: cpoIdSchema,
  clientNumber: requiredText(50),
  netLedgerAccountNr: requiredText(50),
  taxLedgerAccountNr: optionalText(50),
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
