import { Worker } from 'node:worker_threads';
import type { InvoiceDocument } from './invoice-pdf';
import { drawBillPdf } from './render';

/**
 * Invoice PDFs are drawn in one worker thread with a heap of its own (issue 24's zip bench): pdfkit
 * and the e-invoice library leave much short-lived garbage, which the server's own heap let pile up
 * to +279 MB over a zip of 500 new PDFs before collecting. The worker's small heap is collected
 * early, and the worker ends after a few idle seconds, so its memory goes with it. Should the worker
 * fail (out of its heap, or tsx missing), the PDF is drawn in this thread instead.
 */

const IDLE_MS = 5_000;
const HEAP_MB = 64;
/** A worker draws this many PDFs, then a fresh one takes over: its native memory (zlib, fonts) goes with it. */
const PDFS_PER_WORKER = 25;

type Pending = { resolve: (b: Buffer) => void; reject: (e: Error) => void };
let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let nextId = 1;
/** PDFs handed to the current worker, and the answers each worker still owes. */
let handedOut = 0;
const owed = new Map<Worker, number>();
const pending = new Map<number, Pending>();

function failAll(err: Error) {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
  worker = undefined;
  handedOut = 0;
}

function theWorker(): Worker {
  if (worker) return worker;
  // The worker is TypeScript: its entry registers tsx's loader in the thread (as `npm run serve` does for the server).
  const w = new Worker(new URL('./render-worker.mjs', import.meta.url), {
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 8 },
  });
  w.unref();
  w.on('message', (msg: { id: number; bytes?: Uint8Array; error?: string }) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.bytes) p.resolve(Buffer.from(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.byteLength));
    else p.reject(new Error(msg.error ?? 'render failed'));
    const left = (owed.get(w) ?? 1) - 1;
    owed.set(w, left);
    if (left > 0) return;
    if (worker === w) idle = setTimeout(() => void w.terminate(), IDLE_MS).unref();
    else void w.terminate();
  });
  w.on('error', (err) => failAll(err));
  w.on('exit', () => {
    owed.delete(w);
    if (worker === w) failAll(new Error('render worker ended'));
  });
  worker = w;
  return w;
}

/** Drawn in the render worker only (the tests check the worker itself works). */
export function drawInWorker(doc: InvoiceDocument): Promise<Buffer> {
  clearTimeout(idle);
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    const w = theWorker();
    owed.set(w, (owed.get(w) ?? 0) + 1);
    w.postMessage({ id, doc });
    // Retired after its share: the next PDF starts a fresh worker, and this one ends once it has answered.
    if (++handedOut >= PDFS_PER_WORKER) {
      worker = undefined;
      handedOut = 0;
    }
  });
}

/** A bill's PDF drawn in the render worker, or in this thread when the worker cannot. */
export async function renderBillPdf(doc: InvoiceDocument): Promise<Buffer> {
  try {
    return await drawInWorker(doc);
  } catch {
    return drawBillPdf(doc);
  }
}
