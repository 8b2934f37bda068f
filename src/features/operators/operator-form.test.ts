import { describe, expect, it } from 'vitest';
import { type OperatorDetail } from '../../../contract/operators';
import { createOperatorBodySchema, updateErpBodySchema, updateOperatorBodySchema } from '../../../contract/operator-writes';
import { ApiError, NetworkError } from '../../api/errors';
import { validate, type Rule, type RuleResult } from '../../ui/validation';
import type { FormRules } from '../../ui/use-form';
import {
  addLine,
  billingRules,
  billingRulesWith,
  billingValuesOf,
  buildBillingPayload,
  emptyBilling,
  isBillingRequiredMissing,
  offersBillingChoice,
  removeLine,
  type BillingValues,
} from './operator-billing-form';
import { buildErpPayload, erpMethodsOf, erpValuesOf } from './operator-erp-form';
import {
  addressRules,
  buildAddressPayload,
  buildCreatePayload,
  createFailure,
  emptyOperatorInfo,
  operatorInfoRules,
  type AddressValues,
  type OperatorInfoValues,
} from './operator-form';

/** What useForm would show per field (own rules first, then the cross-field rule). */
function errorsOf<V extends Record<string, string>>(values: NoInfer<V>, rules: FormRules<V>): Partial<Record<keyof V, string>> {
  const out: Partial<Record<keyof V, string>> = {};
  for (const key of Object.keys(values) as Array<keyof V>) {
    const own = rules[key] ? validate(values[key], ...(rules[key] as Rule<string>[])) : null;
    const result: RuleResult = own ?? rules.cross?.[key]?.(values) ?? null;
    if (result) out[key] = result.id;
  }
  return out;
}

const info: OperatorInfoValues = {
  cpoName: ' Hafen GmbH ',
  street: 'Hafenstraße 7',
  careOf: '',
  zipCode: '20457',
  city: 'Hamburg',
  customerId: 'K10001',
  customerType: 'Operator',
  createManualEndCustomerId: 'true',
};

const billing: BillingValues = {
  ...emptyBilling(),
  contactPersonName: 'Erika Muster',
  contactPersonPosition: 'Buchhaltung',
  contactPersonPhone: '04012345',
  contactPersonEmail: 'erika@example.com',
  sepa: 'true',
  bankTransfer: 'true',
  creditorId: 'DE98ZZZ09999999999',
  cpoIban: 'DE89 3704 0044 0532 0130 00',
  cpoBankName: 'Commerzbank',
  cpoBic: 'COBADEFF',
  moneyCollectionGapInDays: '14',
  headerLine1: 'Hafen GmbH',
  vatId: 'DE123456789',
};

const operator: OperatorDetail = {
  cpoId: 'CPO1',
  cpoName: 'Hafen GmbH',
  cpoAddress: { street: 'Hafenstraße 7', careOf: null, zipCode: '20457', city: 'Hamburg', countryCode: 'DE' },
  customerId: 'K1',
  customerType: 'Operator',
  createManualEndCustomerId: false,
  contactPersonDetails: {
    contactPersonName: 'Erika',
    contactPersonPosition: 'CFO',
    contactPersonPhone: '040',
    contactPersonEmail: 'e@x.de',
  },
  billingType: 'BANK',
  isChargingHistoryIncluded: false,
  cpoPaymentDetails: {
    cpoPaymentPreference: ['BANK_TRANSFER', 'STRIPE_SEPA'],
    cpoIban: 'DE89370400440532013000',
    cpoBankName: 'Commerzbank',
    cpoBic: 'COBADEFF',
    creditorId: null,
    moneyCollectionGapInDays: 30,
  },
  billingTemplateHeader: { lineOne: 'A', lineTwo: null, lineThree: 'C', lineFour: null },
  billingTemplateFooter: { lineOne: null, lineTwo: null, lineThree: null, lineFour: null },
  erpValues: [{ cpoId: 'CPO1', clientNumber: '1', netLedgerAccountNr: '2', taxLedgerAccountNr: null, paymentMethod: 'STRIPE_SEPA' }],
  version: 4,
};

describe('operator info (spec 1 §5)', () => {
  it('requires name, street, zip and city; zip digits only; c/o optional', () => {
    const empty: AddressValues = { cpoName: '', street: '', careOf: '', zipCode: '', city: '' };
    expect(errorsOf(empty, addressRules)).toEqual({
      cpoName: 'validation.required',
      street: 'validation.required',
      zipCode: 'validation.required',
      city: 'validation.required',
    });
    expect(errorsOf({ ...info, zipCode: '2045a' }, operatorInfoRules(true))).toEqual({ zipCode: 'validation.digitsOnly' });
    expect(errorsOf(info, operatorInfoRules(true))).toEqual({});
  });

  it('lets an admin name the customer (required) and fixes it to their own for everyone else', () => {
    expect(errorsOf({ ...info, customerId: ' ' }, operatorInfoRules(true))).toEqual({ customerId: 'validation.required' });
    expect(errorsOf({ ...info, customerId: '' }, operatorInfoRules(false))).toEqual({});
    const claims = { customer_id: 'K7', customer_type: 'Partner' };
    expect(emptyOperatorInfo(claims, false)).toMatchObject({ customerId: 'K7', customerType: 'Partner' });
    expect(emptyOperatorInfo(claims, true)).toMatchObject({ customerId: '', customerType: 'Operator' });
  });
});

describe('invoice template (spec 1 §5, spec 3 §5)', () => {
  it('is valid as filled in, with SEPA and bank transfer', () => {
    expect(errorsOf(billing, billingRules)).toEqual({});
    expect(isBillingRequiredMissing(billing)).toBe(false);
  });

  it('requires the contact person; phone digits, e-mail pattern', () => {
    const errors = errorsOf({ ...billing, contactPersonName: '', contactPersonPhone: '040-1', contactPersonEmail: 'x@' }, billingRules);
    expect(errors).toEqual({
      contactPersonName: 'validation.required',
      contactPersonPhone: 'validation.digitsOnly',
      contactPersonEmail: 'validation.email',
    });
  });

  it("asks for at least one payment mode ('billing required')", () => {
    expect(isBillingRequiredMissing({ ...billing, sepa: 'false', bankTransfer: 'false' })).toBe(true);
    expect(isBillingRequiredMissing({ ...billing, sepa: 'false', bankTransfer: 'false', withBillingInfo: 'false' })).toBe(false);
  });

  it('requires the creditor id for SEPA and IBAN, bank name and BIC for bank transfer', () => {
    const blank = { ...billing, creditorId: '', cpoIban: '', cpoBankName: '', cpoBic: '' };
    expect(errorsOf({ ...blank, bankTransfer: 'false' }, billingRules)).toEqual({ creditorId: 'validation.required' });
    expect(errorsOf({ ...blank, sepa: 'false' }, billingRules)).toEqual({
      cpoIban: 'validation.required',
      cpoBankName: 'validation.required',
      cpoBic: 'validation.required',
    });
  });

  it('checks IBAN, BIC and creditor id by the contract (checksums, pattern) with their own messages', () => {
    const errors = errorsOf(
      { ...billing, cpoIban: 'DE89370400440532013001', cpoBic: 'COBA1', creditorId: 'DE99ZZZ09999999999' },
      billingRules,
    );
    expect(errors).toEqual({
      cpoIban: 'operators.validation.invalidIban',
      cpoBic: 'operators.validation.invalidBic',
      creditorId: 'operators.validation.invalidCreditorId',
    });
  });

  it('checks the VAT id (DE and 9 digits), the tax number and the bill-number prefix, all optional (§ 14 UStG, issue 24)', () => {
    expect(errorsOf({ ...billing, vatId: 'DE 123 456 789', taxNumber: '30/123/45678', billNumberPrefix: 'SWS-' }, billingRules)).toEqual(
      {},
    );
    expect(errorsOf({ ...billing, vatId: 'DE12345678', taxNumber: '12/345', billNumberPrefix: 'sws' }, billingRules)).toEqual({
      vatId: 'operators.validation.invalidVatId',
      taxNumber: 'operators.validation.invalidTaxNumber',
      billNumberPrefix: 'operators.validation.invalidBillNumberPrefix',
    });
    // 'RE-' and a digit start the default numbers (RE-2026-CPO2026-…); 'RE-SW-' does not.
    expect(errorsOf({ ...billing, vatId: 'DE123456789', billNumberPrefix: 'RE-2026-CPO' }, billingRules)).toEqual({
      billNumberPrefix: 'operators.validation.billNumberPrefixReserved',
    });
    expect(errorsOf({ ...billing, vatId: 'DE123456789', billNumberPrefix: 'RE-SW-' }, billingRules)).toEqual({});
    const body = buildCreatePayload(info, { ...billing, vatId: ' DE123456789 ', billNumberPrefix: 'SWS-' });
    expect(body).toMatchObject({ vatId: 'DE123456789', billNumberPrefix: 'SWS-' });
    expect(body).not.toHaveProperty('taxNumber');
    expect(billingValuesOf({ ...operator, vatId: 'DE123456789', taxNumber: null }).vatId).toBe('DE123456789');
  });

  it('needs the VAT id or the tax number with billing info (§ 14 UStG), as the contract does, at both fields', () => {
    const neither = { ...billing, vatId: '', taxNumber: ' ' };
    expect(errorsOf(neither, billingRules)).toEqual({
      vatId: 'operators.validation.vatIdOrTaxNumber',
      taxNumber: 'operators.validation.vatIdOrTaxNumber',
    });
    expect(errorsOf({ ...neither, taxNumber: '30/123/45678' }, billingRules)).toEqual({});
    expect(errorsOf({ ...neither, withBillingInfo: 'false' }, billingRules)).toEqual({});
    // The same rule on the server: the payload without either is refused at both fields.
    const parsed = createOperatorBodySchema.safeParse(buildCreatePayload(info, neither));
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`).sort()).toEqual([
      'taxNumber:vatIdOrTaxNumber',
      'vatId:vatIdOrTaxNumber',
    ]);
    expect(createOperatorBodySchema.safeParse(buildCreatePayload(info, billing)).success).toBe(true);
  });

  it('says at the field that a bill-number prefix the server refused is taken (any case), until it is changed', () => {
    const rules = billingRulesWith(['SWS-']);
    expect(errorsOf({ ...billing, billNumberPrefix: 'SWS-' }, rules)).toEqual({
      billNumberPrefix: 'operators.validation.billNumberPrefixTaken',
    });
    expect(errorsOf({ ...billing, billNumberPrefix: 'SWT-' }, rules)).toEqual({});
    expect(errorsOf({ ...billing, billNumberPrefix: 'SWS-' }, billingRules)).toEqual({});
    const taken = new ApiError({ status: 409, errorCodeResponse: 'BILL_NUMBER_PREFIX_TAKEN', errorDetail: { billNumberPrefix: 'SWS-' } });
    expect(createFailure(taken, '')).toEqual({ kind: 'prefixTaken', billNumberPrefix: 'SWS-' });
  });

  it('needs days until payment as a whole number of at least 1', () => {
    expect(errorsOf({ ...billing, moneyCollectionGapInDays: '' }, billingRules)).toEqual({
      moneyCollectionGapInDays: 'validation.required',
    });
    expect(errorsOf({ ...billing, moneyCollectionGapInDays: '0' }, billingRules)).toEqual({
      moneyCollectionGapInDays: 'operators.validation.minOneDay',
    });
    expect(errorsOf({ ...billing, moneyCollectionGapInDays: '1,5' }, billingRules)).toEqual({
      moneyCollectionGapInDays: 'operators.validation.wholeNumber',
    });
    expect(errorsOf({ ...billing, moneyCollectionGapInDays: '1' }, billingRules)).toEqual({});
  });

  it('requires each shown header line; footers are optional; hidden lines do not count', () => {
    const three = addLine(addLine(billing, 'header'), 'header');
    expect(three.headerCount).toBe('3');
    expect(errorsOf(three, billingRules)).toEqual({ headerLine2: 'validation.required', headerLine3: 'validation.required' });
    expect(errorsOf({ ...billing, headerLine1: '' }, billingRules)).toEqual({ headerLine1: 'validation.required' });
    const footers = addLine(billing, 'footer');
    expect(errorsOf(footers, billingRules)).toEqual({});
  });

  it('grows lines up to 4; removing a line hides and clears it, never below one', () => {
    let v = { ...billing, headerLine2: 'B', headerLine3: 'C' };
    v = addLine(addLine(v, 'header'), 'header');
    v = addLine(addLine(v, 'header'), 'header');
    expect(v.headerCount).toBe('4');
    v = removeLine(v, 'header');
    expect(v).toMatchObject({ headerCount: '3', headerLine4: '' });
    v = removeLine(v, 'header');
    expect(v).toMatchObject({ headerCount: '2', headerLine3: '', headerLine2: 'B' });
    v = removeLine(removeLine(v, 'header'), 'header');
    expect(v).toMatchObject({ headerCount: '1', headerLine1: 'Hafen GmbH' });
  });

  it('without billing info checks only the contact person', () => {
    const without = {
      ...emptyBilling(),
      ...billing,
      withBillingInfo: 'false' as const,
      creditorId: '',
      headerLine1: '',
      moneyCollectionGapInDays: '',
    };
    expect(errorsOf(without, billingRules)).toEqual({});
  });

  it('starts from the operator: modes, the highest filled line, the flags', () => {
    const v = billingValuesOf(operator);
    expect(v).toMatchObject({ sepa: 'false', bankTransfer: 'true', headerCount: '3', footerCount: '1', moneyCollectionGapInDays: '30' });
    expect(v).toMatchObject({ headerLine1: 'A', headerLine2: '', headerLine3: 'C', isChargingHistoryIncluded: 'false' });
    expect(offersBillingChoice(operator)).toBe(false);
    expect(offersBillingChoice({ cpoPaymentDetails: null })).toBe(true);
  });
});

describe('payloads', () => {
  it('creates with the payment preference as a list, the shown lines only and empty values removed', () => {
    const removed = removeLine(addLine(addLine({ ...billing, headerLine2: 'Hafenstraße 7' }, 'header'), 'header'), 'header');
    const body = buildCreatePayload(info, { ...removed, headerLine3: 'left over' });
    expect(body).toEqual({
      cpoName: 'Hafen GmbH',
      cpoAddress: { street: 'Hafenstraße 7', zipCode: '20457', city: 'Hamburg', countryCode: 'DE' },
      customerId: 'K10001',
      customerType: 'Operator',
      createManualEndCustomerId: true,
      contactPersonDetails: {
        contactPersonName: 'Erika Muster',
        contactPersonPosition: 'Buchhaltung',
        contactPersonPhone: '04012345',
        contactPersonEmail: 'erika@example.com',
      },
      withBillingInfo: true,
      billingType: 'SEPA',
      isChargingHistoryIncluded: true,
      cpoPaymentDetails: {
        cpoPaymentPreference: ['SEPA', 'BANK_TRANSFER'],
        creditorId: 'DE98ZZZ09999999999',
        cpoIban: 'DE89 3704 0044 0532 0130 00',
        cpoBankName: 'Commerzbank',
        cpoBic: 'COBADEFF',
        moneyCollectionGapInDays: 14,
      },
      billingTemplateHeader: { lineOne: 'Hafen GmbH', lineTwo: 'Hafenstraße 7' },
      vatId: 'DE123456789',
    });
    // What the form accepts, the contract (and so the server) accepts.
    expect(createOperatorBodySchema.safeParse(body).success).toBe(true);
  });

  it('sends only the contact person without billing info', () => {
    const body = buildCreatePayload(info, { ...billing, withBillingInfo: 'false' });
    expect(body).not.toHaveProperty('cpoPaymentDetails');
    expect(body).not.toHaveProperty('billingTemplateHeader');
    expect(body).toMatchObject({ withBillingInfo: false, contactPersonDetails: { contactPersonName: 'Erika Muster' } });
    expect(createOperatorBodySchema.safeParse(body).success).toBe(true);
  });

  it('builds the two workflows and the ERP update with the version the user saw', () => {
    const address = buildAddressPayload('CPO1', 4, { cpoName: 'Neu', street: 'Weg 1', careOf: ' ', zipCode: '1', city: 'Kiel' });
    expect(address).toEqual({
      workFlow: 'AddressInfo',
      cpoId: 'CPO1',
      cpoName: 'Neu',
      cpoAddress: { street: 'Weg 1', zipCode: '1', city: 'Kiel', countryCode: 'DE' },
      version: 4,
    });
    expect(updateOperatorBodySchema.safeParse(address).success).toBe(true);
    const bill = buildBillingPayload('CPO1', 5, { ...billing, sepa: 'false' });
    expect(bill).toMatchObject({ workFlow: 'BillingInfo', cpoId: 'CPO1', version: 5, billingType: 'BANK' });
    expect(updateOperatorBodySchema.safeParse(bill).success).toBe(true);
    const erp = buildErpPayload('CPO1', 6, {
      paymentMethod: 'SEPA',
      clientNumber: ' 4711 ',
      netLedgerAccountNr: '8400',
      taxLedgerAccountNr: '',
      // A clearing account left in the form of a SEPA value is not sent: only Stripe's methods post on one.
      clearingAccountNr: '1360',
    });
    expect(erp).toEqual({ cpoId: 'CPO1', clientNumber: '4711', netLedgerAccountNr: '8400', paymentMethod: 'SEPA', version: 6 });
    expect(updateErpBodySchema.safeParse(erp).success).toBe(true);
    const stripe = buildErpPayload('CPO1', 6, {
      paymentMethod: 'STRIPE_CARD',
      clientNumber: '4711',
      netLedgerAccountNr: '8400',
      taxLedgerAccountNr: '1776',
      clearingAccountNr: ' 1360 ',
    });
    expect(stripe).toMatchObject({ paymentMethod: 'STRIPE_CARD', clearingAccountNr: '1360' });
    expect(updateErpBodySchema.safeParse(stripe).success).toBe(true);
  });

  it('offers ERP values for the methods the operator has or takes payments with', () => {
    // Stripe's methods always: an operator's contracts may pay through Stripe whatever its preference (issue 35).
    expect(erpMethodsOf(operator)).toEqual(['BANK_TRANSFER', 'STRIPE_SEPA', 'STRIPE_CARD']);
    expect(erpMethodsOf({ erpValues: [], cpoPaymentDetails: null })).toEqual(['BANK_TRANSFER', 'STRIPE_SEPA', 'SEPA', 'STRIPE_CARD']);
    expect(erpValuesOf(operator, 'STRIPE_SEPA')).toEqual({
      paymentMethod: 'STRIPE_SEPA',
      clientNumber: '1',
      netLedgerAccountNr: '2',
      taxLedgerAccountNr: '',
      clearingAccountNr: '',
    });
    expect(erpValuesOf(operator, 'SEPA').clientNumber).toBe('');
  });
});

describe('creation failures (spec 1 §8)', () => {
  it('names the customer or operator not found, and reads offline, forbidden and validation answers', () => {
    const notFound = new ApiError({ status: 404, errorCodeResponse: 'CUSTOMER_NOT_FOUND', errorDetail: { customerId: 'K9' } });
    expect(createFailure(notFound, 'K1')).toEqual({ kind: 'customerNotFound', customerId: 'K9' });
    expect(createFailure(new ApiError({ status: 404, errorCodeResponse: 'OPERATOR_NOT_FOUND', errorDetail: { cpoId: 'C' } }), '')).toEqual({
      kind: 'operatorNotFound',
      cpoId: 'C',
    });
    expect(createFailure(new ApiError({ status: 403, errorCodeResponse: 'FORBIDDEN' }), '')).toEqual({ kind: 'forbidden' });
    expect(createFailure(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR' }), '')).toEqual({ kind: 'validation' });
    expect(createFailure(new NetworkError('offline'), '')).toEqual({ kind: 'offline' });
    expect(createFailure(new ApiError({ status: 500 }), '')).toEqual({ kind: 'generic' });
  });
});
