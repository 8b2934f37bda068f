import * as z from 'zod/mini';
import {
  MAX_PAYMENT_GAP_DAYS,
  MAX_TEMPLATE_LINES,
  contactPersonEmailSchema,
  contactPersonNameSchema,
  contactPersonPhoneSchema,
  contactPersonPositionSchema,
  cpoBankNameSchema,
  cpoBicSchema,
  cpoIbanSchema,
  billNumberPrefixSchema,
  creditorIdSchema,
  moneyCollectionGapSchema,
  operatorCareOfSchema,
  operatorCitySchema,
  operatorNameSchema,
  operatorStreetSchema,
  operatorZipCodeSchema,
  templateLineKeys,
  taxNumberSchema,
  templateLineSchema,
  vatIdSchema,
  type OperatorDetail,
} from '../../../contract/operators';
import {
  VAT_ID_OR_TAX_NUMBER,
  updateErpBodySchema,
  type CreateOperatorBody,
  type UpdateErpBody,
  type UpdateOperatorBody,
} from '../../../contract/operator-writes';
import { customerTypes } from '../../../contract/common';
import { erpPaymentMethods, type ErpPaymentMethod, type OperatorPaymentMode } from '../../../contract/enums';
import { dropEmpty } from '../../api/client';
import { isApiError, isNetworkError } from '../../api/errors';
import { prefixTakenOf } from './api/prefix-taken';
import type { FormRules } from '../../ui/use-form';
import { fromSchema, validate, type Rule, type RuleResult, type ValidationFailure } from '../../ui/validation';

/**
 * The operator wizards' values and rules (spec 1 §5, spec 3 §4-5). Every limit and format comes from
 * the contract (contract/operators.ts), which the server checks too; what the contract decides across
 * fields (a chosen payment mode requires its fields, each shown header line is required) is
 * repeated here on the form's own terms (which lines are shown, which modes are ticked).
 */

export { MAX_TEMPLATE_LINES };
export const CUSTOMER_TYPES = customerTypes;

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
  ledgerAccount: 'operators.validation.ledgerAccount',
  vatIdOrTaxNumber: 'operators.validation.vatIdOrTaxNumber',
  billNumberPrefixTaken: 'operators.validation.billNumberPrefixTaken',
} as const;

// bindField translates whatever id a failure names; the shared id type lists only the shared ones.
const areaFailure = (code: keyof typeof areaCodes): ValidationFailure =>
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

const requiredFailure: RuleResult = { id: 'validation.required' };
const isBlank = (v: string) => v.trim() === '';
const isOn = (v: string) => v === 'true';
export const flag = (on: boolean): 'true' | 'false' => (on ? 'true' : 'false');

// ---- step 1 / AddressInfo: operator info -------------------------------------------------------

/** Name and address, as in the AddressInfo edit (spec 3 §5: name, street, zip code and city required). */
export type AddressValues = {
  cpoName: string;
  street: string;
  careOf: string;
  zipCode: string;
  city: string;
};

export const addressRules: FormRules<AddressValues> = {
  cpoName: [operatorRule(operatorNameSchema)],
  street: [operatorRule(operatorStreetSchema)],
  careOf: [operatorRule(operatorCareOfSchema)],
  zipCode: [operatorRule(operatorZipCodeSchema)],
  city: [operatorRule(operatorCitySchema)],
};

export const emptyAddress = (): AddressValues => ({ cpoName: '', street: '', careOf: '', zipCode: '', city: '' });

export function addressValuesOf(operator: Pick<OperatorDetail, 'cpoName' | 'cpoAddress'>): AddressValues {
  const a = operator.cpoAddress;
  return { cpoName: operator.cpoName, street: a.street, careOf: a.careOf ?? '', zipCode: a.zipCode, city: a.city };
}

const addressPayload = (v: AddressValues) => ({
  street: v.street.trim(),
  careOf: v.careOf.trim() || undefined,
  zipCode: v.zipCode.trim(),
  city: v.city.trim(),
  countryCode: 'DE' as const,
});

/** Step 1 of the creation wizard: name and address, the customer it belongs to, the manual end-customer-id flag. */
export type OperatorInfoValues = AddressValues & {
  customerId: string;
  customerType: string;
  createManualEndCustomerId: 'true' | 'false';
};

/**
 * An admin names the customer the new operator belongs to (required); everyone else creates for
 * their own customer, shown but fixed (contract: createOperatorBodySchema).
 */
export function operatorInfoRules(isAdmin: boolean): FormRules<OperatorInfoValues> {
  return {
    ...addressRules,
    customerId: isAdmin
      ? [(v: unknown) => (isBlank(String(v ?? '')) ? requiredFailure : null), operatorRule(z.string().check(z.maxLength(100, 'max100')))]
      : [],
    customerType: [(v: unknown) => ((CUSTOMER_TYPES as readonly unknown[]).includes(v) ? null : requiredFailure)],
  };
}

export function emptyOperatorInfo(claims: { customer_id: string; customer_type: string } | null, isAdmin: boolean): OperatorInfoValues {
  return {
    ...emptyAddress(),
    customerId: isAdmin ? '' : (claims?.customer_id ?? ''),
    customerType: isAdmin ? 'Operator' : (claims?.customer_type ?? 'Operator'),
    createManualEndCustomerId: 'false',
  };
}

// ---- step 2 / BillingInfo: invoice template ----------------------------------------------------

const LINE_NUMBERS = [1, 2, 3, 4] as const;
type LineNo = (typeof LINE_NUMBERS)[number];
type HeaderLineField = `headerLine${LineNo}`;
type FooterLineField = `footerLine${LineNo}`;

/**
 * The invoice template as typed: contact person, 'with/no billing info', the payment modes (SEPA,
 * bank transfer) with their fields, days until payment, the shown header and footer lines (count
 * 1..4 and their texts) and the charging-history flag. Flags are 'true'/'false' (useForm keeps strings).
 */
export type BillingValues = {
  contactPersonName: string;
  contactPersonPosition: string;
  contactPersonPhone: string;
  contactPersonEmail: string;
  withBillingInfo: 'true' | 'false';
  sepa: 'true' | 'false';
  bankTransfer: 'true' | 'false';
  creditorId: string;
  cpoIban: string;
  cpoBankName: string;
  cpoBic: string;
  moneyCollectionGapInDays: string;
  vatId: string;
  taxNumber: string;
  billNumberPrefix: string;
  headerCount: string;
  footerCount: string;
  isChargingHistoryIncluded: 'true' | 'false';
} & Record<HeaderLineField | FooterLineField, string>;

export const headerField = (n: number) => `headerLine${n}` as HeaderLineField;
export const footerField = (n: number) => `footerLine${n}` as FooterLineField;

export const emptyBilling = (): BillingValues => ({
  contactPersonName: '',
  contactPersonPosition: '',
  contactPersonPhone: '',
  contactPersonEmail: '',
  withBillingInfo: 'true',
  // Spec 1 §9: SEPA is the default billing type.
  sepa: 'true',
  bankTransfer: 'false',
  creditorId: '',
  cpoIban: '',
  cpoBankName: '',
  cpoBic: '',
  moneyCollectionGapInDays: '',
  vatId: '',
  taxNumber: '',
  billNumberPrefix: '',
  headerCount: '1',
  footerCount: '1',
  // Spec 1 §9: the charging history is included by default.
  isChargingHistoryIncluded: 'true',
  headerLine1: '',
  headerLine2: '',
  headerLine3: '',
  headerLine4: '',
  footerLine1: '',
  footerLine2: '',
  footerLine3: '',
  footerLine4: '',
});

/** Spec 3 §4: header and footer start at 1 line, or at the highest filled one. */
const shownLines = (lines: readonly string[]) => String(Math.max(1, ...lines.map((l, i) => (l.trim() ? i + 1 : 0))));

export function billingValuesOf(operator: OperatorDetail): BillingValues {
  const c = operator.contactPersonDetails;
  const p = operator.cpoPaymentDetails;
  const header = templateLineKeys.map((k) => operator.billingTemplateHeader[k] ?? '');
  const footer = templateLineKeys.map((k) => operator.billingTemplateFooter[k] ?? '');
  const modes = p?.cpoPaymentPreference ?? [];
  const values: BillingValues = {
    ...emptyBilling(),
    contactPersonName: c.contactPersonName ?? '',
    contactPersonPosition: c.contactPersonPosition ?? '',
    contactPersonPhone: c.contactPersonPhone ?? '',
    contactPersonEmail: c.contactPersonEmail ?? '',
    withBillingInfo: 'true',
    sepa: flag(p ? modes.includes('SEPA') : true),
    bankTransfer: flag(modes.includes('BANK_TRANSFER')),
    creditorId: p?.creditorId ?? '',
    cpoIban: p?.cpoIban ?? '',
    cpoBankName: p?.cpoBankName ?? '',
    cpoBic: p?.cpoBic ?? '',
    moneyCollectionGapInDays:
      p?.moneyCollectionGapInDays === null || p?.moneyCollectionGapInDays === undefined ? '' : String(p.moneyCollectionGapInDays),
    vatId: operator.vatId ?? '',
    taxNumber: operator.taxNumber ?? '',
    billNumberPrefix: operator.billNumberPrefix ?? '',
    headerCount: shownLines(header),
    footerCount: shownLines(footer),
    isChargingHistoryIncluded: flag(operator.isChargingHistoryIncluded),
  };
  LINE_NUMBERS.forEach((n, i) => {
    values[headerField(n)] = header[i];
    values[footerField(n)] = footer[i];
  });
  return values;
}

/** Spec 3 §4: 'with/no billing info' is offered only while the operator has no payment details. */
export const offersBillingChoice = (operator: Pick<OperatorDetail, 'cpoPaymentDetails'> | null): boolean =>
  !operator || operator.cpoPaymentDetails === null;

/** Days as typed → what the contract reads: a whole number, else the text (answered with its code). */
const daysValue = (v: string): unknown => {
  const s = v.trim();
  if (s === '') return undefined;
  return /^\d+$/.test(s) ? Number(s) : s;
};

const withBilling = (v: BillingValues) => isOn(v.withBillingInfo);
const count = (v: string) => Math.min(MAX_TEMPLATE_LINES, Math.max(1, Number(v) || 1));

/** A field that only counts with billing info (and, for `when`, a payment mode): required there, format always. */
const billingField =
  (schema: z.ZodMiniType, when: (v: BillingValues) => boolean = () => true) =>
  (v: BillingValues, value: string): RuleResult => {
    if (!withBilling(v)) return null;
    if (when(v) && isBlank(value)) return requiredFailure;
    return isBlank(value) ? null : operatorRule(schema)(value);
  };

const lineRule = (kind: 'header' | 'footer', n: number) => (v: BillingValues) => {
  if (!withBilling(v)) return null;
  const value = v[kind === 'header' ? headerField(n) : footerField(n)];
  const shown = n <= count(kind === 'header' ? v.headerCount : v.footerCount);
  // Spec 1 §5: every shown header line is required; footers are optional.
  if (kind === 'header' && shown && isBlank(value)) return requiredFailure;
  return shown ? operatorRule(templateLineSchema)(value) : null;
};

/** Tax details: each optional on its own (checked when given); the invoice prints whichever is there. */
const optional = () => false;

/**
 * § 14 UStG, as the contract's rule (contract/operator-writes.ts): with billing info the VAT id or the
 * tax number is required; while both are blank both fields say so.
 */
const taxIdRule =
  (field: 'vatId' | 'taxNumber') =>
  (v: BillingValues): RuleResult => {
    const own = billingField(field === 'vatId' ? vatIdSchema : taxNumberSchema, optional)(v, v[field]);
    if (own || !withBilling(v) || !isBlank(v.vatId) || !isBlank(v.taxNumber)) return own;
    return areaFailure(VAT_ID_OR_TAX_NUMBER);
  };

/**
 * The prefix rule: the contract's format, and not one the server refused as another operator's
 * (409 BILL_NUMBER_PREFIX_TAKEN; `taken`, compared case-insensitively as the server's index does).
 */
const prefixRule =
  (taken: readonly string[]) =>
  (v: BillingValues): RuleResult => {
    const own = billingField(billNumberPrefixSchema, optional)(v, v.billNumberPrefix);
    if (own || !withBilling(v)) return own;
    const prefix = v.billNumberPrefix.trim().toUpperCase();
    return prefix && taken.some((p) => p.toUpperCase() === prefix) ? areaFailure('billNumberPrefixTaken') : null;
  };
const sepaChosen = (v: BillingValues) => isOn(v.sepa);
const bankChosen = (v: BillingValues) => isOn(v.bankTransfer);

/** The invoice template's rules; `takenPrefixes` are the bill-number prefixes the server said another operator has. */
export const billingRulesWith = (takenPrefixes: readonly string[] = []): FormRules<BillingValues> => ({
  contactPersonName: [operatorRule(contactPersonNameSchema)],
  contactPersonPosition: [operatorRule(contactPersonPositionSchema)],
  contactPersonPhone: [operatorRule(contactPersonPhoneSchema)],
  contactPersonEmail: [operatorRule(contactPersonEmailSchema)],
  cross: {
    creditorId: (v) => billingField(creditorIdSchema, sepaChosen)(v, v.creditorId),
    cpoIban: (v) => billingField(cpoIbanSchema, bankChosen)(v, v.cpoIban),
    cpoBankName: (v) => billingField(cpoBankNameSchema, bankChosen)(v, v.cpoBankName),
    cpoBic: (v) => billingField(cpoBicSchema, bankChosen)(v, v.cpoBic),
    moneyCollectionGapInDays: (v) => {
      if (!withBilling(v)) return null;
      if (isBlank(v.moneyCollectionGapInDays)) return requiredFailure;
      return validate(daysValue(v.moneyCollectionGapInDays), operatorRule(moneyCollectionGapSchema));
    },
    vatId: taxIdRule('vatId'),
    taxNumber: taxIdRule('taxNumber'),
    billNumberPrefix: prefixRule(takenPrefixes),
    headerLine1: lineRule('header', 1),
    headerLine2: lineRule('header', 2),
    headerLine3: lineRule('header', 3),
    headerLine4: lineRule('header', 4),
    footerLine1: lineRule('footer', 1),
    footerLine2: lineRule('footer', 2),
    footerLine3: lineRule('footer', 3),
    footerLine4: lineRule('footer', 4),
  },
});

export const billingRules: FormRules<BillingValues> = billingRulesWith();

/** Spec 1 §5 / spec 3 §4: with billing info, at least one payment mode ('billing required', in red). */
export const isBillingRequiredMissing = (v: BillingValues): boolean => withBilling(v) && !isOn(v.sepa) && !isOn(v.bankTransfer);

export const paymentModesOf = (v: BillingValues): OperatorPaymentMode[] => [
  ...(isOn(v.sepa) ? (['SEPA'] as const) : []),
  ...(isOn(v.bankTransfer) ? (['BANK_TRANSFER'] as const) : []),
];

/** Shows one more line (up to 4). */
export function addLine(v: BillingValues, kind: 'header' | 'footer'): BillingValues {
  const key = kind === 'header' ? 'headerCount' : 'footerCount';
  return { ...v, [key]: String(Math.min(MAX_TEMPLATE_LINES, count(v[key]) + 1)) };
}

/** Spec 1 §4: removing a line hides the last shown one and clears it (it is not sent, so it is cleared on the server too). */
export function removeLine(v: BillingValues, kind: 'header' | 'footer'): BillingValues {
  const key = kind === 'header' ? 'headerCount' : 'footerCount';
  const n = count(v[key]);
  if (n <= 1) return v;
  const field = kind === 'header' ? headerField(n) : footerField(n);
  return { ...v, [key]: String(n - 1), [field]: '' };
}

/** The lines as sent: the shown ones (blank ones and hidden ones left out, which clears them). */
function linesPayload(v: BillingValues, kind: 'header' | 'footer') {
  const n = count(kind === 'header' ? v.headerCount : v.footerCount);
  const out: Partial<Record<(typeof templateLineKeys)[number], string>> = {};
  templateLineKeys.forEach((key, i) => {
    const text = v[kind === 'header' ? headerField(i + 1) : footerField(i + 1)].trim();
    if (i < n && text) out[key] = text;
  });
  return out;
}

/** The invoice template part of a create or BillingInfo body (spec 3 §4: without billing info only the contact person). */
function billingPayload(v: BillingValues) {
  const contactPersonDetails = {
    contactPersonName: v.contactPersonName.trim(),
    contactPersonPosition: v.contactPersonPosition.trim(),
    contactPersonPhone: v.contactPersonPhone.trim(),
    contactPersonEmail: v.contactPersonEmail.trim(),
  };
  if (!withBilling(v)) return { contactPersonDetails, withBillingInfo: false };
  const modes = paymentModesOf(v);
  return {
    contactPersonDetails,
    withBillingInfo: true,
    // The wizard's SEPA/BANK toggle follows the modes: SEPA when it is chosen, else bank transfer.
    billingType: modes.includes('SEPA') ? ('SEPA' as const) : ('BANK' as const),
    isChargingHistoryIncluded: isOn(v.isChargingHistoryIncluded),
    cpoPaymentDetails: {
      // Spec 3 §4: normalised to a list before saving.
      cpoPaymentPreference: modes,
      creditorId: v.creditorId.trim(),
      cpoIban: v.cpoIban.trim(),
      cpoBankName: v.cpoBankName.trim(),
      cpoBic: v.cpoBic.trim(),
      moneyCollectionGapInDays: daysValue(v.moneyCollectionGapInDays) as number,
    },
    vatId: v.vatId.trim() || undefined,
    taxNumber: v.taxNumber.trim() || undefined,
    billNumberPrefix: v.billNumberPrefix.trim() || undefined,
    billingTemplateHeader: linesPayload(v, 'header'),
    billingTemplateFooter: linesPayload(v, 'footer'),
  };
}

// ---- payloads -----------------------------------------------------------------------------------

/** POST /cpos/create-operator (spec 1 §7): empty values removed, payment preference as a list. */
export function buildCreatePayload(info: OperatorInfoValues, billing: BillingValues): CreateOperatorBody {
  const body = {
    cpoName: info.cpoName.trim(),
    cpoAddress: addressPayload(info),
    customerId: info.customerId.trim(),
    customerType: info.customerType,
    createManualEndCustomerId: isOn(info.createManualEndCustomerId),
    ...billingPayload(billing),
  };
  return dropEmpty(body) as CreateOperatorBody;
}

/** PUT /cpos/update-operator-information, workflow AddressInfo, with the version the user saw. */
export function buildAddressPayload(cpoId: string, version: number | undefined, v: AddressValues): UpdateOperatorBody {
  return dropEmpty({
    workFlow: 'AddressInfo',
    cpoId,
    cpoName: v.cpoName.trim(),
    cpoAddress: addressPayload(v),
    version,
  }) as UpdateOperatorBody;
}

/** PUT /cpos/update-operator-information, workflow BillingInfo, with the version the user saw. */
export function buildBillingPayload(cpoId: string, version: number | undefined, v: BillingValues): UpdateOperatorBody {
  // Booleans stay (dropEmpty keeps false); lines not sent are cleared by the server.
  return dropEmpty({ workFlow: 'BillingInfo', cpoId, ...billingPayload(v), version }) as UpdateOperatorBody;
}

// ---- ERP ----------------------------------------------------------------------------------------

export type ErpValues = {
  paymentMethod: string;
  clientNumber: string;
  netLedgerAccountNr: string;
  taxLedgerAccountNr: string;
};

const erp = updateErpBodySchema.shape;

/** Spec 3 §5: client number, net ledger account and payment method required; tax ledger account optional. */
export const erpRules: FormRules<ErpValues> = {
  paymentMethod: [operatorRule(erp.paymentMethod)],
  clientNumber: [operatorRule(erp.clientNumber)],
  netLedgerAccountNr: [operatorRule(erp.netLedgerAccountNr)],
  taxLedgerAccountNr: [operatorRule(erp.taxLedgerAccountNr)],
};

/**
 * The payment methods an ERP value can be edited for: those that have one, then those the operator
 * takes payments with; all of them when it has neither yet.
 */
export function erpMethodsOf(operator: Pick<OperatorDetail, 'erpValues' | 'cpoPaymentDetails'>): ErpPaymentMethod[] {
  const known = new Set<string>([
    ...operator.erpValues.map((e) => e.paymentMethod),
    ...(operator.cpoPaymentDetails?.cpoPaymentPreference ?? []),
  ]);
  const methods = erpPaymentMethods.filter((m) => known.has(m));
  return methods.length ? methods : [...erpPaymentMethods];
}

export function erpValuesOf(operator: Pick<OperatorDetail, 'erpValues'>, paymentMethod: string): ErpValues {
  const current = operator.erpValues.find((e) => e.paymentMethod === paymentMethod);
  return {
    paymentMethod,
    clientNumber: current?.clientNumber ?? '',
    netLedgerAccountNr: current?.netLedgerAccountNr ?? '',
    taxLedgerAccountNr: current?.taxLedgerAccountNr ?? '',
  };
}

/** PUT /bookings/update-erp-information with the version the user saw. */
export function buildErpPayload(cpoId: string, version: number | undefined, v: ErpValues): UpdateErpBody {
  return dropEmpty({
    cpoId,
    clientNumber: v.clientNumber.trim(),
    netLedgerAccountNr: v.netLedgerAccountNr.trim(),
    taxLedgerAccountNr: v.taxLedgerAccountNr.trim(),
    paymentMethod: v.paymentMethod,
    version,
  }) as UpdateErpBody;
}

// ---- creation failures ------------------------------------------------------------------------------

export { prefixTakenOf };

/** What the creation wizard says when it failed (spec 1 §8). */
export type CreateFailure =
  | { kind: 'customerNotFound'; customerId: string }
  | { kind: 'operatorNotFound'; cpoId: string }
  | { kind: 'forbidden' }
  | { kind: 'prefixTaken'; billNumberPrefix: string }
  | { kind: 'validation' }
  | { kind: 'offline' }
  | { kind: 'generic' };

export function createFailure(error: unknown, customerId: string): CreateFailure {
  if (isNetworkError(error)) return { kind: 'offline' };
  if (!isApiError(error)) return { kind: 'generic' };
  const detail = (error.errorDetail ?? {}) as { customerId?: unknown; cpoId?: unknown };
  if (error.errorCodeResponse === 'CUSTOMER_NOT_FOUND')
    return { kind: 'customerNotFound', customerId: typeof detail.customerId === 'string' ? detail.customerId : customerId };
  if (error.errorCodeResponse === 'OPERATOR_NOT_FOUND')
    return { kind: 'operatorNotFound', cpoId: typeof detail.cpoId === 'string' ? detail.cpoId : '' };
  const taken = prefixTakenOf(error);
  if (taken !== null) return { kind: 'prefixTaken', billNumberPrefix: taken };
  if (error.status === 403) return { kind: 'forbidden' };
  if (error.status === 400) return { kind: 'validation' };
  return { kind: 'generic' };
}
