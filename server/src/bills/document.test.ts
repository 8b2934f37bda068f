import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bills } from '../db/schema/bookings';
import { contracts, files } from '../db/schema/contracts';
import { operators } from '../db/schema/operators';
import { billState, contractOf, insertTestBill } from '../test/bill-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { fromSnapshot, HISTORY_BATCH, loadInvoiceDocument, maskIban, toSnapshot } from './document';
import { billPdf } from './pdf-file';

let h: Harness;
let cpoId: string;
let contractKey: string;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bill-document-'));

beforeAll(async () => {
  h = await createHarness();
  const [op] = await h.db.select({ cpoId: operators.cpoId }).from(operators).limit(1);
  cpoId = op.cpoId;
  contractKey = await contractOf(h.db, cpoId);
  await h.db
    .update(operators)
    .set({
      cpoName: 'Stadtwerke Süd GmbH',
      headerLine1: 'Stadtwerke Süd GmbH',
      headerLine2: 'Energie für die Region',
      headerLine3: null,
      headerLine4: '  ',
      footerLine1: 'Sitz Berlin · HRB 12345',
      footerLine2: null,
      footerLine3: null,
      footerLine4: null,
      contactPersonName: 'Sabine Weiß',
      vatId: 'DE123456789',
      taxNumber: null,
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      creditorId: 'DE98ZZZ09999999999',
      moneyCollectionGapInDays: 14,
      isChargingHistoryIncluded: true,
    })
    .where(eq(operators.cpoId, cpoId));
  await h.db
    .update(contracts)
    .set({
      street: 'Lindenstraße 5',
      zipCode: '80331',
      city: 'München',
      contractMandateReference: 'MR-4711',
      contractIban: 'DE02120300000000202051',
    })
    .where(eq(contracts.contractKey, contractKey));
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await h?.close();
});

const pdfText = (bytes: Buffer, name: string) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

describe("a bill's invoice document", () => {
  it('holds the bill, its lines, the template, the recipient and the history of the period', async () => {
    const bill = await insertTestBill(h.db, contractKey, { requests: 4, paymentMethod: 'BANK_TRANSFER' });
    const doc = (await loadInvoiceDocument(h.db, bill.billId))!;
    expect(doc.billNumber).toBe(bill.billNumber);
    expect(doc.issuer).toMatchObject({ name: 'Stadtwerke Süd GmbH', vatId: 'DE123456789' });
    // Empty template lines are left out, not printed blank.
    expect(doc.headerLines).toEqual(['Stadtwerke Süd GmbH', 'Energie für die Region']);
    expect(doc.footerLines).toEqual(['Sitz Berlin · HRB 12345']);
    expect(doc.contact?.name).toBe('Sabine Weiß');
    expect(doc.recipient).toMatchObject({ street: 'Lindenstraße 5', zipCode: '80331', city: 'München' });
    expect(doc.lines).toEqual(bill.figures.lines);
    expect([doc.netCents, doc.vatCents, doc.grossCents]).toEqual([bill.figures.netCents, bill.figures.vatCents, bill.figures.grossCents]);
    expect(doc.invoiceDate).toBe('2026-03-01'); // generated 2026-02-28 23:30 UTC: already March 1st in Berlin
    // A transfer is due the operator's days after the invoice date.
    expect(doc.payment).toEqual({
      kind: 'BANK_TRANSFER',
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      bankName: 'Commerzbank',
      dueDate: '2026-03-15',
    });
    expect(doc.history).toHaveLength(4);
    // Each request's net energy amount at the bill's price: 10.000 kWh × 0.39 € = 3.90 €.
    expect(doc.history![0]).toMatchObject({ energyKwh: '10.000', costCents: 390n, place: expect.stringContaining('Stellplatz P1') });
  });

  it('has the SEPA data of the contract (mandate, masked IBAN) and the creditor id of the operator', async () => {
    const bill = await insertTestBill(h.db, contractKey, { requests: 1, paymentMethod: 'SEPA', start: '2026-01-01', end: '2026-01-31' });
    // Collected later: the bill is the debtor's pre-notification and names the planned debit date
    // (invoice date 01.02. + 14 days), never the day the collection happened.
    await h.db
      .update(bills)
      .set({ billingStatus: 'PAID', billCollectionDate: new Date('2026-03-20T10:00:00Z') })
      .where(eq(bills.billId, bill.billId));
    const doc = (await loadInvoiceDocument(h.db, bill.billId))!;
    expect(doc.payment).toEqual({
      kind: 'SEPA',
      creditorId: 'DE98ZZZ09999999999',
      mandateReference: 'MR-4711',
      maskedIban: 'DE02 •••• 2051',
      collectionDate: '2026-02-15',
    });
    expect(maskIban('de02 1203 0000 0000 2020 51')).toBe('DE02 •••• 2051');
    // Without days until payment the debit is planned on the invoice date, as the SEPA file collects it.
    await h.db.update(operators).set({ moneyCollectionGapInDays: null }).where(eq(operators.cpoId, cpoId));
    try {
      const noGap = await insertTestBill(h.db, contractKey, { requests: 1, paymentMethod: 'SEPA', start: '2025-07-01', end: '2025-07-31' });
      await h.db
        .update(bills)
        .set({ billCollectionDate: new Date('2025-09-03T10:00:00Z') })
        .where(eq(bills.billId, noGap.billId));
      expect((await loadInvoiceDocument(h.db, noGap.billId))!.payment).toMatchObject({ kind: 'SEPA', collectionDate: '2025-08-01' });
    } finally {
      await h.db.update(operators).set({ moneyCollectionGapInDays: 14 }).where(eq(operators.cpoId, cpoId));
    }
  });

  it('keeps its snapshot generically: bigints and dates come back as they were, any field included', () => {
    const issued = {
      withHistory: true,
      document: {
        billNumber: 'RE-1',
        grossCents: 12345n,
        lines: [{ kind: 'fixed', quantity: { numerator: 17n, denominator: 31n }, unitPrice: 1490000n }],
        recipient: { name: 'Muster GmbH', companyName: 'Muster GmbH', vatId: 'DE123456789', careOf: null },
        buyerReference: '04011000-12345-67',
        issuedAt: new Date('2026-11-02T06:00:00.000Z'),
        contact: undefined,
      },
    };
    const stored = JSON.parse(JSON.stringify(toSnapshot(issued)));
    expect(stored.document.grossCents).toEqual({ $bigint: '12345' });
    expect(fromSnapshot(stored)).toEqual(issued);
  });

  it('leaves the history out when the operator did not include it at issue, and reads a long one in batches', async () => {
    const long = await insertTestBill(h.db, contractKey, { requests: HISTORY_BATCH + 3, start: '2025-12-01', end: '2025-12-31' });
    expect((await loadInvoiceDocument(h.db, long.billId))!.history).toHaveLength(HISTORY_BATCH + 3);
    await h.db.update(operators).set({ isChargingHistoryIncluded: false }).where(eq(operators.cpoId, cpoId));
    try {
      // Issued with the history: a later change of the template does not take it off.
      expect((await loadInvoiceDocument(h.db, long.billId))!.history).toHaveLength(HISTORY_BATCH + 3);
      const without = await insertTestBill(h.db, contractKey, { requests: 2, start: '2025-08-01', end: '2025-08-31' });
      expect((await loadInvoiceDocument(h.db, without.billId))!.history).toBeUndefined();
    } finally {
      await h.db.update(operators).set({ isChargingHistoryIncluded: true }).where(eq(operators.cpoId, cpoId));
    }
  });

  it("an IMMEDIATE bill's history is its one charging request", async () => {
    const bill = await insertTestBill(h.db, contractKey, { requests: 3, start: '2025-11-01', end: '2025-11-30' });
    const [one] = await h.db.select({ id: bills.billId }).from(bills).where(eq(bills.billId, bill.billId));
    await h.db
      .update(bills)
      .set({ chargingRequestId: `TB${bill.billNumber.slice(-4)}000000000001` })
      .where(eq(bills.billId, one.id));
    const doc = (await loadInvoiceDocument(h.db, bill.billId))!;
    expect(doc.history).toHaveLength(1);
  });

  it('names a business customer by its company, its VAT id (BT-48) and its buyer reference (BT-10); a private one by none', async () => {
    const bill = await insertTestBill(h.db, contractKey, {
      requests: 1,
      paymentMethod: 'BANK_TRANSFER',
      start: '2025-06-01',
      end: '2025-06-30',
    });
    const privateDoc = (await loadInvoiceDocument(h.db, bill.billId))!;
    expect([privateDoc.recipient.companyName, privateDoc.recipient.vatId, privateDoc.buyerReference]).toEqual([null, null, null]);
    await h.db
      .update(contracts)
      .set({ companyName: 'Flotte Nord GmbH', customerVatId: 'DE136695976', buyerReference: '04011000-1234512345-06' })
      .where(eq(contracts.contractKey, contractKey));
    try {
      // A bill issued after the change names the company; the one issued before keeps what it said.
      const later = await insertTestBill(h.db, contractKey, {
        requests: 1,
        paymentMethod: 'BANK_TRANSFER',
        start: '2024-11-01',
        end: '2024-11-30',
      });
      const doc = (await loadInvoiceDocument(h.db, later.billId))!;
      expect(doc.recipient).toMatchObject({ companyName: 'Flotte Nord GmbH', vatId: 'DE136695976', street: 'Lindenstraße 5' });
      expect(doc.buyerReference).toBe('04011000-1234512345-06');
      expect((await loadInvoiceDocument(h.db, bill.billId))!.recipient.companyName).toBeNull();
    } finally {
      await h.db
        .update(contracts)
        .set({ companyName: null, customerVatId: null, buyerReference: null })
        .where(eq(contracts.contractKey, contractKey));
    }
  });

  it('answers nothing for an unknown bill', async () => {
    expect(await loadInvoiceDocument(h.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
    expect(await billPdf(h.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});

describe("a bill's PDF file", () => {
  it('is made once and kept: the second request answers the same bytes from `files`', async () => {
    const bill = await insertTestBill(h.db, contractKey, { requests: 2, start: '2025-10-01', end: '2025-10-31' });
    expect((await billState(h.db, bill.billId)).pdfFileId).toBeNull();
    const first = (await billPdf(h.db, bill.billId))!;
    expect(first.fileName).toBe(`${bill.billNumber}.pdf`);
    const state = await billState(h.db, bill.billId);
    expect(state.pdfFileId).not.toBeNull();
    const [{ n }] = await h.db.select({ n: count() }).from(files);
    const second = (await billPdf(h.db, bill.billId))!;
    expect(second.content.equals(first.content)).toBe(true);
    expect((await h.db.select({ n: count() }).from(files))[0].n).toBe(n);
    const text = pdfText(first.content, 'kept.pdf');
    expect(text).toContain(`Rechnung ${bill.billNumber}`);
    expect(text).toContain('Nachweis der Ladevorgänge');
  });

  it('two requests racing for a new PDF keep one file and both answer its bytes', async () => {
    const bill = await insertTestBill(h.db, contractKey, { requests: 2, start: '2025-09-01', end: '2025-09-30' });
    const [{ n: before }] = await h.db.select({ n: count() }).from(files);
    const [a, b] = await Promise.all([billPdf(h.db, bill.billId), billPdf(h.db, bill.billId)]);
    expect(a!.content.equals(b!.content)).toBe(true);
    const [{ n: after }] = await h.db.select({ n: count() }).from(files);
    expect(after).toBe(before + 1);
    const [kept] = await h.db
      .select({ content: files.content })
      .from(files)
      .where(eq(files.id, (await billState(h.db, bill.billId)).pdfFileId!));
    expect(Buffer.from(kept.content).equals(a!.content)).toBe(true);
  });
});
