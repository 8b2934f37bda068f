import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { declaredPixels } from './image-size';

/**
 * Whether an upload is what its first bytes claim, by parsing it whole with a library for the
 * format: a PDF must load as a document with at least one page (a PDF header in front of HTML is
 * not a PDF) and must not carry JavaScript or launch actions, an image must decode.
 *
 * Parsing runs in a worker thread of its own (`attachment-worker.mjs`) with a time and a memory
 * limit: a crafted file (a `%PDF-` header and 3 MB of filler took pdf-lib 14 s on the event loop)
 * costs that thread, which is ended when it exceeds either, never the requests of other tenants.
 */
export type UploadVerdict = 'ok' | 'invalid' | 'active-content' | 'too-costly' | 'too-many-pixels';

export interface UploadCheckLimits {
  timeoutMs: number;
  memoryMb: number;
  /** The most pixels an image may declare (width × height); checked in its header before decoding. */
  maxPixels: number;
  /** Checks running at once; more wait their turn, so a burst of uploads cannot take every core and GBs. */
  concurrency: number;
}

/** The limits of `env` (the route's check before the transaction uses these). */
export const uploadLimitsOf = (env: Env): UploadCheckLimits => ({
  timeoutMs: env.UPLOAD_CHECK_TIMEOUT_MS,
  memoryMb: env.UPLOAD_CHECK_MEMORY_MB,
  maxPixels: env.UPLOAD_MAX_PIXELS,
  concurrency: env.UPLOAD_CHECK_CONCURRENCY,
});

/** The environment's defaults, for a handler's own check (it finds the route's verdict kept and parses nothing). */
const defaultLimits: UploadCheckLimits = { timeoutMs: 5000, memoryMb: 128, maxPixels: 40_000_000, concurrency: 2 };

let running = 0;
const waiting: (() => void)[] = [];

/** Waits until fewer than `concurrency` uploads are being parsed (the station import's parser takes turns too). */
export async function takeTurn(concurrency: number): Promise<() => void> {
  if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

/** Files that passed, by content hash: the route's check before the transaction and the handler's inside it parse once. */
const passed = new Map<string, true>();
const PASSED_KEPT = 200;

const hashOf = (ext: string, bytes: Uint8Array) => `${ext}:${createHash('sha256').update(bytes).digest('base64')}`;

function parseInWorker(ext: string, bytes: Uint8Array, limits: UploadCheckLimits): Promise<UploadVerdict> {
  return new Promise((resolve) => {
    const copy = new Uint8Array(bytes);
    const worker = new Worker(new URL('./attachment-worker.mjs', import.meta.url), {
      workerData: { ext, bytes: copy, maxPixels: limits.maxPixels },
      transferList: [copy.buffer],
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 16 },
    });
    let settled = false;
    const settle = (v: UploadVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(v);
    };
    const timer = setTimeout(() => settle('too-costly'), limits.timeoutMs);
    worker.once('message', (v: UploadVerdict) => settle(v));
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or any other end without an answer.
    worker.once('error', () => settle('too-costly'));
    worker.once('exit', () => settle('too-costly'));
  });
}

/** The verdict on an upload of type `ext` (by its first bytes: pdf, png, jpg, heic). */
export async function checkUpload(ext: string, bytes: Uint8Array, limits: UploadCheckLimits = defaultLimits): Promise<UploadVerdict> {
  if (ext !== 'pdf') {
    // A decoder's memory is the declared size (decompression bombs), and libheif's WASM memory is
    // beyond the worker's heap limit: the header decides before any decoder runs.
    const pixels = declaredPixels(ext, bytes);
    if (pixels === undefined || pixels === 0) return 'invalid';
    if (pixels > limits.maxPixels) return 'too-many-pixels';
  }
  const key = hashOf(ext, bytes);
  if (passed.has(key)) return 'ok';
  const done = await takeTurn(limits.concurrency);
  let verdict: UploadVerdict;
  try {
    verdict = await parseInWorker(ext, bytes, limits);
  } finally {
    done();
  }
  if (verdict === 'ok') {
    if (passed.size >= PASSED_KEPT) passed.delete(passed.keys().next().value as string);
    passed.set(key, true);
  }
  return verdict;
}

/** The 4xx of a refused upload, with the field it came in (undefined: not refused). */
export function uploadRefusal(verdict: UploadVerdict, path: string, typeMessage: string): ApiError | undefined {
  switch (verdict) {
    case 'ok':
      return undefined;
    case 'too-costly':
      return new ApiError(422, 'UPLOAD_NOT_READABLE', 'File could not be read within the limits', undefined, [
        { path, message: 'notReadable' },
      ]);
    case 'active-content':
      return new ApiError(400, 'UPLOAD_ACTIVE_CONTENT', 'PDF with JavaScript or launch actions', undefined, [
        { path, message: 'activeContent' },
      ]);
    case 'too-many-pixels':
      return new ApiError(422, 'IMAGE_TOO_LARGE', 'Image declares more pixels than allowed', undefined, [
        { path, message: 'tooManyPixels' },
      ]);
    case 'invalid':
      return new ApiError(400, 'UNSUPPORTED_FILE_TYPE', typeMessage, undefined, [{ path, message: typeMessage }]);
  }
}
