import { beforeAll, describe, expect, it } from 'vitest';
import type { TranslateFn } from '../../i18n/i18n-context';
import { createTranslator } from '../../i18n/i18n-provider';
import { loadSignedInMessages } from '../../i18n/messages';
import {
  CONTRACT_PDF_MAX_BYTES,
  createContractBodySchema,
  editContractBodyChecked,
  type ContractDetail,
} from '../../../contract/contracts';
import { createRefusal, describeCreateRefusal } from './api/user-writes';
import { maskIban } from './user-rules';
import {
  buildCreatePayload,
  checkPdf,
  createWrite,
  defaultBillingType,
  defaultPaymentMethod,
  editWrite,
  isLockedContract,
  emptyUserForm,
  stepIsValid,
  toBase64,
  unknownParkingLots,
  userFormIssues,
  valuesFromContract,
  withUserType,
  type UserFormValues,
} from './user-create-rules';

const complete = (over: Partial<UserFormValues> = {}): UserFormValues => ({
  ...emptyUserForm('CPO1'),
  firstName: 'Erika',
  lastName: 'Muster',
  email: 'erika@example.com',
  street: 'Hauptstr. 1',
  zipCode: '10115',
  city: 'Berlin',
  userType: 'REGULAR',
  locationId: 'LOC1',
  parkingLotNumbers: ['P1'],
  authType: 'APP',
  billingType: 'WITH_BILLING',
  billingCycle: 'MONTHLY',
  fixTariff: '9,99',
  varTariff: '0.45',
  startDate: '01.12.2026',
  paymentMethod: 'SEPA',
  mandateReference: 'MANDATE-1',
  ...over,
});
const ctx = { manualIds: false };
const issues = (over: Partial<UserFormValues> = {}, c: Parameters<typeof userFormIssues>[1] = ctx) => userFormIssues(complete(over), c);

describe('creation wizard rules (spec 2 §4-5)', () => {
  it('a complete form has no issue and the payload passes the contract', () => {
    expect(issues()).toEqual({});
    expect(createContractBodySchema.safeParse(buildCreatePayload(complete(), null)).success).toBe(true);
    for (const step of [0, 1, 2, 3]) expect(stepIsValid(issues(), step)).toBe(true);
  });

  it('user info: names, street, city, e-mail pattern, zip digits; c/o optional', () => {
    expect(issues({ firstName: ' ' }).firstName).toBe('required');
    expect(issues({ lastName: '' }).lastName).toBe('required');
    expect(issues({ street: '' }).street).toBe('required');
    expect(issues({ city: '' }).city).toBe('required');
    expect(issues({ email: 'no-at' }).email).toBe('email');
    expect(issues({ zipCode: '10a15' }).zipCode).toBe('digitsOnly');
    expect(issues({ careOf: '' }).careOf).toBeUndefined();
    expect(stepIsValid(issues({ email: '' }), 0)).toBe(false);
    expect(stepIsValid(issues({ email: '' }), 1)).toBe(true);
  });

  it('end customer id: required only with manual ids, alphanumeric, blocked when the check says it exists', () => {
    expect(issues({ endCustomerId: '' }).endCustomerId).toBeUndefined();
    expect(issues({ endCustomerId: '' }, { manualIds: true }).endCustomerId).toBe('required');
    expect(issues({ endCustomerId: 'AB-12' }, { manualIds: true }).endCustomerId).toBe('alphanumeric');
    expect(issues({ endCustomerId: 'AB12' }, { manualIds: true }).endCustomerId).toBeUndefined();
    expect(issues({ endCustomerId: 'AB12' }, { manualIds: true, idCheck: 'exists' }).endCustomerId).toBe('idExists');
    expect(issues({ endCustomerId: 'AB12' }, { manualIds: true, idCheck: 'notValidated' }).endCustomerId).toBeUndefined();
  });

  it('REGULAR needs a location and at least one parking lot', () => {
    expect(issues({ locationId: '' }).locationId).toBe('locationRequired');
    expect(issues({ parkingLotNumbers: [] }).parkingLotNumbers).toBe('parkingLotRequired');
  });

  it('LOCAL_ADMIN and GLOBAL_ADMIN reset the location and force RFID', () => {
    const admin = withUserType(complete(), 'LOCAL_ADMIN');
    expect(admin).toMatchObject({ userType: 'LOCAL_ADMIN', locationId: '', parkingLotNumbers: [], authType: 'RFID' });
    expect(userFormIssues(admin, ctx).locationId).toBeUndefined();
    expect(userFormIssues(admin, ctx).rfidTags).toBe('rfidRequired');
    expect(userFormIssues({ ...admin, rfidTags: 'A1, B2' }, ctx)).toEqual({});
    expect(withUserType(complete(), 'REGULAR')).toMatchObject({ locationId: 'LOC1', authType: 'APP' });
  });

  it('RFID: tags or serials by rfidType, comma lists trimmed', () => {
    expect(issues({ authType: 'RFID', rfidType: 'TAG', rfidTags: ' , ' }).rfidTags).toBe('rfidRequired');
    expect(issues({ authType: 'APP_AND_RFID', rfidType: 'SN', rfidTags: 'A', rfidSerialId: '' }).rfidSerialId).toBe('rfidRequired');
    const body = buildCreatePayload(complete({ authType: 'RFID', rfidType: 'TAG', rfidTags: ' A1 ,B2,, A1 ', rfidSerialId: 'S9' }), null);
    expect(body.rfidTags).toEqual(['A1', 'B2']);
    expect(body.rfidSerialId).toBeUndefined();
    expect(buildCreatePayload(complete({ authType: 'APP', rfidTags: 'A1' }), null)).not.toHaveProperty('rfidType');
  });

  it('tariffs: numbers, min 0, step 0.01, fix and var tariff required with billing', () => {
    expect(issues({ fixTariff: '' }).fixTariff).toBe('required');
    expect(issues({ varTariff: 'abc' }).varTariff).toBe('number');
    expect(issues({ varTariff: '0,455' }).varTariff).toBe('step001');
    expect(issues({ onboardingFee: '-1' }).onboardingFee).toBe('number');
    expect(issues({ onboardingFee: '' }).onboardingFee).toBeUndefined();
    expect(issues({ billingType: 'NO_BILLING', fixTariff: '', varTariff: 'x', paymentMethod: '' })).toEqual({});
  });

  it('dates: start required, dd.MM.yyyy, end after start or none', () => {
    expect(issues({ startDate: '' }).startDate).toBe('required');
    expect(issues({ startDate: '31.02.2026' }).startDate).toBe('date');
    expect(issues({ endDate: '01.12.2026' }).endDate).toBe('endBeforeStart');
    expect(issues({ endDate: '02.12.2026' }).endDate).toBeUndefined();
    expect(issues({ endDate: '' }).endDate).toBeUndefined();
  });

  it('the PDF is checked by its first bytes, at most 3 MB', () => {
    const pdf = new TextEncoder().encode('%PDF-1.7\n...');
    expect(checkPdf(pdf)).toBeNull();
    expect(checkPdf(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe('pdfOnly');
    const big = new Uint8Array(CONTRACT_PDF_MAX_BYTES + 1);
    big.set(pdf);
    expect(checkPdf(big)).toBe('3mb');
    expect(issues({}, { manualIds: false, pdfIssue: 'pdfOnly' }).pdf).toBe('pdfOnly');
    expect(toBase64(pdf)).toBe(btoa('%PDF-1.7\n...'));
  });

  it('payment: a method with billing, the mandate reference for SEPA', () => {
    expect(issues({ paymentMethod: '' }).paymentMethod).toBe('required');
    expect(issues({ mandateReference: '' }).mandateReference).toBe('required');
    expect(issues({ paymentMethod: 'BANK_TRANSFER', mandateReference: '' })).toEqual({});
    expect(issues({ debitAccountNr: '12a' }).debitAccountNr).toBe('digitsOnly');
    expect(issues({ debitAccountNr: '1234567890' }).debitAccountNr).toBe('max9');
    expect(issues({ costCenterNumber: 'x' }).costCenterNumber).toBe('digitsOnly');
    // The VAT rate: one the bills can be made at.
    expect(issues({ vatId: '19%' }).vatId).toBe('vatRate');
    expect(issues({ vatId: '16' }).vatId).toBe('vatRate');
    expect(issues({ vatId: '7' })).toEqual({});
    // 0 % is the reverse charge: only with the customer's VAT id (issue 35).
    expect(issues({ vatId: '0' }).vatId).toBe('zeroRateNeedsVatId');
    expect(issues({ vatId: '0', companyName: 'Flotte Nord GmbH', customerVatId: 'DE136695976' })).toEqual({});
  });

  it('a business customer: VAT id by its country, VAT id and buyer reference only with a company name', () => {
    expect(issues({ customerVatId: 'DE136695976' }).customerVatId).toBe('companyNameFirst');
    expect(issues({ buyerReference: '991-01234-44' }).buyerReference).toBe('companyNameFirst');
    expect(issues({ companyName: 'Flotte Nord GmbH', customerVatId: 'DE136695975' }).customerVatId).toBe('invalidEuVatId');
    expect(issues({ companyName: 'Flotte Nord GmbH', customerVatId: 'DE 136 695 976', buyerReference: '991-01234-44' })).toEqual({});
    const body = buildCreatePayload(complete({ companyName: ' Flotte Nord GmbH ', customerVatId: 'DE136695976' }), null);
    expect(body).toMatchObject({ companyName: 'Flotte Nord GmbH', customerVatId: 'DE136695976' });
    expect(body).not.toHaveProperty('buyerReference');
  });

  it('billing defaults from the operator payment preference', () => {
    expect(defaultBillingType(['NO_PAYMENT_METHOD'])).toBe('NO_BILLING');
    expect(defaultBillingType(null)).toBe('NO_BILLING');
    expect(defaultBillingType(['NO_PAYMENT_METHOD', 'SEPA'])).toBe('WITH_BILLING');
    expect(defaultBillingType(['BANK_TRANSFER'])).toBe('WITH_BILLING');
    expect(defaultBillingType(['STRIPE_SEPA'])).toBe('WITH_BILLING');
    expect(defaultPaymentMethod(['NO_PAYMENT_METHOD', 'BANK_TRANSFER'])).toBe('BANK_TRANSFER');
  });
});

describe('the create payload (spec 2 §4, §7)', () => {
  it('drops empty values, sends dates yyyy-MM-dd, a null end date and locationId without the name', () => {
    const body = buildCreatePayload(complete({ careOf: '', iban: '', endDate: '' }), null);
    expect(body.contractAddress).toEqual({ street: 'Hauptstr. 1', zipCode: '10115', city: 'Berlin', countryCode: 'DE' });
    expect(body).not.toHaveProperty('endCustomerId');
    expect(body).not.toHaveProperty('erpSystemParameters');
    expect(body.contractInfo).toMatchObject({ startDate: '2026-12-01', endDate: null, fixTariff: 9.99, varTariff: 0.45 });
    expect(body.contractInfo).not.toHaveProperty('contractPDF');
    expect(body.contractPaymentDetails).toEqual({ contractMandateReference: 'MANDATE-1' });
    expect(body.locationId).toBe('LOC1');
    expect(buildCreatePayload(complete({ endDate: '31.12.2027' }), null).contractInfo.endDate).toBe('2027-12-31');
  });

  it('NO_BILLING drops the payment data, cycle and tariffs', () => {
    const body = buildCreatePayload(complete({ billingType: 'NO_BILLING', iban: 'DE02120300000000202051' }), null);
    expect(body).not.toHaveProperty('paymentMethod');
    expect(body).not.toHaveProperty('contractPaymentDetails');
    expect(body).not.toHaveProperty('billingCycle');
    expect(body.contractInfo).not.toHaveProperty('fixTariff');
  });

  it('BANK_TRANSFER drops the mandate reference', () => {
    const body = buildCreatePayload(complete({ paymentMethod: 'BANK_TRANSFER', iban: 'DE02120300000000202051' }), null);
    expect(body.contractPaymentDetails).toEqual({ contractIban: 'DE02120300000000202051' });
  });

  it('admin types: no location nor parking lots, RFID', () => {
    const body = buildCreatePayload(withUserType(complete({ rfidTags: 'T1' }), 'GLOBAL_ADMIN'), null);
    expect(body).not.toHaveProperty('locationId');
    expect(body.authType).toBe('RFID');
    expect(body.rfidTags).toEqual(['T1']);
  });

  it('the PDF travels as base64 with its name; the write has a scope of its own and keeps what was typed', () => {
    const write = createWrite(complete({ pdfName: 'vertrag.pdf' }), 'JVBERi0xLjc=', 'd1');
    expect(write).toMatchObject({ scope: 'contract-new:d1', kind: 'user.create', data: { draft: 'd1', name: 'Erika Muster' } });
    expect(write.data.values.pdfName).toBe('vertrag.pdf');
    expect(write.request).toMatchObject({ path: '/create-contract', method: 'POST' });
    expect((write.request.body as { contractInfo: object }).contractInfo).toMatchObject({
      contractPDF: 'vertrag.pdf',
      contractPdfInByteArrayForm: 'JVBERi0xLjc=',
    });
  });
});

describe('refusals of a creation (spec 2 §8)', () => {
  it('reads each code with its detail', () => {
    const rows = [{ field: 'rfidTag', value: 'T1', endCustomerId: '123-45678-901' }];
    expect(createRefusal({ code: 'ERR_RFID_ID_EXISTS', detail: rows })).toEqual({ kind: 'rfidExists', rows });
    expect(createRefusal({ code: 'DB_CLIENT_ERROR', detail: rows })).toEqual({ kind: 'serialInUse', rows });
    expect(createRefusal({ code: 'ERR_RFID_SERIAL_NOT_EXISTS', detail: { rfidSerialIds: ['S1'] } })).toEqual({
      kind: 'serialNotExists',
      serials: ['S1'],
    });
    expect(createRefusal({ code: 'DUPLICATED_EMAIL', detail: { endCustomerId: 'X1' } })).toEqual({
      kind: 'emailInUse',
      endCustomerId: 'X1',
    });
    expect(createRefusal({ code: 'DUPLICATED_END_CUSTOMER_ID', detail: { endCustomerId: 'X2' } })).toEqual({
      kind: 'endCustomerIdInUse',
      endCustomerId: 'X2',
    });
    expect(createRefusal({ code: 'SERVER_ERROR', detail: undefined })).toEqual({ kind: 'generic' });
    expect(createRefusal({ code: 'ERR_RFID_ID_EXISTS', detail: 'broken' })).toEqual({ kind: 'generic' });
  });
});

describe('the edit wizard (spec 2 §2, §4)', () => {
  const detail: ContractDetail = {
    contractKey: 'k-1',
    contractId: 'id-1',
    contractNumber: 'V-1',
    endCustomerId: 'EC1',
    endCustomerIdManuallyCreated: true,
    contractStatus: 'ACTIVE',
    contractStatusMapping: { enumName: 'ACTIVE', colourCode: '#0a0' },
    userType: 'REGULAR',
    firstName: 'Anna',
    lastName: 'Müller',
    email: 'anna@example.com',
    contractAddress: { careOf: null, street: 'Weg 1', zipCode: '20457', city: 'Hamburg', countryCode: 'DE' },
    cpoId: 'CPO1',
    cpoName: 'Hafen',
    createManualEndCustomerId: true,
    locationId: 'L1',
    locationName: 'Depot',
    parkingLotNumbers: ['P1'],
    authType: 'APP_AND_RFID',
    rfidType: 'TAG',
    rfidTags: ['T1', 'T2'],
    rfidSerialId: [],
    billingType: 'WITH_BILLING',
    billingCycle: 'MONTHLY',
    billingStatus: null,
    contractInfo: {
      contractPDF: 'v.pdf',
      startDate: '2026-01-01',
      endDate: null,
      fixTariff: 9.9,
      varTariff: 0.39,
      onboardingFee: 0,
      fixTariffPerChargingRequest: 0.5,
    },
    contractChangeTariff: null,
    pdfAvailable: true,
    paymentMethod: 'SEPA',
    contractPaymentDetails: { contractMandateReference: 'M1', contractIban: null },
    stripeSepaPaymentDetailsAreConfigured: false,
    erpSystemParameters: { debitAccountNr: '1200', costCenterNumber: null, vatId: '19' },
    companyName: 'Flotte Nord GmbH',
    customerVatId: 'DE136695976',
    buyerReference: null,
    authCode: '123456',
    version: 5,
  };

  it('prefills the form from the contract (dates dd.MM.yyyy, amounts with a decimal comma in German) without issues', () => {
    const v = valuesFromContract(detail, true);
    expect(v).toMatchObject({ startDate: '01.01.2026', endDate: '', varTariff: '0,39', rfidTags: 'T1, T2', mandateReference: 'M1' });
    expect(v).toMatchObject({ companyName: 'Flotte Nord GmbH', customerVatId: 'DE136695976', buyerReference: '', vatId: '19' });
    expect(valuesFromContract(detail, false).varTariff).toBe('0.39');
    // Two decimals always: 12,90 € reads '12,90', not '12,9'.
    const tariff = { ...detail, contractInfo: { ...detail.contractInfo, fixTariff: 12.9, onboardingFee: 5 } };
    expect(valuesFromContract(tariff, true)).toMatchObject({ fixTariff: '12,90', onboardingFee: '5,00' });
    expect(valuesFromContract(tariff, false).fixTariff).toBe('12.90');
    expect(userFormIssues(v, { manualIds: true })).toEqual({});
    expect(isLockedContract(detail)).toBe(true);
    expect(isLockedContract({ contractStatus: 'CREATED_SIGNED' })).toBe(false);
  });

  it('PUT /update-contract with the whole form, contractKey, authCode and the version; the stored PDF stays without a new one', () => {
    const write = editWrite(detail, 6, { ...valuesFromContract(detail, true), city: 'Bremen' }, null, 'd2');
    expect(write).toMatchObject({ scope: 'contract:k-1', kind: 'user.edit', data: { draft: 'd2' }, version: 6 });
    expect(write.request).toMatchObject({ path: '/update-contract', method: 'PUT' });
    const body = write.request.body as Record<string, unknown> & { contractInfo: object };
    expect(body).toMatchObject({ contractKey: 'k-1', authCode: '123456', version: 6, cpoId: 'CPO1', contractAddress: { city: 'Bremen' } });
    // The id is sent only when changed (a generated one has dashes the form would refuse).
    expect(body).not.toHaveProperty('endCustomerId');
    const generated = { ...detail, endCustomerId: '123-45678-901' };
    expect(userFormIssues(valuesFromContract(generated, true), { manualIds: true, currentEndCustomerId: '123-45678-901' })).toEqual({});
    expect(editWrite(generated, 6, { ...valuesFromContract(generated, true), endCustomerId: 'NEW1' }, null).request.body).toMatchObject({
      endCustomerId: 'NEW1',
    });
    expect(body.contractInfo).not.toHaveProperty('contractPdfInByteArrayForm');
    expect(editContractBodyChecked.safeParse(body).success).toBe(true);
  });
});

describe('a refused creation in the outbox, in both languages', () => {
  let de: TranslateFn;
  let en: TranslateFn;
  beforeAll(async () => {
    de = createTranslator('de', await loadSignedInMessages('de')).t;
    en = createTranslator('en', await loadSignedInMessages('en')).t;
  });
  it('names the owner, the id, the taken values; null (generic) otherwise', () => {
    const base = { message: 'x', status: 409 };
    expect(describeCreateRefusal({ ...base, code: 'DUPLICATED_EMAIL', detail: { endCustomerId: 'X1' } }, de)).toBe(
      'Die E-Mail-Adresse wird bereits vom Kunden X1 verwendet.',
    );
    expect(describeCreateRefusal({ ...base, code: 'DUPLICATED_END_CUSTOMER_ID', detail: { endCustomerId: 'X2' } }, en)).toBe(
      'The customer ID X2 is already taken.',
    );
    expect(
      describeCreateRefusal({ ...base, code: 'ERR_RFID_ID_EXISTS', detail: [{ field: 'rfidTag', value: 'T1', endCustomerId: 'E9' }] }, en),
    ).toBe('RFID already taken: T1 (E9)');
    expect(describeCreateRefusal({ ...base, code: 'SERVER_ERROR' }, de)).toBeNull();
  });
});

describe('a parking lot the location no longer has (issue 23)', () => {
  let de: TranslateFn;
  beforeAll(async () => {
    de = createTranslator('de', await loadSignedInMessages('de')).t;
  });
  it('is named in the wizard, and taking it out (or choosing a lot there is) clears it', () => {
    expect(issues({ parkingLotNumbers: ['P1', 'H000'] }, { ...ctx, knownLots: ['H000', 'P2'] }).parkingLotNumbers).toBe(
      'unknownParkingLot',
    );
    expect(unknownParkingLots(['P1', 'H000'], ['H000', 'P2'])).toEqual(['P1']);
    expect(issues({ parkingLotNumbers: ['H000'] }, { ...ctx, knownLots: ['H000', 'P2'] })).toEqual({});
    // Locations not known (offline, not kept): the server decides.
    expect(issues({ parkingLotNumbers: ['P1'] }, { ...ctx, knownLots: null })).toEqual({});
  });
  it("a refusal by the server names the lots in the user's language", () => {
    const error = { code: 'UNKNOWN_PARKING_LOT', message: 'x', status: 409, detail: { locationId: 'L1', parkingLots: ['P1'] } };
    expect(createRefusal(error)).toEqual({ kind: 'unknownParkingLots', lots: ['P1'] });
    expect(describeCreateRefusal(error, de)).toBe(
      'Diese Parkplätze gibt es am Standort nicht mehr: P1. Bitte entfernen oder durch einen anderen ersetzen.',
    );
  });
});

describe("an end customer's IBAN (issue 23)", () => {
  it('is checked as the operator wizard checks it (ibantools), spaces and case allowed', () => {
    const sepa = { paymentMethod: 'SEPA' as const, mandateReference: 'M1' };
    expect(issues({ ...sepa, iban: 'DE89 3704 0044 0532 0130 01' }).iban).toBe('invalidIban');
    expect(issues({ ...sepa, iban: 'DE89' }).iban).toBe('invalidIban');
    expect(issues({ ...sepa, iban: 'de89 3704 0044 0532 0130 00' })).toEqual({});
    expect(issues({ ...sepa, iban: '' })).toEqual({});
  });
  it('is shown masked: country, check digits and the last four', () => {
    expect(maskIban('de89 3704 0044 0532 0130 00')).toBe('DE89 •••• 3000');
    expect(maskIban(null)).toBeNull();
    expect(maskIban('  ')).toBeNull();
  });
});
