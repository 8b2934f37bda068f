import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLS_ZIP_NAME, billPdfPath } from '../../../contract/bills';
import { loadAuthUser, scopeFor } from '../auth/scope';
import { dashboardUsers } from '../db/schema/auth';
import { bills } from '../db/schema/bookings';
import { mailOutbox } from '../db/schema/mail';
import { operators } from '../db/schema/operators';
import { contracts } from '../db/schema/contracts';
import { createMailSender, type MailSender } from '../mail/sender';
import { demoAccounts } from '../seed/seed';
import { billState, contractOf, insertTestBill, type TestBill } from '../test/bill-fixtures';
import { createHarness, type Harness } from '../test/harness';
import { startSmtpPeer, type SmtpPeer } from '../test/smtp-peer';
import { senderFor } from './handlers';

let h: Harness;
let token: string;
let ownContract: string;
let foreignContract: string;
let peer: SmtpPeer;
let sender: MailSender;
const dir = mkdtempSync(path.join(os.tmpdir(), 'bill-docs-'));
const BASE = '/booking-service';

beforeAll(async () => {
  h = await createHarness();
  token = (await h.login('operator')).access_token;
  const [me] = await h.db
    .select({ id: dashboardUsers.id })
    .from(dashboardUsers)
    .where(eq(dashboardUsers.email, demoAccounts.operator.email));
  const scope = (await scopeFor(h.db, (await loadAuthUser(h.db, me.id))!)).operatorIds as string[];
  const [other] = (await h.db.select({ cpoId: operators.cpoId }).from(operators)).filter((o) => !scope.includes(o.cpoId));
  ownContract = await contractOf(h.db, scope[0]);
  foreignContract = await contractOf(h.db, other.cpoId);
  await h.db
    .update(operators)
    .set({ cpoName: 'Stadtwerke Süd GmbH', contactPersonEmail: 'service@sw-sued.example' })
    .where(eq(operators.cpoId, scope[0]));
  await h.db.update(contracts).set({ email: 'juergen.groesse@example.de' }).where(eq(contracts.contractKey, ownContract));
  peer = await startSmtpPeer();
  sender = createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} });
});
afterAll(async () => {
  sender?.stop();
  await peer?.close();
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A request answered as bytes (PDF, zip) or JSON. */
async function raw(method: string, url: string, body?: unknown) {
  const res = await h.app.request(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(bytes.toString()) : undefined;
  return { status: res.status, headers: res.headers, bytes, json };
}

let n = 0;
const pdfText = (bytes: Buffer) => {
  const file = path.join(dir, `${++n}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

let month = 0;
/** A bill of its own period (each contract bills a period once). */
const newBill = (contractKey: string, opts: Parameters<typeof insertTestBill>[2] = {}) => {
  const m = ++month;
  const year = 2020 + Math.floor(m / 12);
  const mm = String((m % 12) + 1).padStart(2, '0');
  return insertTestBill(h.db, contractKey, { start: `${year}-${mm}-01`, end: `${year}-${mm}-28`, requests: 2, ...opts });
};

describe('GET /bookings/pdf/{billNumber}', () => {
  it('answers the PDF inline under the bill number and notes the first download', async () => {
    const bill = await newBill(ownContract);
    const res = await raw('GET', `${BASE}${billPdfPath(bill)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${bill.billNumber}.pdf"`);
    expect(pdfText(res.bytes)).toContain(`Rechnung ${bill.billNumber}`);
    const first = (await billState(h.db, bill.billId)).billDownloadDate;
    expect(first).not.toBeNull();
    const again = await raw('GET', `${BASE}${billPdfPath(bill)}`);
    expect(again.bytes.equals(res.bytes)).toBe(true);
    expect((await billState(h.db, bill.billId)).billDownloadDate).toEqual(first);
  });

  it("is 404 BILLING_NOT_FOUND for another operator's bill, a mismatching id and a bill without a PDF", async () => {
    const foreign = await newBill(foreignContract);
    const own = await newBill(ownContract);
    const noPdf = await newBill(ownContract, { status: 'NOT_APPLICABLE' });
    for (const url of [billPdfPath(foreign), billPdfPath({ ...own, billId: foreign.billId }), billPdfPath(noPdf)]) {
      const res = await raw('GET', `${BASE}${url}`);
      expect(res.status, url).toBe(404);
      expect(res.json.errorCodeResponse).toBe('BILLING_NOT_FOUND');
    }
    expect((await billState(h.db, foreign.billId)).pdfFileId).toBeNull();
    expect((await billState(h.db, own.billId)).billDownloadDate).toBeNull();
  });
});

describe('POST /bookings/send-bill-email', () => {
  const outboxCount = async () => (await h.db.select({ n: count() }).from(mailOutbox))[0].n;
  const statuses = async (list: TestBill[]) =>
    (
      await h.db
        .select({ s: bills.billingStatus })
        .from(bills)
        .where(
          inArray(
            bills.billId,
            list.map((b) => b.billId),
          ),
        )
    ).map((r) => r.s);

  it('mails each bill with its PDF through the outbox over SMTP and sets it SENT', async () => {
    const two = [await newBill(ownContract), await newBill(ownContract)];
    const res = await h.request('POST', `${BASE}/bookings/send-bill-email`, { token, body: { billNumbers: two.map((b) => b.billNumber) } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sent: 2 });
    expect(await statuses(two)).toEqual(['SENT', 'SENT']);
    await sender.flush();
    for (const bill of two) {
      const mail = await peer.waitFor((m) => m.subject.includes(bill.billNumber), 5000);
      expect(mail.to).toEqual(['juergen.groesse@example.de']);
      expect(mail.subject).toBe(`Ihre Rechnung ${bill.billNumber} von Stadtwerke Süd GmbH`);
      expect(mail.raw).toMatch(/^From: =\?UTF-8\?Q\?Stadtwerke_S=C3=BCd_GmbH\?= </m);
      expect(mail.text).toContain(`Leistungszeitraum ${bill.figures.lines[0].from.split('-').reverse().join('.')}`);
      const gross = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(Number(bill.figures.grossCents) / 100);
      expect(mail.text).toContain(`Rechnungsbetrag: ${gross}`);
      expect(mail.attachments).toEqual([expect.objectContaining({ filename: `${bill.billNumber}.pdf`, contentType: 'application/pdf' })]);
      // The attachment is the bill's PDF itself: a PDF file whose text names this bill.
      const pdf = mail.attachments[0].content;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBe(mail.attachments[0].size);
      const text = pdfText(pdf);
      expect(text).toContain(bill.billNumber);
      expect(text).toContain('Stadtwerke Süd GmbH');
    }
    expect(senderFor('Stadtwerke "Süd"', 'CPO Cockpit <no-reply@cockpit.example>')).toBe('"Stadtwerke Süd" <no-reply@cockpit.example>');
  });

  it("sends nothing when one bill is another operator's (404) or not GENERATED (409)", async () => {
    const own = await newBill(ownContract);
    const foreign = await newBill(foreignContract);
    const paid = await newBill(ownContract, { status: 'PAID' });
    const before = await outboxCount();

    const notFound = await h.request('POST', `${BASE}/bookings/send-bill-email`, {
      token,
      body: { billNumbers: [own.billNumber, foreign.billNumber] },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.body.errorCodeResponse).toBe('BILLING_NOT_FOUND');
    expect(notFound.body.errorDetail).toEqual({ billNumbers: [foreign.billNumber] });

    const conflict = await h.request('POST', `${BASE}/bookings/send-bill-email`, {
      token,
      body: { billNumbers: [own.billNumber, paid.billNumber] },
    });
    expect(conflict.status).toBe(409);
    expect(conflict.body.errorCodeResponse).toBe('BILLS_WITH_GENERATED_STATUS_ERROR');
    expect(conflict.body.errorDetail).toEqual({ billNumbers: [paid.billNumber] });

    expect(await outboxCount()).toBe(before);
    expect(await statuses([own, foreign, paid])).toEqual(expect.arrayContaining(['GENERATED', 'GENERATED', 'PAID']));
    // Nothing was prepared for the refused sends either.
    expect((await billState(h.db, own.billId)).pdfFileId).toBeNull();
  });
});

describe('POST /bookings/download-bill', () => {
  it('streams one zip, Rechnungen.zip, with one readable PDF per bill', async () => {
    const three = [
      await newBill(ownContract),
      await newBill(ownContract, { status: 'SENT' }),
      await newBill(ownContract, { status: 'PAID' }),
    ];
    const res = await raw('POST', `${BASE}/bookings/download-bill`, {
      billPdfDtoList: three.map((b) => ({ billId: b.billId, billNumber: b.billNumber })),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${BILLS_ZIP_NAME}"`);
    const zip = path.join(dir, 'bills.zip');
    writeFileSync(zip, res.bytes);
    expect(execFileSync('unzip', ['-t', zip], { encoding: 'utf8' })).toContain('No errors detected');
    const out = path.join(dir, 'unzipped');
    mkdirSync(out);
    execFileSync('unzip', ['-q', zip, '-d', out]);
    expect(readdirSync(out).sort()).toEqual(three.map((b) => `${b.billNumber}.pdf`).sort());
    for (const bill of three) {
      const text = execFileSync('pdftotext', [path.join(out, `${bill.billNumber}.pdf`), '-'], { encoding: 'utf8' });
      expect(text).toContain(`Rechnung ${bill.billNumber}`);
    }
  });

  it('is 404 BILLING_NOT_FOUND before any byte for a foreign bill or a mismatching id', async () => {
    const own = await newBill(ownContract);
    const foreign = await newBill(foreignContract);
    for (const list of [[own, foreign], [{ ...own, billId: foreign.billId }]]) {
      const res = await raw('POST', `${BASE}/bookings/download-bill`, {
        billPdfDtoList: list.map((b) => ({ billId: b.billId, billNumber: b.billNumber })),
      });
      expect(res.status).toBe(404);
      expect(res.json.errorCodeResponse).toBe('BILLING_NOT_FOUND');
    }
    expect((await billState(h.db, own.billId)).pdfFileId).toBeNull();
  });
});
