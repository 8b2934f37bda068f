import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { files } from '../db/schema/contracts';
import { loadInvoiceDocument } from './document';
import { renderBillPdf } from './render-pool';

/**
 * A bill's PDF, drawn the first time it is asked for from what the bill said when it was issued
 * (`bills.issued_document`, so a bill drawn late still prints the values of its issue), and kept in
 * `files` (`bills.pdf_file_id`), so every later download, mail and zip sends the same bytes. Only a
 * regeneration of a GENERATED bill, which issues it anew, clears the link; the next request draws
 * it from the new snapshot.
 */

export interface BillPdf {
  fileName: string;
  content: Buffer;
}

export const billPdfFileName = (billNumber: string) => `${billNumber}.pdf`;

export { renderBillPdf };

/**
 * Keeps `content` as the bill's PDF unless another request kept one first (the update only links
 * while none is linked: on PostgreSQL the later of two racing updates waits for the first and then
 * finds the link set). Answers the file id now linked and whether it is this one. Run it in a
 * transaction: a lost race leaves the new file row to be rolled back.
 */
export async function linkBillPdf(tx: Db, billId: string, fileName: string, content: Buffer): Promise<{ fileId: string; won: boolean }> {
  const id = randomUUID();
  await tx.insert(files).values({ id, fileName, mimeType: 'application/pdf', size: content.length, content });
  const [won] = await tx
    .update(bills)
    .set({ pdfFileId: id })
    .where(and(eq(bills.billId, billId), isNull(bills.pdfFileId)))
    .returning({ id: bills.pdfFileId });
  if (won) return { fileId: id, won: true };
  const [row] = await tx.select({ id: bills.pdfFileId }).from(bills).where(eq(bills.billId, billId));
  return { fileId: row?.id ?? '', won: false };
}

class LostRace extends Error {}

async function storedPdf(db: Db, billId: string): Promise<BillPdf | undefined> {
  const [row] = await db
    .select({ fileName: files.fileName, content: files.content })
    .from(bills)
    .innerJoin(files, eq(files.id, bills.pdfFileId))
    .where(eq(bills.billId, billId));
  return row;
}

/**
 * The bill's PDF: the kept one, or made now (outside any transaction: drawing and the e-invoice take
 * a while, and on PGlite a transaction holds every other request) and kept in a short transaction
 * of its own. Two requests racing both draw it; one is kept, and both answer that one's bytes.
 * Undefined when there is no such bill. Callers check the scope first.
 */
export async function billPdf(db: Db, billId: string): Promise<BillPdf | undefined> {
  const kept = await storedPdf(db, billId);
  if (kept) return kept;
  const doc = await loadInvoiceDocument(db, billId);
  if (!doc) return undefined;
  const fileName = billPdfFileName(doc.billNumber);
  const content = await renderBillPdf(doc);
  try {
    await db.transaction(async (tx) => {
      const { won } = await linkBillPdf(tx as unknown as Db, billId, fileName, content);
      if (!won) throw new LostRace();
    });
  } catch (err) {
    if (!(err instanceof LostRace)) throw err;
    return storedPdf(db, billId);
  }
  return { fileName, content };
}
