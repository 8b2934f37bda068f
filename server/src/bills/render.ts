import { buffer } from 'node:stream/consumers';
import { facturX, isEInvoiceable } from './e-invoice';
import { invoicePdf, type InvoiceDocument } from './invoice-pdf';

/** The invoice PDF of a document, drawn in this thread: Factur-X (PDF/A-3 with its XML) when its figures are complete, else the plain PDF. */
export async function drawBillPdf(doc: InvoiceDocument): Promise<Buffer> {
  const pdf = await buffer(invoicePdf(doc));
  return isEInvoiceable(doc) ? Buffer.from(await facturX(new Uint8Array(pdf), doc)) : pdf;
}
