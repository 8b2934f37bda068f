import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import { downloadParams, fallbackName, runDownload } from './download-requests';
import { downloadSearch } from './download-search';

const apiRequest = vi.fn();
vi.mock('../../../api/client', () => ({ apiRequest: (...args: unknown[]) => apiRequest(...args) }));

const q = { locations: ['L1', 'L2'], startDate: '2026-01-01', endDate: '2026-01-31' };
const run = (kind: Parameters<typeof runDownload>[0]) => runDownload(kind, q, () => {}, new AbortController().signal);
const fail = (status: number, errorCodeResponse: string, errorDetail?: unknown) =>
  apiRequest.mockRejectedValueOnce(new ApiError({ status, errorCodeResponse, errorDetail }));

beforeEach(() => apiRequest.mockReset());

describe('downloadParams', () => {
  it('sends locations as a comma list, or all, with each file its own fields', () => {
    expect(downloadParams('history', { ...q, chargingType: 'AD_HOC' })).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      locationIds: 'L1,L2',
      exportType: 'CSV',
      chargingType: 'AD_HOC',
    });
    expect(downloadParams('invoices', { ...q, locations: ['all'] })).toMatchObject({ locationIds: 'all', exportType: 'CSV' });
    expect(downloadParams('datev', { ...q, cpoId: 'CPO1', paymentMethod: 'BANK_TRANSFER' })).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      locationIds: 'L1,L2',
      cpoId: 'CPO1',
      paymentMethod: 'BANK_TRANSFER',
    });
  });

  it('sends the SEPA file only its operator and collection date', () => {
    expect(downloadParams('sepa', { ...q, cpoId: 'CPO1', collectionDate: '2026-04-02' })).toEqual({
      cpoId: 'CPO1',
      collectionDate: '2026-04-02',
    });
  });

  it('names a file the server left unnamed as the spec does', () => {
    expect(fallbackName('invoices', '2026-03-04')).toBe('StandardBills20260304.csv');
    expect(fallbackName('erpXml', '2026-03-04')).toBe('ERPDaten_20260304.xml');
  });
});

describe('runDownload', () => {
  it('gives the file under the server name, and 204 as no data', async () => {
    apiRequest.mockResolvedValueOnce({ blob: new Blob(['a;b']), filename: 'x.csv', status: 200, contentType: 'text/csv' });
    await expect(run('history')).resolves.toMatchObject({ kind: 'saved', filename: 'x.csv' });
    apiRequest.mockResolvedValueOnce({ blob: new Blob([]), filename: null, status: 204, contentType: null });
    await expect(run('erpXml')).resolves.toEqual({ kind: 'noData' });
  });

  it('reads an ERP code as missing info, even when it is a 404; other 404s as not found', async () => {
    fail(404, 'BILLING_NOT_FOUND', { paymentMethod: 'SEPA' });
    await expect(run('erpXml')).resolves.toEqual({ kind: 'missingInfo', code: 'BILLING_NOT_FOUND', detail: { paymentMethod: 'SEPA' } });
    fail(404, 'LOCATION_NOT_FOUND');
    await expect(run('datev')).resolves.toEqual({ kind: 'notFound' });
    fail(404, 'LOCATION_NOT_FOUND');
    await expect(run('history')).resolves.toEqual({ kind: 'notFound' });
    fail(500, 'INTERNAL_ERROR');
    await expect(run('invoices')).resolves.toEqual({ kind: 'failed' });
  });

  it("reads the SEPA file's codes as missing info naming the contracts; a foreign operator as not found", async () => {
    const detail = { contractNumbers: ['V-1'], billNumbers: ['RE-1'], count: 1 };
    fail(422, 'SEPA_IBAN_INVALID', detail);
    await expect(run('sepa')).resolves.toEqual({ kind: 'missingInfo', code: 'SEPA_IBAN_INVALID', detail });
    fail(404, 'OPERATOR_NOT_FOUND', { cpoId: 'X' });
    await expect(run('sepa')).resolves.toEqual({ kind: 'missingInfo', code: 'OPERATOR_NOT_FOUND', detail: { cpoId: 'X' } });
    fail(404, 'LOCATION_NOT_FOUND');
    await expect(run('sepa')).resolves.toEqual({ kind: 'notFound' });
  });
});

describe('downloadSearch', () => {
  it('keeps each tab its filters and falls back on broken values', () => {
    const s = downloadSearch({ tab: 'erp', cpo: 'CPO1', eLoc: ['B', 'A'], pay: 'CASH', hType: 'AD_HOC', hFrom: '1.1.2026' } as never);
    expect(s).toMatchObject({ tab: 'erp', cpo: 'CPO1', eLoc: ['A', 'B'], pay: 'SEPA', hType: 'AD_HOC', hFrom: '' });
    expect(downloadSearch({ tab: 'nope' } as never).tab).toBe('history');
    expect(downloadSearch({ sCpo: 'CPO1', sDay: '2026-04-02' } as never)).toMatchObject({ sCpo: 'CPO1', sDay: '2026-04-02' });
    expect(downloadSearch({ sDay: '02.04.2026' } as never).sDay).toBe('');
  });
});
