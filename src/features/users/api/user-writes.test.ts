import { beforeAll, describe, expect, it } from 'vitest';
import type { ContractDetail } from '../../../../contract/contracts';
import { createTranslator } from '../../../i18n/i18n-provider';
import type { TranslateFn } from '../../../i18n/i18n-context';
import { loadSignedInMessages } from '../../../i18n/messages';
import type { NewWrite, OutboxError } from '../../../offline/outbox-write';
import { storedWrite } from '../../../offline/test-writes';
import { describeFailure, formPath, queriesChangedBy, writeKindName, writeLabel } from '../../../offline/write-kinds';
import { deleteWrite, paymentStatusWrite, tariffWrite, terminateWrite } from '../user-rules';
import { userKeys } from './user-keys';
import { createRefusal, describeCreateRefusal, registerUserWrites } from './user-writes';

let de: TranslateFn;
let en: TranslateFn;
beforeAll(async () => {
  registerUserWrites();
  de = createTranslator('de', await loadSignedInMessages('de')).t;
  en = createTranslator('en', await loadSignedInMessages('en')).t;
});

const stored = storedWrite;
const failed = (input: NewWrite, lastError: OutboxError) => stored(input, { state: 'failed', lastError });

const current: ContractDetail = {
  contractKey: 'k-1',
  contractId: 'id-1',
  contractNumber: 'V-1',
  endCustomerId: 'EC1',
  endCustomerIdManuallyCreated: true,
  contractStatus: 'EXPIRED',
  contractStatusMapping: { enumName: 'EXPIRED', colourCode: '#888' },
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
  authType: 'APP',
  rfidType: null,
  rfidTags: [],
  rfidSerialId: [],
  billingType: 'WITH_BILLING',
  billingCycle: 'MONTHLY',
  billingStatus: null,
  contractInfo: {
    contractPDF: null,
    startDate: '2026-01-01',
    endDate: '2026-11-24',
    fixTariff: 9.9,
    varTariff: 0.39,
    onboardingFee: 0,
    fixTariffPerChargingRequest: 0,
  },
  contractChangeTariff: null,
  pdfAvailable: false,
  paymentMethod: 'BANK_TRANSFER',
  contractPaymentDetails: { contractMandateReference: null, contractIban: null },
  stripeSepaPaymentDetailsAreConfigured: false,
  erpSystemParameters: { debitAccountNr: null, costCenterNumber: null, vatId: null },
  companyName: null,
  customerVatId: null,
  buyerReference: null,
  authCode: null,
  version: 5,
};
const contract = { contractKey: 'k-1', endCustomerId: 'EC1', firstName: 'Anna', lastName: 'Müller' };
const values = {
  fixTariff: '10',
  varTariff: '0,35',
  onboardingFee: '',
  fixTariffPerChargingRequest: '',
  newTariffDate: '2026-12-01',
  newTariffCancellationDate: '2027-11-30',
};

describe('users write kinds', () => {
  it('labels each write in the language of the moment', () => {
    expect(writeKindName(stored(terminateWrite(contract, 2)), de)).toBe('Nutzer kündigen');
    expect(writeLabel(stored(terminateWrite(contract, 2)), de)).toBe('EC1 · Anna Müller');
    expect(writeLabel(stored(tariffWrite(contract, 2, values)), en)).toBe('EC1 · Anna Müller · from 01.12.2026');
    const rows = [{ contractKey: 'k-1', endCustomerId: 'EC1', name: 'Anna', billNumber: 'R-1' }] as never;
    expect(writeLabel(stored(paymentStatusWrite(rows, 'PAID')), de)).toBe('1 Nutzer · Bezahlt');
  });

  it("reads a refusal in the spec's words: the contract as a colleague left it, a state that no longer allows it, bills that block a delete", () => {
    const conflict: OutboxError = {
      code: 'CONFLICT',
      message: 'stale',
      status: 409,
      detail: { contractKey: 'k-1', currentVersion: 5, current },
    };
    expect(describeFailure(failed(terminateWrite(contract, 2), conflict), de)).toBe(
      'Der Vertrag wurde inzwischen geändert: Anna Müller, Status Abgelaufen (Version 5).',
    );
    // An answer without the contract falls back to the server's message.
    expect(describeFailure(failed(terminateWrite(contract, 2), { ...conflict, detail: { current: {} } }), de)).toBeNull();
    const inconsistent: OutboxError = { code: 'CONTRACT_STATUS_DATA_INCONSISTENCY', message: 'not active', status: 409 };
    expect(describeFailure(failed(terminateWrite(contract, 2), inconsistent), de)).toBe(
      'Der Vertrag erlaubt diese Aktion in seinem jetzigen Status nicht mehr.',
    );
    expect(describeFailure(failed(deleteWrite(contract), inconsistent), de)).toBe(
      'Der Vertrag hat Rechnungen und kann nicht gelöscht werden; kündigen Sie ihn stattdessen.',
    );
  });

  it('leads back to the tariff wizard with what was entered, and refreshes the detail, the lists and the location tabs', () => {
    const w = stored(tariffWrite(contract, 2, values));
    expect(formPath(w)).toBe(`/nutzer/k-1?edit=tariff&draft=${(w.data as { draft: string }).draft}`);
    const targets = queriesChangedBy(w).map((t) => ('queryKey' in t ? t.queryKey : t));
    expect(targets).toEqual([userKeys.detail('k-1'), userKeys.lists()]);
    // A location's users tab is one of the lists.
    const tab = userKeys.locationList('L1', { endCustomerId: '', name: '', rfId: '', userTypes: [], page: 0, size: 10 });
    expect(tab.slice(0, userKeys.lists().length)).toEqual(userKeys.lists());
  });

  it('never refetches a deleted contract (its 404 was a console error on the happy path), only the lists it left', () => {
    const targets = queriesChangedBy(stored(deleteWrite(contract))).map((t) => ('queryKey' in t ? t.queryKey : t));
    expect(targets).not.toContainEqual(userKeys.detail('k-1'));
    expect(targets).toContainEqual(userKeys.lists());
  });
});

describe('a refused creation (issue 22)', () => {
  const refusal = (code: string, detail?: unknown) => ({ code, detail, status: 409, message: '' }) as unknown as OutboxError;

  it("names the holder of an e-mail only when the server names it (another operator's customer stays unnamed)", () => {
    expect(createRefusal(refusal('DUPLICATED_EMAIL', { endCustomerId: 'EC7' }))).toEqual({ kind: 'emailInUse', endCustomerId: 'EC7' });
    expect(createRefusal(refusal('DUPLICATED_EMAIL', { endCustomerId: null }))).toEqual({ kind: 'emailTaken' });
    expect(describeCreateRefusal(refusal('DUPLICATED_EMAIL', { endCustomerId: null }), de)).toBe(
      'Die E-Mail-Adresse ist bereits vergeben.',
    );
    expect(describeCreateRefusal(refusal('DUPLICATED_EMAIL', { endCustomerId: null }), en)).toBe('The email address is already taken.');
  });

  it("says that a SEPA direct debit needs the operator's creditor id, in both languages (issue 35)", () => {
    const r = refusal('SEPA_CREDITOR_ID_REQUIRED', { cpoId: 'CPO1', contractNumbers: [], count: 0 });
    expect(createRefusal(r)).toEqual({ kind: 'sepaNeedsCreditorId' });
    expect(describeCreateRefusal(r, de)).toMatch(/^Der Betreiber hat keine Gläubiger-ID\./);
    expect(describeCreateRefusal(r, en)).toMatch(/^The operator has no creditor ID/);
  });

  it('says why a contract PDF was refused, in both languages', () => {
    expect(describeCreateRefusal(refusal('UPLOAD_NOT_READABLE'), de)).toMatch(/konnte nicht gelesen werden/);
    expect(describeCreateRefusal(refusal('UPLOAD_ACTIVE_CONTENT'), en)).toMatch(/executable content/);
  });
});
