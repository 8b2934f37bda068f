import { createHash } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { InvoiceDocument } from './invoice-pdf';

/**
 * Invoice PDFs are drawn in one worker thread with a heap of its own (issue 24's zip bench): its
 * small heap is collected early, and the worker ends after a few idle seconds, so its memory goes
 * with it. Should the worker fail (out of its heap, or its module not built), the PDF is drawn in
 * this thread instead; only then does the server's own thread load pdfkit and the e-invoice library.
 *
 * The worker runs plain JavaScript: its TypeScript is bundled once per process by esbuild (the
 * packages left as imports), since tsx's loader in the thread cost ~25 MB of the worker's ~100.
 * Its heap: 48 MB (its code and fonts live in ~33 MB; a zip of 500 new PDFs: +89 MB, ARCHITECTURE.md).
 */

const IDLE_MS = 5_000;
const HEAP_MB = 48;

type Pending = { resolve: (b: Buffer) => void; reject: (e: Error) => void };
let worker: Worker | undefined;
let idle: NodeJS.Timeout | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function failAll(err: Error) {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
  worker = undefined;
}

let entry: Promise<URL> | undefined;

/**
 * `render-worker.ts` and the project's code it imports as one module under node_modules/.cache (so
 * its packages resolve from there), named by its content: two processes or checkouts never clash.
 */
export function workerEntry(): Promise<URL> {
  entry ??= (async () => {
    const { build } = await import('esbuild');
    const out = await build({
      entryPoints: [fileURLToPath(new URL('./render-worker.ts', import.meta.url))],
      bundle: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.contents;
    const dir = new URL('../../../node_modules/.cache/cockpit/', import.meta.url);
    const file = new URL(`render-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`, dir);
    if (!(await stat(file).catch(() => undefined))) {
      await mkdir(dir, { recursive: true });
      const partial = new URL(`${file.href}.${process.pid}.tmp`);
      await writeFile(partial, code);
      await rename(partial, file);
    }
    return file;
  })();
  entry.catch(() => (entry = undefined));
  return entry;
}

function theWorker(file: URL): Worker {
  if (worker) return worker;
  const w = new Worker(file, {
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: 4 },
  });
  w.unref();
  w.on('message', (msg: { id: number; bytes?: Uint8Array; error?: string }) => {
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.bytes) p.resolve(Buffer.from(msg.bytes.buffer, msg.bytes.byteOffset, msg.bytes.byteLength));
    else p.reject(new Error(msg.error ?? 'render failed'));
    if (pending.size === 0) idle = setTimeout(() => void w.terminate(), IDLE_MS).unref();
  });
  w.on('error', (err) => failAll(err));
  w.on('exit', () => {
    if (worker === w) failAll(new Error('render worker ended'));
  });
  worker = w;
  return w;
}

/** Drawn in the render worker only (the tests check the worker itself works). */
export async function drawInWorker(doc: InvoiceDocument): Promise<Buffer> {
  const file = await workerEntry();
  clearTimeout(idle);
  const id = nextId++;
  return new Promise<Buffer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    theWorker(file).postMessage({ id, doc });
  });
}

/** A bill's PDF drawn in the render worker, or in this thread when the worker cannot. */
export async function renderBillPdf(doc: InvoiceDocument): Promise<Buffer> {
  try {
    return await drawInWorker(doc);
  } catch {
    // Loaded only then: the server's own thread keeps pdfkit and the e-invoice library out of its memory.
    const { drawBillPdf } = await import('./render');
    return drawBillPdf(doc);
  }
}
