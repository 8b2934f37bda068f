import * as z from 'zod/mini';
import {
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
  templateLineKeys,
  taxNumberSchema,
  templateLineSchema,
  vatIdSchema,
  type OperatorDetail,
} from '../../../contract/operators';
import { VAT_ID_OR_TAX_NUMBER, type UpdateOperatorBody } from '../../../contract/operator-writes';
import type { OperatorPaymentMode } from '../../../contract/enums';
import { dropEmpty } from '../../api/client';
import type { FormRules } from '../../ui/use-form';
import { validate, type RuleResult } from '../../ui/validation';
import { areaFailure, flag, isBlank, isOn, operatorRule, requiredFailure } from './operator-rules';

/**
 * The invoice template (spec 1 §5 step 2, spec 3 §4): its values as typed, its rules and its part
 * of the create and BillingInfo bodies. What the contract decides across fields (a chosen payment
 * mode requires its fields, each shown header line is required) is repeated here on the form's own
 * terms (which lines are shown, which modes are ticked).
 */

export { MAX_TEMPLATE_LINES };

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
export function billingPayload(v: BillingValues) {
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

/** PUT /cpos/update-operator-information, workflow BillingInfo, with the version the user saw. */
export function buildBillingPayload(cpoId: string, version: number | undefined, v: BillingValues): UpdateOperatorBody {
  // Booleans stay (dropEmpty keeps false); lines not sent are cleared by the server.
  return dropEmpty({ workFlow: 'BillingInfo', cpoId, ...billingPayload(v), version }) as UpdateOperatorBody;
}
