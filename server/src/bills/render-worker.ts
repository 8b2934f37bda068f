import { parentPort } from 'node:worker_threads';
import type { InvoiceDocument } from './invoice-pdf';
import { drawBillPdf } from './render';

/** Draws invoice PDFs for `render-pool.ts`, one message at a time, in a thread with a small heap of its own. */
parentPort?.on('message', (msg: { id: number; doc: InvoiceDocument }) => {
  drawBillPdf(msg.doc).then(
    (pdf) => {
      const bytes = new Uint8Array(pdf);
      parentPort?.postMessage({ id: msg.id, bytes }, [bytes.buffer]);
    },
    (err: unknown) => parentPort?.postMessage({ id: msg.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
