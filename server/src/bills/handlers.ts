import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { billHasPdf, type DownloadBillsBody, type SendBillsBody } from '../../../contract/bills';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { enqueueMail } from '../db/mail-outbox';
import { bills } from '../db/schema/bookings';
import { contracts, files } from '../db/schema/contracts';
import { operators } from '../db/schema/operators';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { loadInvoiceDocument } from './document';
import { billPdf, billPdfFileName, linkBillPdf, renderBillPdf, type BillPdf } from './pdf-file';

/**
 * The bills' documents over HTTP (spec 3 §7, issue 24): one PDF, bills sent by mail with their PDF
 * attached, and a zip of several PDFs. A number outside the caller's operators answers exactly like
 * one that does not exist (404 BILLING_NOT_FOUND).
 */

const notFound = (billNumbers: string[]) =>
  new ApiError(404, 'BILLING_NOT_FOUND', `Bill ${billNumbers.join(', ')} not found`, { billNumbers });

/** The bills of these numbers among the caller's operators. */
async function billsInScope(db: Db, scope: Scope, billNumbers: readonly string[], lock = false) {
  const query = db
    .select({ billId: bills.billId, billNumber: bills.billNumber, billingStatus: bills.billingStatus })
    .from(bills)
    .where(and(inArray(bills.billNumber, [...billNumbers]), scope.where(bills.cpoId)));
  return lock ? query.for('update') : query;
}

/**
 * The bill behind a PDF link: in scope, its id the link's `verificationId`, and a bill with a PDF
 * (a status other than NOT_APPLICABLE); otherwise 404, the same for every reason.
 */
export async function billForPdf(db: Db, scope: Scope, billNumber: string, verificationId: string): Promise<{ billId: string }> {
  const [bill] = await billsInScope(db, scope, [billNumber]);
  if (!bill || bill.billId !== verificationId || !billHasPdf(bill)) throw notFound([billNumber]);
  return { billId: bill.billId };
}

/** The PDF of a link, and the bill's first download noted (spec 3 §3 billDownloadDate). */
export async function downloadBillPdf(db: Db, billId: string): Promise<BillPdf> {
  const pdf = await billPdf(db, billId);
  if (!pdf) throw notFound([billId]);
  await db
    .update(bills)
    .set({ billDownloadDate: sql`now()` })
    .where(and(eq(bills.billId, billId), isNull(bills.billDownloadDate)));
  return pdf;
}

// ---------------------------------------------------------------------------------------------
// Sending by mail
// ---------------------------------------------------------------------------------------------

/** All or none: every number in scope (404 naming the others), every bill GENERATED (409 naming the others). */
function checkSendable(billNumbers: readonly string[], found: { billNumber: string; billingStatus: string | null }[]) {
  const known = new Map(found.map((b) => [b.billNumber, b]));
  const missing = billNumbers.filter((n) => !known.has(n));
  if (missing.length > 0) throw notFound(missing);
  const notGenerated = billNumbers.filter((n) => known.get(n)!.billingStatus !== 'GENERATED');
  if (notGenerated.length > 0) {
    throw new ApiError(409, 'BILLS_WITH_GENERATED_STATUS_ERROR', `Bills not in status GENERATED: ${notGenerated.join(', ')}`, {
      billNumbers: notGenerated,
    });
  }
}

/**
 * Before the send's transaction: when the send would pass (every bill in scope and GENERATED), the
 * bills' PDFs are made and kept, each in a short transaction of its own, so the send's transaction
 * only reads them. Refuses nothing itself (the send checks again under its lock, and a repeat of a
 * sent request is answered from its Idempotency-Key after this), and prepares nothing for a request
 * that will be refused, so a refusal leaves the database as it was.
 */
export async function preparePdfsToSend(db: Db, scope: Scope, body: SendBillsBody): Promise<void> {
  const found = await billsInScope(db, scope, body.billNumbers);
  try {
    checkSendable(body.billNumbers, found);
  } catch {
    return;
  }
  for (const bill of found) await billPdf(db, bill.billId);
}

const germanDate = (iso: string) => iso.split('-').reverse().join('.');
const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });

/** `"Name" <address of MAIL_FROM>`: the operator sends its bills through the cockpit's mailbox. */
export function senderFor(operatorName: string, mailFrom: string): string {
  const address = /<([^>]*)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `"${operatorName.replace(/["\\\r\n]/g, '')}" <${address}>`;
}

/** The mail of one bill: German, from its operator, with its PDF. */
async function billMail(tx: Db, env: Env, billId: string) {
  const [row] = await tx
    .select({
      bill: {
        billNumber: bills.billNumber,
        startDate: bills.startDate,
        endDate: bills.endDate,
        gross: bills.totalTaxedCosts,
        firstName: bills.endCustomerFirstName,
        lastName: bills.endCustomerLastName,
      },
      to: contracts.email,
      operator: { name: operators.cpoName, replyTo: operators.contactPersonEmail },
      pdf: { fileName: files.fileName, content: files.content },
    })
    .from(bills)
    .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
    .innerJoin(operators, eq(operators.cpoId, bills.cpoId))
    .leftJoin(files, eq(files.id, bills.pdfFileId))
    .where(eq(bills.billId, billId));
  const { bill, operator } = row;
  let pdf = row.pdf;
  if (!pdf) {
    // Regenerated since the PDFs were prepared: made here, under the bill's lock (the link is this one).
    const doc = (await loadInvoiceDocument(tx, billId))!;
    pdf = { fileName: billPdfFileName(doc.billNumber), content: await renderBillPdf(doc) };
    await linkBillPdf(tx, billId, pdf.fileName, pdf.content);
  }
  const period = `${germanDate(bill.startDate)} – ${germanDate(bill.endDate)}`;
  const gross = euro.format(bill.gross as `${number}`);
  return {
    to: row.to,
    from: senderFor(operator.name, env.MAIL_FROM),
    replyTo: operator.replyTo ?? undefined,
    subject: `Ihre Rechnung ${bill.billNumber} von ${operator.name}`,
    text: [
      `Guten Tag ${`${bill.firstName} ${bill.lastName}`.trim()},`,
      '',
      `anbei erhalten Sie Ihre Rechnung ${bill.billNumber} für den Leistungszeitraum ${period}.`,
      `Rechnungsbetrag: ${gross}`,
      '',
      'Die Rechnung finden Sie als PDF im Anhang (mit elektronischer Rechnung nach EN 16931, ZUGFeRD/Factur-X).',
      '',
      'Mit freundlichen Grüßen',
      operator.name,
    ].join('\n'),
    attachment: { name: pdf.fileName, mimeType: 'application/pdf', content: Buffer.from(pdf.content) },
  };
}

/**
 * Sends the named bills (spec 3 §7 send-bill-email): checked all or none under the bills' lock,
 * each one's mail with its PDF into the mail outbox and the bill SENT, in the request's transaction.
 */
export async function sendBills(tx: Db, scope: Scope, env: Env, body: SendBillsBody): Promise<{ sent: number }> {
  const found = await billsInScope(tx, scope, body.billNumbers, true);
  checkSendable(body.billNumbers, found);
  for (const bill of found) {
    await enqueueMail(tx, await billMail(tx, env, bill.billId));
  }
  await tx
    .update(bills)
    .set({ billingStatus: 'SENT' })
    .where(
      inArray(
        bills.billId,
        found.map((b) => b.billId),
      ),
    );
  return { sent: found.length };
}

// ---------------------------------------------------------------------------------------------
// The zip
// ---------------------------------------------------------------------------------------------

/**
 * The bills of a zip, checked before its first byte: every number in scope with its id and a PDF
 * (404 BILLING_NOT_FOUND naming the others). In the order asked, each once.
 */
export async function billsToZip(db: Db, scope: Scope, body: DownloadBillsBody): Promise<{ billId: string; billNumber: string }[]> {
  const wanted = [...new Map(body.billPdfDtoList.map((b) => [b.billNumber, b])).values()];
  const found = new Map(
    (
      await billsInScope(
        db,
        scope,
        wanted.map((b) => b.billNumber),
      )
    ).map((b) => [b.billNumber, b]),
  );
  const bad = wanted.filter((w) => {
    const bill = found.get(w.billNumber);
    return !bill || bill.billId !== w.billId || !billHasPdf(bill);
  });
  if (bad.length > 0) throw notFound(bad.map((b) => b.billNumber));
  return wanted.map((w) => ({ billId: w.billId, billNumber: w.billNumber }));
}

/**
 * The zip of the bills' PDFs as a stream: each PDF fetched (or made) only once the one before is
 * written into the zip, and the next only as fast as the client reads, so the server holds about
 * one PDF at a time whatever the number of bills. PDFs are compressed already: stored as they are.
 */
export function zipOfBills(db: Db, list: readonly { billId: string; billNumber: string }[]): ReadableStream {
  const archive = new ZipArchive({ store: true });
  const out = new PassThrough();
  archive.pipe(out);
  const fill = async () => {
    for (const bill of list) {
      const pdf = await billPdf(db, bill.billId);
      if (!pdf) throw new Error('bill gone while zipping');
      const written = once(archive, 'entry');
      archive.append(pdf.content, { name: pdf.fileName });
      await written;
    }
    await archive.finalize();
  };
  fill().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error('zip failed')));
  return Readable.toWeb(out) as ReadableStream;
}
