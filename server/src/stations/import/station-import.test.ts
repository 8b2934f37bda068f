import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateColumns } from '../../../../contract/station-import';
import { createHarness, type Harness } from '../../test/harness';
import { csvTemplate } from './template';

let h: Harness;
let tokens: Record<'admin' | 'operator', string>;

beforeAll(async () => {
  h = await createHarness();
  tokens = { admin: (await h.login('admin')).access_token, operator: (await h.login('operator')).access_token };
});
afterAll(() => h?.close());

const getTemplate = (format: string, token = tokens.admin) =>
  h.app.request(`/bff/connectors/upload/template?format=${format}`, { headers: { authorization: `Bearer ${token}` } });

describe('templates', () => {
  it('CSV: the header row with the configured separator, BOM and CRLF', async () => {
    const res = await getTemplate('csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('Ladestationen-Vorlage.csv');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text).toBe(`\uFEFF${templateColumns.join(';')}\r\n`);
    expect(csvTemplate(',')).toBe(`\uFEFF${templateColumns.join(',')}\r\n`);
  });

  it('XLSX: the header row on the first sheet, the wallbox models on the second', async () => {
    const res = await getTemplate('xlsx');
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const [stations, models] = book.worksheets;
    expect((stations!.getRow(1).values as unknown[]).slice(1)).toEqual(templateColumns);
    expect(models!.rowCount).toBeGreaterThan(1);
    expect(models!.getRow(2).getCell(1).value).toBe('ABL eMH1');
  });

  it('admins only; an unknown format is 400', async () => {
    expect((await getTemplate('csv', tokens.operator)).status).toBe(403);
    expect((await getTemplate('pdf')).status).toBe(400);
  });
});
