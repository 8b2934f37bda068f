import { beforeAll, describe, expect, it } from 'vitest';
import type { OperatorDetail } from '../../../contract/operators';
import { createTranslator } from '../../i18n/i18n-provider';
import { loadSignedInMessages } from '../../i18n/messages';
import type { TranslateFn } from '../../i18n/i18n-context';
import type { OutboxWrite } from '../../offline/outbox-write';
import { describeFailure, formPath, queriesChangedBy, writeKindName, writeLabel } from '../../offline/write-kinds';
import { operatorKeys } from './api/operator-keys';
import { storedWrite } from '../../offline/test-writes';
import { versionToSend } from '../../offline/versioned-writes';
import { draftValues, operatorScope, registerOperatorWrites } from './api/operator-writes';
import { addressWrite, billingWrite, erpWrite } from './operator-edits';
import { emptyBilling } from './operator-billing-form';

let de: TranslateFn;
let en: TranslateFn;

beforeAll(async () => {
  registerOperatorWrites();
  de = createTranslator('de', await loadSignedInMessages('de')).t;
  en = createTranslator('en', await loadSignedInMessages('en')).t;
});

const operator = { cpoId: 'CPO7', cpoName: 'Hafen GmbH', version: 3 };
const address = { cpoName: 'Hafen KG', street: 'Weg 1', careOf: '', zipCode: '20457', city: 'Hamburg' };
const erp = { paymentMethod: 'SEPA', clientNumber: '4711', netLedgerAccountNr: '8400', taxLedgerAccountNr: '', clearingAccountNr: '' };

const stored = storedWrite;

describe('operator edits as outbox writes', () => {
  it('go to their workflow or the booking service, scoped to the operator, with the version the user saw', () => {
    const a = addressWrite(operator, 3, address);
    expect(a).toMatchObject({
      scope: 'operator:CPO7',
      kind: 'operator.address',
      data: { cpoId: 'CPO7', values: address },
      version: 3,
      request: { service: 'bff', path: '/cpos/update-operator-information', method: 'PUT' },
    });
    expect(a.request.body).toMatchObject({ workFlow: 'AddressInfo', cpoName: 'Hafen KG', version: 3 });
    expect(billingWrite(operator, 4, emptyBilling()).request.body).toMatchObject({ workFlow: 'BillingInfo', version: 4 });
    expect(erpWrite(operator, 5, erp).request).toMatchObject({
      service: 'bookingService',
      path: '/bookings/update-erp-information',
      body: { cpoId: 'CPO7', paymentMethod: 'SEPA', version: 5 },
    });
    expect(a.data.draft).not.toBe(addressWrite(operator, 3, address).data.draft);
  });

  it("carry one version more per write of the operator still queued or just sent, not for refused ones or other operators'", () => {
    const queued = stored(addressWrite(operator, 3, address));
    const sent = stored(erpWrite(operator, 4, erp), { state: 'done' });
    const refused = stored(billingWrite(operator, 7, emptyBilling()), { state: 'failed' });
    const other = stored(addressWrite({ ...operator, cpoId: 'CPO8' }, 9, address));
    const toSend = (version: number | undefined, writes: OutboxWrite[]) => versionToSend(version, operatorScope('CPO7'), writes);
    expect(toSend(3, [])).toBe(3);
    expect(toSend(3, [queued])).toBe(4);
    expect(toSend(3, [queued, sent, refused, other])).toBe(5);
    // The page already shows the version after them: nothing to add.
    expect(toSend(6, [queued, sent])).toBe(6);
    expect(toSend(undefined, [queued])).toBeUndefined();
    // An operator without a version sends its writes without one.
    expect(addressWrite(operator, undefined, address).version).toBeUndefined();
  });

  it('find what the user entered for "Erneut bearbeiten" by the write\'s draft', () => {
    const input = addressWrite(operator, 3, address);
    const w = stored(input);
    expect(draftValues([w], 'CPO7', 'address', input.data.draft)).toEqual(address);
    expect(draftValues([w], 'CPO7', 'billing', input.data.draft)).toBeNull();
    expect(draftValues([w], 'CPO8', 'address', input.data.draft)).toBeNull();
    expect(draftValues([w], 'CPO7', 'address', undefined)).toBeNull();
  });
});

describe('operator write kinds', () => {
  it('label a write from its data in the language of the moment', () => {
    const a = stored(addressWrite(operator, 3, address));
    const e = stored(erpWrite(operator, 3, erp));
    expect(writeLabel(a, de)).toBe('Betreiber CPO7 · Hafen KG');
    expect(writeLabel(e, de)).toBe('ERP-Daten von CPO7 · SEPA-Lastschrift');
    expect(writeLabel(e, en)).toBe('ERP info of CPO7 · SEPA direct debit');
    expect(writeKindName(stored(billingWrite(operator, 3, emptyBilling())), de)).toBe('Rechnungsvorlage bearbeiten');
  });

  it('lead back to the operator page with the edit open and the write named', () => {
    const w = stored(billingWrite(operator, 3, emptyBilling()));
    const draft = (w.data as { draft: string }).draft;
    expect(formPath(w)).toBe(`/betreiber/CPO7?edit=billing&draft=${draft}`);
  });

  it('refresh the page, and for a new name or address the lists, the selects and the location pages', () => {
    const keys = (w: OutboxWrite) =>
      queriesChangedBy(w).map((target) => (Array.isArray(target) ? target : (target as { queryKey: unknown }).queryKey));
    expect(keys(stored(addressWrite(operator, 3, address)))).toEqual([operatorKeys.detail('CPO7'), operatorKeys.lists()]);
    expect(keys(stored(erpWrite(operator, 3, erp)))).toEqual([operatorKeys.detail('CPO7')]);
  });

  it('say what a colleague changed meanwhile on a conflict', () => {
    const current: OperatorDetail = {
      cpoId: 'CPO7',
      cpoName: 'Hafen AG',
      cpoAddress: { street: 'Kai 2', careOf: 'Empfang', zipCode: '20459', city: 'Hamburg', countryCode: 'DE' },
      customerId: 'K1',
      customerType: 'Operator',
      createManualEndCustomerId: false,
      contactPersonDetails: { contactPersonName: 'Max' },
      billingType: 'SEPA',
      isChargingHistoryIncluded: true,
      cpoPaymentDetails: { cpoPaymentPreference: ['SEPA', 'BANK_TRANSFER'], moneyCollectionGapInDays: 7 },
      billingTemplateHeader: { lineOne: 'Hafen AG' },
      billingTemplateFooter: {},
      erpValues: [{ cpoId: 'CPO7', clientNumber: '1', netLedgerAccountNr: '2', paymentMethod: 'BANK_TRANSFER' }],
      version: 5,
    };
    const lastError = { code: 'CONFLICT', message: 'stale', status: 409, detail: { cpoId: 'CPO7', currentVersion: 5, current } };
    expect(describeFailure(stored(addressWrite(operator, 3, address), { state: 'failed', lastError }), de)).toBe(
      'Inzwischen geändert (Version 5): Hafen AG, Kai 2, c/o Empfang, 20459 Hamburg.',
    );
    expect(describeFailure(stored(billingWrite(operator, 3, emptyBilling()), { state: 'failed', lastError }), de)).toBe(
      'Inzwischen geändert (Version 5): Ansprechpartner Max, Zahlungsarten SEPA-Lastschrift, Überweisung, Kopfzeile 1 „Hafen AG“.',
    );
    expect(describeFailure(stored(erpWrite(operator, 3, erp), { state: 'failed', lastError }), en)).toBe(
      'Changed meanwhile (version 5): Bank transfer: 1 / 2.',
    );
    // Any other refusal reads as the server's message.
    const refused = { code: 'VALIDATION_ERROR', message: 'bad', status: 400 };
    expect(describeFailure(stored(erpWrite(operator, 3, erp), { state: 'failed', lastError: refused }), de)).toBeNull();
  });

  it('names the contracts that pay by SEPA when the payment details lack a creditor id (issue 35)', () => {
    const lastError = {
      code: 'SEPA_CREDITOR_ID_REQUIRED',
      message: 'needs a creditor id',
      status: 422,
      detail: { cpoId: 'CPO7', contractNumbers: ['V-2025-000001', 'V-2025-000007'], count: 3 },
    };
    const write = stored(billingWrite(operator, 3, emptyBilling()), { state: 'failed', lastError });
    expect(describeFailure(write, de)).toBe(
      'Ohne gültige Gläubiger-ID kann der Betreiber nicht per SEPA-Lastschrift einziehen, doch 3 Verträge zahlen so: V-2025-000001, V-2025-000007, …. Bitte tragen Sie die Gläubiger-ID ein oder stellen Sie diese Verträge zuerst auf eine andere Zahlungsart um.',
    );
    expect(
      describeFailure(
        stored(billingWrite(operator, 3, emptyBilling()), {
          state: 'failed',
          lastError: { ...lastError, detail: { contractNumbers: ['V-1'], count: 1 } },
        }),
        en,
      ),
    ).toBe(
      'Without a valid SEPA creditor id the operator cannot collect by direct debit, yet 1 contract pays that way: V-1. Please enter the creditor id, or change these contracts to another payment method first.',
    );
  });
});
