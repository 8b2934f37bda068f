import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { stationImportQuerySchema, supportedCsvSeparators } from '../../../../contract/station-import';
import type { ErrorCode } from '../../../../contract/errors';
import type { Env } from '../../env';
import { ApiError } from '../../http/errors';
import { readFormData } from '../../http/multipart';
import { checkThrottles, hitThrottle } from '../../http/throttle';
import type { AppBindings } from '../../http/types';
import { parseQuery } from '../../http/validate';
import { takeTurn } from '../../mail/attachment-check';
import { refusedUploadKey, refusedUploadLimit } from '../../mail/upload-gate';

/** A data row of the file as the worker read it: trimmed text per column, row numbered as a spreadsheet counts. */
export interface FileRow {
  row: number;
  locationId: string;
  operatorId: string;
  cpId: string;
  wallboxModel: string;
  connectorCount: string;
  parkingLots: string[];
}

export interface ParsedFile {
  format: 'csv' | 'xlsx' | 'xls';
  rows: FileRow[];
}

type WorkerAnswer = ({ ok: true } & ParsedFile) | { ok: false; code: ErrorCode; detail: Record<string, unknown> };

export interface ParseLimits {
  separator: string;
  maxRows: number;
  maxUncompressed: number;
  /** CPU time the parse may use. */
  timeoutMs: number;
  /** Wall-clock time after which a parse that has not answered is ended (a hung worker). */
  wallTimeoutMs: number;
  memoryMb: number;
  concurrency: number;
}

export const parseLimitsOf = (env: Env, separator: string): ParseLimits => ({
  separator,
  maxRows: env.STATION_IMPORT_MAX_ROWS,
  maxUncompressed: env.STATION_IMPORT_MAX_UNCOMPRESSED_BYTES,
  timeoutMs: env.UPLOAD_CHECK_TIMEOUT_MS,
  wallTimeoutMs: env.UPLOAD_CHECK_WALL_TIMEOUT_MS,
  memoryMb: env.UPLOAD_CHECK_MEMORY_MB,
  concurrency: env.UPLOAD_CHECK_CONCURRENCY,
});

/** CPU time (user + system) of one thread, from Linux's `/proc/<pid>/task/<tid>/stat`; null where there is none. */
function threadCpuMs(statPath: string): number | null {
  try {
    // The fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const fields = readFileSync(statPath, 'latin1').split(') ').pop()!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

// Linux's USER_HZ, the unit of /proc's CPU times, is 100 on every architecture Node runs on.
const CLOCK_TICKS = 100;
const CPU_POLL_MS = 100;

/**
 * Runs the parse worker with a heap limit and a limit on its **CPU time** (`timeoutMs`), not on the
 * wall clock: on a busy machine the thread waits for a core, and a valid 10,000-row XLSX needing
 * 1–2 s of CPU took over 5 s (load 10) and was refused. The worker names its thread's `/proc` entry
 * first; its CPU time is read every 100 ms. The wall clock only ends a worker that hangs
 * (`wallTimeoutMs`), and is the limit where there is no `/proc` (not Linux).
 */
function runWorker(bytes: Uint8Array, limits: ParseLimits): Promise<WorkerAnswer> {
  return new Promise((resolve) => {
    const copy = new Uint8Array(bytes);
    const worker = new Worker(new URL('./parse-worker.mjs', import.meta.url), {
      workerData: { bytes: copy, separator: limits.separator, maxRows: limits.maxRows, maxUncompressed: limits.maxUncompressed },
      transferList: [copy.buffer],
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb, maxYoungGenerationSizeMb: 16 },
    });
    let settled = false;
    const notReadable: WorkerAnswer = { ok: false, code: 'UPLOAD_NOT_READABLE', detail: {} };
    let poll: ReturnType<typeof setInterval> | undefined;
    const settle = (v: WorkerAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(poll);
      void worker.terminate();
      resolve(v);
    };
    // Until the worker names its thread (or where it cannot), the wall clock is the limit.
    let timer = setTimeout(() => settle(notReadable), limits.timeoutMs);
    worker.on('message', (v: WorkerAnswer | { thread: string }) => {
      if (!('thread' in v)) return settle(v);
      const statPath = `/proc/${v.thread}/stat`;
      if (threadCpuMs(statPath) === null) return;
      clearTimeout(timer);
      timer = setTimeout(() => settle(notReadable), limits.wallTimeoutMs);
      poll = setInterval(() => {
        const cpu = threadCpuMs(statPath);
        if (cpu !== null && cpu > limits.timeoutMs) settle(notReadable);
      }, CPU_POLL_MS);
    });
    // Out of memory (ERR_WORKER_OUT_OF_MEMORY) or any other end without an answer.
    worker.once('error', () => settle(notReadable));
    worker.once('exit', () => settle(notReadable));
  });
}

const refusalMessages: Partial<Record<ErrorCode, string>> = {
  UNSUPPORTED_FILE_TYPE: 'The file is no CSV, XLSX or XLS file',
  UPLOAD_NOT_READABLE: 'File could not be read within the limits',
  CSV_SEPARATOR_NOT_SUPPORTED: 'The CSV file uses another separator',
};

/** The rows of a station import's file, read in a worker with CPU-time and memory limits (`parse-worker.mjs`), or its 4xx. */
export async function parseImportFile(bytes: Uint8Array, limits: ParseLimits): Promise<ParsedFile> {
  const done = await takeTurn(limits.concurrency);
  let answer: WorkerAnswer;
  try {
    answer = await runWorker(bytes, limits);
  } finally {
    done();
  }
  if (answer.ok) return { format: answer.format, rows: answer.rows };
  const status: ContentfulStatusCode = answer.code === 'UPLOAD_NOT_READABLE' ? 422 : 400;
  throw new ApiError(status, answer.code, refusalMessages[answer.code] ?? 'The file could not be read', answer.detail, [
    { path: 'file', message: answer.code },
  ]);
}

const parsedFiles = new WeakMap<Request, ParsedFile>();

/** The file the route's check read, for the handler in the transaction. */
export function parsedFileOf(c: Context<AppBindings>): ParsedFile {
  const parsed = parsedFiles.get(c.req.raw);
  if (!parsed) throw new Error('station import: the upload check did not run');
  return parsed;
}

/**
 * The station import's upload check (`Route.checkUpload`), the support mail's gate reused: the
 * caller's refused uploads before the body is read (429 once spent), then, after it is read and
 * before the transaction, the file's size, the separator and the parsing; a file refused as a
 * whole counts against the refused uploads. Mistakes in rows are the handler's and count nothing.
 */
export const importUploadCheck: { quota: MiddlewareHandler<AppBindings>; check: MiddlewareHandler<AppBindings> } = {
  quota: async (c, next) => {
    await checkThrottles(c.get('db'), [refusedUploadKey(c.get('auth').user.id)]);
    await next();
  },
  check: async (c, next) => {
    const { csvSeparator } = parseQuery(c, stationImportQuerySchema);
    if (!(supportedCsvSeparators as readonly string[]).includes(csvSeparator)) {
      throw new ApiError(400, 'CSV_SEPARATOR_NOT_SUPPORTED', 'CSV separator not supported', { separator: csvSeparator });
    }
    const file = (await readFormData(c))?.get('file');
    if (!file || typeof file === 'string') {
      throw new ApiError(400, 'VALIDATION_ERROR', 'A file is required in the multipart field "file"', undefined, [
        { path: 'file', message: 'required' },
      ]);
    }
    const env = c.get('env');
    if (file.size > env.STATION_IMPORT_MAX_BYTES) {
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'File too large', { maxBytes: env.STATION_IMPORT_MAX_BYTES });
    }
    try {
      parsedFiles.set(c.req.raw, await parseImportFile(new Uint8Array(await file.arrayBuffer()), parseLimitsOf(env, csvSeparator)));
    } catch (err) {
      if (err instanceof ApiError) await hitThrottle(c.get('db'), refusedUploadKey(c.get('auth').user.id), refusedUploadLimit);
      throw err;
    }
    await next();
  },
};
