import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { validateCreditorID } from 'sepa';
import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './auth';
import { customerTypeSchema } from './common';
import { erpPaymentMethods, operatorBillingTypes, operatorPaymentPreferences } from './enums';

/**
 * Operators (spec 1 §2-3, §5, §7; spec 3 §2-5, §7). On the BFF base (`/bff`) except the ERP
 * update, which lives on the booking service (`/booking-service`). This file holds the read models
 * and the field rules; the write bodies and their answers are in `operator-writes.ts`.
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
  /** The clearing account (Geldtransitkonto) Stripe's bills are posted against (issue 35). */
  clearingAccountNr: z.optional(z.nullable(z.string())),
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
export const missingIsRequired = {
  error: (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? 'required' : undefined),
};

export const requiredText = (max: number) =>
  z.string(missingIsRequired).check(z.trim(), z.minLength(1, 'required'), z.maxLength(max, `max${max}`));

/** A format check that passes on blank input, so a blank required field reads `required` only. */
const pattern = (re: RegExp, code: string) => z.refine<string>((v) => v === '' || re.test(v), code);
const DIGITS = /^\d+$/;

/**
 * A ledger account (Sachkonto) of the ERP value: 4 to 8 digits, the account lengths DATEV knows
 * ('Sachkontenlänge'); the ERP XML's schema (server/src/downloads/erp-export.xsd) says the same.
 */
export const LEDGER_ACCOUNT_PATTERN = /^\d{4,8}$/;
export const ledgerAccountSchema = requiredText(8).check(pattern(LEDGER_ACCOUNT_PATTERN, 'ledgerAccount'));
export const optionalLedgerAccountSchema = z.pipe(
  z.optional(z.nullable(z.string().check(z.trim(), pattern(LEDGER_ACCOUNT_PATTERN, 'ledgerAccount')))),
  z.transform((v: string | null | undefined) => (v ? v : null)),
);

/** Optional text: empty or blank counts as absent (clients drop empty values anyway). */
export const optionalText = (max: number) =>
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
/**
 * The operator's own bill-number prefix (`SWS-` → `SWS-2026-000042`): capitals, digits and '-';
 * none: `RE-{year}-{cpoId}-`. Not `RE-` and a digit, the default numbers' start: `RE-2026-CPO`
 * would number `RE-2026-CPO2026-000001`, the default number of an operator `CPO2026`.
 */
export const billNumberPrefixSchema = z.pipe(
  z.optional(
    z.nullable(
      z.string().check(
        z.trim(),
        z.maxLength(BILL_NUMBER_PREFIX_MAX, `max${BILL_NUMBER_PREFIX_MAX}`),
        pattern(/^[A-Z0-9-]*$/, 'invalidBillNumberPrefix'),
        z.refine((v) => !/^RE-\d/.test(v), 'billNumberPrefixReserved'),
      ),
    ),
  ),
  z.transform((v: string | null | undefined) => (v ? v : null)),
);
