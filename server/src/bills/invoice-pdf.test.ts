import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { computeBill } from './compute';
import { ibansIn, invoicePdf, type InvoiceDocument } from './invoice-pdf';

const dir = mkdtempSync(path.join(os.tmpdir(), 'invoice-pdf-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The PDF's text as poppler's pdftotext reads it (layout kept), and its page count. */
async function readBack(inv: InvoiceDocument): Promise<{ text: string; pages: string[] }> {
  const file = path.join(dir, `${inv.billNumber}-${inv.history?.length ?? 0}.pdf`);
  writeFileSync(file, await buffer(invoicePdf(inv)));
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return { text, pages: text.split('\f').filter((p) => p.trim() !== '') };
}

const figures = computeBill({
  start: '2026-10-01',
  end: '2026-10-31',
  withFixedTariff: true,
  onboardingFee: '25.00',
  tariffs: [{ from: '2020-01-01', fixMonthly: '9.90', perKwh: '0.3900', perRequest: '0.50' }],
  requests: Array.from({ length: 5 }, (_, i) => ({ day: `2026-10-0${i + 1}`, energyKwh: '12.345' })),
});

const invoice: InvoiceDocument = {
  issuer: { name: 'Stadtwerke Süd GmbH', street: 'Hauptstraße 12', zipCode: '10115', city: 'Berlin', vatId: 'DE123456789' },
  headerLines: ['Stadtwerke Süd GmbH', 'Energie für die Region', 'Telefon 030 1234567'],
  footerLines: ['Sitz Berlin · Amtsgericht Charlottenburg HRB 12345', 'Geschäftsführung: Jörg Müller'],
  contact: { name: 'Sabine Weiß', position: 'Kundenservice', phone: '030 1234567', email: 'service@sw-sued.example' },
  recipient: { name: 'Jürgen Größe', street: 'Lindenstraße 5', zipCode: '80331', city: 'München' },
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
  payment: { kind: 'BANK_TRANSFER', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', bankName: 'Commerzbank', dueDate: '2026-11-16' },
};

describe('the invoice PDF', () => {
  it('holds the template, the recipient, the § 14 UStG fields and the totals in German format', async () => {
    const { text, pages } = await readBack(invoice);
    expect(pages).toHaveLength(1);
    for (const expected of [
      // template and contact
      'Energie für die Region',
      'Telefon 030 1234567',
      'Amtsgericht Charlottenburg HRB 12345',
      'Geschäftsführung: Jörg Müller',
      'Ihr Ansprechpartner: Sabine Weiß',
      // § 14 UStG: issuer and recipient, VAT id, date, number, period, net, rate, tax, gross
      'Stadtwerke Süd GmbH · Hauptstraße 12 · 10115 Berlin',
      'Jürgen Größe',
      '80331 München',
      'DE123456789',
      '02.11.2026',
      'RE-2026-CPO1-000042',
      '01.10.2026 – 31.10.2026',
      // 9,90 + 61,725 kWh × 0,39 = 24,07 + 5 × 0,50 + 25,00 = 61,47; 19 % = 11,68; 73,15
      '61,725 kWh',
      '24,07 €',
      '61,47 €',
      'zzgl. 19 % Umsatzsteuer',
      '11,68 €',
      '73,15 €',
      'bis zum 16.11.2026',
      'IBAN DE89 3704 0044 0532 0130 00 (BIC COBADEFFXXX, Commerzbank)',
      'Seite 1 von 1',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('says the SEPA collection with creditor id and mandate reference', async () => {
    const { text } = await readBack({
      ...invoice,
      billNumber: 'RE-2026-CPO1-000043',
      payment: {
        kind: 'SEPA',
        creditorId: 'DE98ZZZ09999999999',
        mandateReference: 'MRF-43',
        maskedIban: 'DE89 …3000',
        collectionDate: '2026-11-20',
      },
    });
    expect(text).toContain('am 20.11.2026 per SEPA-Lastschrift');
    expect(text).toContain('DE98ZZZ09999999999');
    expect(text).toContain('MRF-43');
  });

  it('lists a history of 300 charging requests over pages, the table header on each', async () => {
    const history = Array.from({ length: 300 }, (_, i) => ({
      start: new Date(Date.UTC(2026, 9, 1 + (i % 30), 7, 15)),
      end: new Date(Date.UTC(2026, 9, 1 + (i % 30), 9, 40)),
      place: `Parkhaus Mitte · P${(i % 9) + 1}`,
      energyKwh: '12.345',
      costCents: 531n,
    }));
    const { text, pages } = await readBack({ ...invoice, history });
    expect(pages.length).toBeGreaterThanOrEqual(4);
    const proof = pages.slice(1);
    for (const page of proof) {
      expect(page).toContain('Nachweis der Ladevorgänge');
      expect(page).toMatch(/Nr\.\s+Beginn\s+Ende\s+Ladepunkt\s+Energie\s+Betrag netto/);
    }
    expect(pages.at(-1)).toContain(`Seite ${pages.length} von ${pages.length}`);
    // Every request once, in Berlin time (07:15 UTC is 09:15 in summer, 08:15 after 25 October).
    for (let n = 1; n <= 300; n++) expect(text).toMatch(new RegExp(`^\\s*${n}\\s+\\d\\d\\.10\\.2026 0[89]:15`, 'm'));
    expect(text).toContain('01.10.2026 09:15');
    expect(text).toContain('30.10.2026 08:15');
    // The sum under the table: 300 × 12,345 kWh and 300 × 5,31 €.
    expect(pages.at(-1)).toMatch(/Summe\s+300 Ladevorgänge\s+3\.703,500 kWh\s+1\.593,00 €/);
  });

  it('finds the IBANs a template line names by their check digits, not a creditor id or a VAT id', () => {
    expect(ibansIn('Commerzbank · IBAN DE89 3704 0044 0532 0130 00 · BIC COBADEFFXXX')).toEqual(['DE89370400440532013000']);
    expect(ibansIn('Gläubiger-ID DE98ZZZ09999999999 · USt-IdNr. DE123456789 · HRB 12345')).toEqual([]);
    // One digit off: the check digits no longer fit.
    expect(ibansIn('IBAN DE89370400440532013001')).toEqual([]);
  });
});
