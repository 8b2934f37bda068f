import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { erpExportErrorCodes, sepaDebitErrorCodes } from '../../../../contract/downloads';
import { visibleTabs } from '../download-center-page';
import { chosenLocations } from './download-fields';
import { detailLines, missingInfoKey } from './download-runner';

const de: unknown = JSON.parse(readFileSync('locales/de.json', 'utf8'));
const lookup = (key: string): unknown => key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], de);

describe('missing info (spec 3 §8)', () => {
  it('has a German text for every ERP code; XML_GENERATION_ERROR and UNKNOWN_ERROR are unknown error 1, others 2', () => {
    for (const code of erpExportErrorCodes) expect(typeof lookup(missingInfoKey(code)), code).toBe('string');
    for (const code of sepaDebitErrorCodes) expect(typeof lookup(missingInfoKey(code)), code).toBe('string');
    expect(missingInfoKey('SEPA_MANDATE_MISSING')).toBe('downloads.missingInfo.codes.SEPA_MANDATE_MISSING');
    expect(missingInfoKey('XML_GENERATION_ERROR')).toBe('downloads.missingInfo.unknown1');
    expect(missingInfoKey('UNKNOWN_ERROR')).toBe('downloads.missingInfo.unknown1');
    expect(missingInfoKey('SOMETHING_NEW')).toBe('downloads.missingInfo.unknown2');
    expect(missingInfoKey('VAT_ID_MISSING')).toBe('downloads.missingInfo.codes.VAT_ID_MISSING');
    expect(missingInfoKey('ERP_VALUE_INVALID')).toBe('downloads.missingInfo.codes.ERP_VALUE_INVALID');
  });

  it('names what is missing from the detail', () => {
    const t = (key: string) => String(lookup(key));
    expect(detailLines({ cpoId: 'CPO1', missing: 'clientNumber' }, t)).toEqual(['Fehlender Wert: Mandantennummer', 'Betreiber: CPO1']);
    // A Stripe method's ERP value without its clearing account (issue 35).
    expect(detailLines({ missing: 'clearingAccountNr', paymentMethod: 'STRIPE_CARD' }, t)[0]).toBe('Fehlender Wert: Geldtransitkonto');
    expect(detailLines({ endCustomerId: 'E7', endCustomerIds: ['E7', 'E8'] }, t)).toEqual(['Endkunde: E7']);
    expect(detailLines({ invalid: 'netLedgerAccountNr', value: 'ER-8400/A', expected: '4 to 8 digits', cpoId: 'CPO1' }, t)).toEqual([
      'Ungültiger Wert: Erlöskonto (netto)',
      'Eingetragen: ER-8400/A',
      'Betreiber: CPO1',
    ]);
    expect(detailLines(undefined, t)).toEqual([]);
    expect(detailLines({ contractNumbers: ['V-1', 'V-2'], billNumbers: ['RE-1'], count: 2 }, t)).toEqual([
      'Verträge: V-1, V-2',
      'Rechnungen: RE-1',
    ]);
  });
});

describe('tabs and locations', () => {
  it('shows each role its tabs (spec 3 §6)', () => {
    expect(visibleTabs({ isAdmin: false, customerType: undefined })).toEqual(['history']);
    expect(visibleTabs({ isAdmin: false, customerType: 'Operator' })).toEqual(['history', 'invoices']);
    expect(visibleTabs({ isAdmin: false, customerType: 'Partner' })).toEqual(['history', 'invoices', 'erp']);
    expect(visibleTabs({ isAdmin: true, customerType: 'Operator' })).toEqual(['history', 'invoices', 'erp']);
  });

  it('drops ids the caller no longer has and keeps all only when there are locations', () => {
    const options = [{ id: 'A' }, { id: 'B' }];
    expect(chosenLocations(['A', 'Z'], options)).toEqual(['A']);
    expect(chosenLocations(['all'], options)).toEqual(['all']);
    expect(chosenLocations(['all'], [])).toEqual([]);
  });
});
