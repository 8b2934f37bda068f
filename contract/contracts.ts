import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './auth';
import { isoDateSchema, paged, pageQuerySchema, commaListSchema } from './common';
import {
  BILLABLE_VAT_PERCENTS,
  DEFAULT_VAT_PERCENT,
  authTypes,
  billStatuses,
  billingCycles,
  billingTypes,
  contractStatuses,
  paymentMethods,
  rfidTypes,
  userTypes,
} from './enums';
import { contractStatusMappingSchema, locationContractRowSchema } from './locations';
import { cpoIbanSchema } from './operators';

/**
 * End customers and their contracts (spec 2 §2-5, §7-8; spec 3 §4). One row is one end customer
 * with one contract ("users" in the UI). On the contract management base (`/contract-management`):
 *
 * - `GET    /contracts/operator`                    contractListQuerySchema → paged(contractRowSchema)
 * - `GET    /contract/id/{contractKey}`             contractDetailSchema, header `ETag: "v<version>"`
 * - `POST   /create-contract`                       createContractBodySchema → contractWriteAnswerSchema
 * - `PUT    /update-contract`                       editContractBodySchema | terminateContractBodySchema
 *                                                   → contractWriteAnswerSchema
 * - `PUT    /change-contract-tarrif`                changeTariffBodySchema → contractWriteAnswerSchema
 * - `POST   /send-invitation-email/{contractKey}`   empty → `{ sent: true }` (CREATED_UNSIGNED only)
 * - `POST   /end-customer-id/{id}/validate/on-create`           cpoId in the query (required) → boolean
 * - `POST   /end-customer-id/{id}/validate/on-update/{contractKey}`  → boolean
 * - `GET    /pdf/{contractKey}?verificationId={contractId}` the contract PDF (download)
 * - `DELETE /delete-contract/{contractKey}`         admins only → `{ contractKey }`
 *
 * Writes take the Idempotency-Key header; edits, terminations and tariff changes carry the version
 * the user saw (`version` or `If-Match: "v<n>"`), and a stale one answers 409 CONFLICT with
 * errorDetail contractConflictDetailSchema. A contract outside the caller's operators answers 404
 * CONTRACT_NOT_FOUND, an operator 404 OPERATOR_NOT_FOUND, a location 404 LOCATION_NOT_FOUND.
 *
 * Conflicts (spec 2 §8), each 409: ERR_RFID_ID_EXISTS (errorDetail the card stock's
 * `rfidConflictsSchema` of contract/rfid.ts: each tag or serial and the end customer holding it),
 * DB_CLIENT_ERROR (a serial another end customer holds, in an edit; same detail), ERR_RFID_SERIAL_NOT_EXISTS (400: a serial no card has, detail
 * `{ rfidSerialIds }`), DUPLICATED_EMAIL (errorMessage and errorDetail name the owning end
 * customer id), DUPLICATED_END_CUSTOMER_ID (detail `{ endCustomerId }`). A holder is named only
 * to a caller who sees its operator: for another tenant's end customer the id is null and the
 * message says only that the value is taken. A rule of spec 2 §4 that
 * the contract's state does not allow answers 409 CONTRACT_STATUS_DATA_INCONSISTENCY; a user type the
 * caller may not create 403 FORBIDDEN.
 *
 * Field issues of a 400 carry a short code as message: `required`, `max<n>`, `digitsOnly`, `email`,
 * `alphanumeric`, `min0`, `step001`, `endBeforeStart`, `parkingLotRequired`, `rfidRequired`,
 * `locationRequired`, `firstOfMonth`, `notInPast`, `cancellationAfterNewDate`, `pdfOnly`, `3mb`, `vatRate` (a VAT
 * rate the bills cannot be made at), `invalidEuVatId`, `companyNameFirst` (a VAT id or buyer reference without a company name), `zeroRateNeedsVatId` (0 % is
 * the reverse charge: only with the customer's VAT id).
 */

export const CONTRACT_PDF_MAX_BYTES = 3 * 1024 * 1024;
export const CONTRACT_TEXT_MAX = 200;
export const END_CUSTOMER_ID_MAX = 30;
export const MAX_RFID_PER_CONTRACT = 50;
export const MAX_PARKING_LOTS_PER_CONTRACT = 20;
/** Alphanumeric only (spec 2 §5); generated ids look like `123-45678-901`. */
export const END_CUSTOMER_ID_PATTERN = /^[A-Za-z0-9]+$/;
const DIGITS = /^\d+$/;

/** A generated end customer id from 11 digits: `123-45678-901`. */
export const formatEndCustomerId = (digits: string) => `${digits.slice(0, 3)}-${digits.slice(3, 8)}-${digits.slice(8, 11)}`;

/** `required` for a missing value as well as for a blank one. */
const missingIsRequired = { error: (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? 'required' : undefined) };
const requiredText = (max: number) =>
  z.string(missingIsRequired).check(z.trim(), z.minLength(1, 'required'), z.maxLength(max, `max${max}`));
/** A format check that passes on blank input, so a blank required field reads `required` only. */
const pattern = (re: RegExp, code: string) => z.refine<string>((v) => v === '' || re.test(v), code);
/** Optional text: empty or blank counts as absent (clients drop empty values anyway). */
const optionalText = (max: number, check?: z.core.$ZodCheck<string>) =>
  z.pipe(
    z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max, `max${max}`), ...(check ? [check] : [])))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  );

/** Money and tariffs: a number ≥ 0 in steps of 0.01 (spec 2 §5). */
export const isCentStep = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;
export const moneySchema = z.number(missingIsRequired).check(z.gte(0, 'min0'), z.lte(100000, 'max100000'), z.refine(isCentStep, 'step001'));
const optionalMoney = z._default(moneySchema, 0);

export const endCustomerIdSchema = z
  .string()
  .check(z.trim(), z.maxLength(END_CUSTOMER_ID_MAX, `max${END_CUSTOMER_ID_MAX}`), pattern(END_CUSTOMER_ID_PATTERN, 'alphanumeric'));
export const contractFirstNameSchema = requiredText(CONTRACT_TEXT_MAX);
export const contractLastNameSchema = requiredText(CONTRACT_TEXT_MAX);
export const contractEmailSchema = z
  .string(missingIsRequired)
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(255, 'max255'), pattern(EMAIL_PATTERN, 'email'));
export const contractStreetSchema = requiredText(CONTRACT_TEXT_MAX);
export const contractCitySchema = requiredText(100);
export const contractZipCodeSchema = z
  .string(missingIsRequired)
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(10, 'max10'), pattern(DIGITS, 'digitsOnly'));
export const contractCareOfSchema = optionalText(CONTRACT_TEXT_MAX);
/** debitAccountNr, costCenterNumber, vatId: numeric (spec 2 §5). */
export const erpNumberSchema = optionalText(30, pattern(DIGITS, 'digitsOnly'));
/**
 * The debit account (Debitorenkonto) is an account number: at most 9 digits, the longest account a
 * DATEV posting line carries ('Konto', issue 25); the ERP XML's schema says the same.
 */
export const DEBIT_ACCOUNT_MAX = 9;
export const debitAccountNrSchema = optionalText(DEBIT_ACCOUNT_MAX, pattern(DIGITS, 'digitsOnly'));
export const mandateReferenceSchema = optionalText(35);

/** A list of tags, serials or parking lots: each trimmed, blanks and repeats dropped. */
const idList = (itemMax: number, listMax: number) =>
  z
    .pipe(
      z._default(z.array(z.string().check(z.maxLength(itemMax, `max${itemMax}`))), []),
      z.transform((v: string[]) => [...new Set(v.map((s) => s.trim()).filter(Boolean))]),
      // The contract limit applies after the blanks are gone.
    )
    .check(z.maxLength(listMax, `max${listMax}`));

/** `a, b ,a` → ['a', 'b']: the wizard's comma lists (spec 2 §5: comma-separated, trimmed). */
export const splitCommaList = (v: string) => [...new Set(v.split(',').map((s) => s.trim()))].filter(Boolean);

export const contractAddressSchema = z.object({
  careOf: contractCareOfSchema,
  street: contractStreetSchema,
  zipCode: contractZipCodeSchema,
  city: contractCitySchema,
  countryCode: z._default(z.literal('DE'), 'DE'),
});

export const contractInfoSchema = z.object({
  /** The PDF's file name as the user chose it. */
  contractPDF: optionalText(255),
  /** The PDF's bytes, base64 (a Java byte[] on the wire); checked by content, at most 3 MB. */
  contractPdfInByteArrayForm: z.optional(z.nullable(z.string().check(z.maxLength(Math.ceil(CONTRACT_PDF_MAX_BYTES / 3) * 4 + 4, '3mb')))),
  startDate: z.optional(z.nullable(isoDateSchema)),
  endDate: z.optional(z.nullable(isoDateSchema)),
  fixTariff: z.optional(z.nullable(moneySchema)),
  varTariff: z.optional(z.nullable(moneySchema)),
  onboardingFee: z.optional(z.nullable(moneySchema)),
  fixTariffPerChargingRequest: z.optional(z.nullable(moneySchema)),
});

export const contractPaymentDetailsSchema = z.object({
  contractMandateReference: mandateReferenceSchema,
  /** The operator's IBAN check (ibantools: structure and mod-97 check digits), stored compact and upper case. */
  contractIban: cpoIbanSchema,
});

/** Digits only, one of the billable rates ('vatRate' otherwise); stored without leading zeros ('07' → '7'). */
export const vatRateSchema = z.pipe(
  optionalText(
    3,
    z.refine<string>((v) => v === '' || (DIGITS.test(v) && (BILLABLE_VAT_PERCENTS as readonly number[]).includes(Number(v))), 'vatRate'),
  ),
  z.transform((v: string | null) => (v === null ? null : String(Number(v)))),
);
/**
 * The rate a bill of the contract is made at: the stored one, the standard rate when none. A stored
 * rate the product cannot bill (written around the API) is bad data: the contract is not billed.
 */
export function billedVatPercent(stored: string | null | undefined): number {
  const text = (stored ?? '').trim();
  if (text === '') return DEFAULT_VAT_PERCENT;
  const n = Number(text);
  if (!DIGITS.test(text) || !(BILLABLE_VAT_PERCENTS as readonly number[]).includes(n)) throw new RangeError('VAT rate not billable');
  return n;
}

export const erpSystemParametersSchema = z.object({
  debitAccountNr: debitAccountNrSchema,
  costCenterNumber: erpNumberSchema,
  vatId: vatRateSchema,
});

/**
 * EU VAT identification numbers (USt-IdNr.; the buyer's BT-48) by each member state's pattern (the
 * Commission's VIES formats), spaces allowed and stored compact in capitals; a German one also by
 * its check digit (ISO 7064 MOD 11,10, as the Bundeszentralamt für Steuern computes it). 'XI' is
 * Northern Ireland, 'EL' Greece.
 */
const EU_VAT_ID_PATTERNS: Record<string, RegExp> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^(\d{7}[A-W][A-I]?|\d[A-Z+*]\d{5}[A-W])$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^[1-9]\d{1,9}$/,
  SE: /^\d{10}01$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
  XI: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
};
const compactVatId = (v: string) => v.replace(/[\s.-]+/g, '').toUpperCase();
/** The check digit of a German VAT id's first eight digits (ISO 7064 MOD 11,10). */
export function germanVatIdCheckDigit(eight: string): number {
  let product = 10;
  for (const digit of eight) {
    let sum = (Number(digit) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  const check = 11 - product;
  return check === 10 ? 0 : check;
}
export function isEuVatId(value: string): boolean {
  const v = compactVatId(value);
  const pattern = EU_VAT_ID_PATTERNS[v.slice(0, 2)];
  if (!pattern?.test(v.slice(2))) return false;
  return !v.startsWith('DE') || germanVatIdCheckDigit(v.slice(2, 10)) === Number(v[10]);
}
/** The end customer's own VAT id (BT-48): an EU VAT id ('invalidEuVatId'), stored compact. */
export const customerVatIdSchema = z.pipe(
  optionalText(
    20,
    z.refine<string>((v) => v === '' || isEuVatId(v), 'invalidEuVatId'),
  ),
  z.transform((v: string | null) => (v === null ? null : compactVatId(v))),
);
/**
 * The buyer's order or routing reference (BT-10), e.g. a German public buyer's Leitweg-ID
 * (`04011000-1234512345-06`): free text as the buyer gives it, printable characters only.
 */
export const BUYER_REFERENCE_MAX = 100;
export const buyerReferenceSchema = optionalText(BUYER_REFERENCE_MAX, pattern(/^[\x20-\x7E\u00A0-\u00FF]*$/, 'invalid'));
export const companyNameSchema = optionalText(CONTRACT_TEXT_MAX);

/** The user types a creator may pick (AD_HOC users come from the app, not the dashboard). */
export const creatableUserTypes = ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN'] as const;
export const adminUserTypes: readonly (typeof userTypes)[number][] = ['LOCAL_ADMIN', 'GLOBAL_ADMIN'];

const contractFields = {
  endCustomerId: z.pipe(
    z.optional(z.nullable(endCustomerIdSchema)),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  ),
  cpoId: requiredText(100),
  userType: z.enum(creatableUserTypes, missingIsRequired),
  firstName: contractFirstNameSchema,
  lastName: contractLastNameSchema,
  email: contractEmailSchema,
  contractAddress: contractAddressSchema,
  /** Without the name part (spec 3: split at the colon of 'id:name'). */
  locationId: optionalText(100),
  parkingLotNumbers: idList(5, MAX_PARKING_LOTS_PER_CONTRACT),
  authType: z._default(z.enum(authTypes), 'APP'),
  rfidType: z.optional(z.nullable(z.enum(rfidTypes))),
  rfidTags: idList(64, MAX_RFID_PER_CONTRACT),
  /** The serial numbers of the cards (the form's list is sent as rfidSerialId). */
  rfidSerialId: idList(64, MAX_RFID_PER_CONTRACT),
  billingType: z.enum(billingTypes, missingIsRequired),
  billingCycle: z.optional(z.nullable(z.enum(billingCycles))),
  contractInfo: contractInfoSchema,
  paymentMethod: z.optional(z.nullable(z.enum(paymentMethods))),
  contractPaymentDetails: z.optional(z.nullable(contractPaymentDetailsSchema)),
  erpSystemParameters: z.optional(z.nullable(erpSystemParametersSchema)),
  /** A business customer (a fleet, a public buyer): its name; its VAT id and buyer reference need it. */
  companyName: companyNameSchema,
  customerVatId: customerVatIdSchema,
  buyerReference: buyerReferenceSchema,
};

/**
 * The rules between fields (spec 2 §4-5) that hold for every create and edit; the ones that need
 * the stored contract (an active contract's locked fields) or the database are the server's.
 */
function crossFieldRules(ctx: z.core.ParsePayload<z.output<z.ZodMiniObject<typeof contractFields>>>) {
  const v = ctx.value;
  const issue = (path: (string | number)[], message: string) => ctx.issues.push({ code: 'custom', message, input: v, path });
  if (v.userType === 'REGULAR') {
    if (!v.locationId) issue(['locationId'], 'locationRequired');
    if (v.parkingLotNumbers.length === 0) issue(['parkingLotNumbers'], 'parkingLotRequired');
  }
  const usesRfid = v.authType !== 'APP' || adminUserTypes.includes(v.userType);
  if (adminUserTypes.includes(v.userType) && v.authType !== 'RFID') issue(['authType'], 'rfidOnlyForAdmins');
  if (usesRfid) {
    if (!v.rfidType) issue(['rfidType'], 'required');
    else if (v.rfidType === 'TAG' && v.rfidTags.length === 0) issue(['rfidTags'], 'rfidRequired');
    else if (v.rfidType === 'SN' && v.rfidSerialId.length === 0) issue(['rfidSerialId'], 'rfidRequired');
  }
  if (!v.companyName) {
    if (v.customerVatId) issue(['customerVatId'], 'companyNameFirst');
    if (v.buyerReference) issue(['buyerReference'], 'companyNameFirst');
  }
  // German law has no 0 % rate for charging: 0 % is the reverse charge, the customer owing the tax,
  // which names the customer's VAT id on the bill (§ 13b UStG; BR-AE-02).
  if (v.billingType === 'WITH_BILLING' && v.erpSystemParameters?.vatId === '0' && !v.customerVatId)
    issue(['erpSystemParameters', 'vatId'], 'zeroRateNeedsVatId');
  const info = v.contractInfo;
  if (info.startDate && info.endDate && info.endDate <= info.startDate) issue(['contractInfo', 'endDate'], 'endBeforeStart');
  if (v.billingType === 'WITH_BILLING') {
    if (!v.paymentMethod || v.paymentMethod === 'NO_PAYMENT_METHOD') issue(['paymentMethod'], 'required');
    if (v.paymentMethod === 'SEPA' && !v.contractPaymentDetails?.contractMandateReference)
      issue(['contractPaymentDetails', 'contractMandateReference'], 'required');
  }
}

export const createContractBodySchema = z.object(contractFields).check(
  z.superRefine((v, ctx) => {
    crossFieldRules(ctx as never);
    if (!v.contractInfo.startDate) ctx.issues.push({ code: 'custom', message: 'required', input: v, path: ['contractInfo', 'startDate'] });
    if (v.billingType === 'WITH_BILLING') {
      for (const key of ['fixTariff', 'varTariff'] as const)
        if (v.contractInfo[key] === undefined || v.contractInfo[key] === null)
          ctx.issues.push({ code: 'custom', message: 'required', input: v, path: ['contractInfo', key] });
    }
  }),
);
export type CreateContractBody = z.input<typeof createContractBodySchema>;

/**
 * An edit sends the whole form again (spec 2: the same payload plus contractKey, authCode, cpoId).
 * On an ACTIVE contract, billing type, start date, tariffs, onboarding fee and PDF are locked: the
 * server keeps the stored ones whatever is sent (spec 2 §4).
 */
export const editContractBodySchema = z.extend(z.object(contractFields), {
  contractKey: requiredText(100),
  authCode: optionalText(50),
  version: z.optional(z.int().check(z.positive())),
});
export const editContractBodyChecked = editContractBodySchema.check(z.superRefine((_v, ctx) => crossFieldRules(ctx as never)));
export type EditContractBody = z.input<typeof editContractBodySchema>;

/** Terminate (spec 2 §7): `PUT /update-contract` with only the key and the status EXPIRED. */
export const terminateContractBodySchema = z.object({
  contractKey: requiredText(100),
  contractStatus: z.literal('EXPIRED'),
  version: z.optional(z.int().check(z.positive())),
});
export type TerminateContractBody = z.input<typeof terminateContractBodySchema>;

/** Whether a `PUT /update-contract` body is a termination (it names the status) or an edit. */
export const isTerminateBody = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  'contractStatus' in body &&
  (body as { contractStatus?: unknown }).contractStatus !== undefined;

let berlinDay: Intl.DateTimeFormat | undefined;
/**
 * `YYYY-MM-DD` of a date in Europe/Berlin (the business's calendar). One formatter for the process:
 * each `Intl.DateTimeFormat` holds ~25 KB of ICU memory outside the JavaScript heap until it is
 * collected, and one made per call (as here before) piled up ~50 MB of it in a zip of 500 new bills.
 */
export function berlinDate(d: Date): string {
  berlinDay ??= new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' });
  return berlinDay.format(d);
}
export const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** Spec 2 §5 tariff change: the new tariff from the 1st of a month, not in the past; cancellation after it and at least tomorrow. */
export function tariffChangeIssues(v: { newTariffDate: string; newTariffCancellationDate: string }, today: string) {
  const issues: { path: string; message: string }[] = [];
  if (!v.newTariffDate.endsWith('-01')) issues.push({ path: 'newTariffDate', message: 'firstOfMonth' });
  else if (v.newTariffDate < today) issues.push({ path: 'newTariffDate', message: 'notInPast' });
  if (v.newTariffCancellationDate <= v.newTariffDate)
    issues.push({ path: 'newTariffCancellationDate', message: 'cancellationAfterNewDate' });
  else if (v.newTariffCancellationDate < addDays(today, 1)) issues.push({ path: 'newTariffCancellationDate', message: 'notInPast' });
  return issues;
}

export const changeTariffBodySchema = z.object({
  contractKey: requiredText(100),
  fixTariff: moneySchema,
  varTariff: moneySchema,
  onboardingFee: optionalMoney,
  fixTariffPerChargingRequest: optionalMoney,
  newTariffDate: isoDateSchema,
  newTariffCancellationDate: isoDateSchema,
  version: z.optional(z.int().check(z.positive())),
});
export type ChangeTariffBody = z.input<typeof changeTariffBodySchema>;

// ---------------------------------------------------------------------------------------------
// Read models
// ---------------------------------------------------------------------------------------------

/** The /nutzer list: the filters of spec 2 §2, locationIds as a comma list. Newest first. */
const optionalFilter = z.pipe(
  z.optional(z.string().check(z.trim(), z.maxLength(200))),
  z.transform((v: string | undefined) => (v ? v : undefined)),
);
export const contractListQuerySchema = z.extend(pageQuerySchema, {
  endCustomerId: optionalFilter,
  name: optionalFilter,
  rfId: optionalFilter,
  locationIds: commaListSchema,
  userTypes: z.pipe(commaListSchema, z.array(z.enum(userTypes))),
});
export type ContractListQuery = z.input<typeof contractListQuerySchema>;
/** The /nutzer row (the same shape as a location's users tab). */
export const contractRowSchema = locationContractRowSchema;
export type ContractRow = z.infer<typeof contractRowSchema>;
export const contractListAnswerSchema = paged(contractRowSchema);

const moneyString = z.nullable(z.number());

export const pendingTariffChangeSchema = z.object({
  newTariffDate: isoDateSchema,
  newTariffCancellationDate: isoDateSchema,
  fixTariff: z.number(),
  varTariff: z.number(),
  onboardingFee: z.number(),
  fixTariffPerChargingRequest: z.number(),
});

export const contractDetailSchema = z.object({
  contractKey: z.string(),
  contractId: z.string(),
  contractNumber: z.string(),
  endCustomerId: z.string(),
  endCustomerIdManuallyCreated: z.boolean(),
  contractStatus: z.enum(contractStatuses),
  contractStatusMapping: contractStatusMappingSchema,
  userType: z.enum(userTypes),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  contractAddress: z.object({
    careOf: z.nullable(z.string()),
    street: z.string(),
    zipCode: z.string(),
    city: z.string(),
    countryCode: z.string(),
  }),
  cpoId: z.string(),
  cpoName: z.string(),
  /** Whether the operator types end customer ids itself (spec 2 §5). */
  createManualEndCustomerId: z.boolean(),
  locationId: z.nullable(z.string()),
  locationName: z.nullable(z.string()),
  parkingLotNumbers: z.array(z.string()),
  authType: z.enum(authTypes),
  rfidType: z.nullable(z.enum(rfidTypes)),
  rfidTags: z.array(z.string()),
  /** The serials of the contract's cards (the read model also calls them rfidSTags). */
  rfidSerialId: z.array(z.string()),
  billingType: z.enum(billingTypes),
  billingCycle: z.nullable(z.enum(billingCycles)),
  billingStatus: z.nullable(z.enum(billStatuses)),
  contractInfo: z.object({
    contractPDF: z.nullable(z.string()),
    startDate: z.nullable(isoDateSchema),
    endDate: z.nullable(isoDateSchema),
    fixTariff: moneyString,
    varTariff: moneyString,
    onboardingFee: z.number(),
    fixTariffPerChargingRequest: z.number(),
  }),
  contractChangeTariff: z.nullable(pendingTariffChangeSchema),
  pdfAvailable: z.boolean(),
  paymentMethod: z.nullable(z.enum(paymentMethods)),
  contractPaymentDetails: z.object({ contractMandateReference: z.nullable(z.string()), contractIban: z.nullable(z.string()) }),
  stripeSepaPaymentDetailsAreConfigured: z.boolean(),
  erpSystemParameters: z.object({
    debitAccountNr: z.nullable(z.string()),
    costCenterNumber: z.nullable(z.string()),
    vatId: z.nullable(z.string()),
  }),
  companyName: z.nullable(z.string()),
  customerVatId: z.nullable(z.string()),
  buyerReference: z.nullable(z.string()),
  authCode: z.nullable(z.string()),
  version: z.int(),
});
export type ContractDetail = z.infer<typeof contractDetailSchema>;

export const contractWriteAnswerSchema = z.object({
  contractKey: z.string(),
  endCustomerId: z.string(),
  contractStatus: z.enum(contractStatuses),
  authType: z.enum(authTypes),
  version: z.int(),
});
export type ContractWriteAnswer = z.infer<typeof contractWriteAnswerSchema>;

export const contractConflictDetailSchema = z.object({
  contractKey: z.string(),
  currentVersion: z.int(),
  current: contractDetailSchema,
});
export type ContractConflictDetail = z.infer<typeof contractConflictDetailSchema>;

/** What the actions menu offers (spec 2 §4), the same rule on both sides. */
export const contractActions = (c: Pick<ContractDetail, 'contractStatus' | 'userType' | 'billingType' | 'contractChangeTariff'>) => {
  const menu = c.userType !== 'AD_HOC' && c.contractStatus !== 'EXPIRED' && c.contractStatus !== 'UNSIGNED_EXPIRED';
  return {
    menu,
    edit: menu,
    editTariff: menu && c.contractStatus === 'ACTIVE' && !c.contractChangeTariff && c.billingType === 'WITH_BILLING',
    terminate: menu && c.contractStatus === 'ACTIVE',
    resendInvitation: menu && c.contractStatus === 'CREATED_UNSIGNED',
  };
};
