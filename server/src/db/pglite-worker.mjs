// @ts-check
/**
 * Runs PGlite in a worker thread, so no query blocks the server's event loop (see
 * `pglite-proxy.ts`, the main thread's side, and ARCHITECTURE.md's Server section).
 *
 * Messages in: `{ id, op, ... }`; each gets exactly one answer `{ id, ok, value | error }`.
 * A transaction (`begin`) stays open in PGlite until the main thread sends `end` for it; PGlite's
 * own transaction mutex makes every query outside it wait meanwhile, as it does in-process.
 * Plain JavaScript: Node 20 gives a worker thread no module hooks, so tsx cannot load TypeScript here.
 */
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
/** @typedef {import('./pglite-proxy').WorkerRequest} WorkerRequest */
/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts must run in a worker thread');

/** @type {{ options: { dataDir?: string; startParams?: string[] } }} */
const { options } = workerData;
// The options come from `pgliteOptions` (client.ts), the same as an in-process PGlite's.
const ready = PGlite.create(options);

/** @type {Map<number, { tx: Transaction; end: (commit: boolean) => void }>} */
const transactions = new Map();
/** @type {Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>} */
const ended = new Map();
class Rollback extends Error {}

/** The parsers drizzle passes keep a type's text as it is; functions cannot cross postMessage. */
/** @param {{ rowMode?: 'array' | 'object'; textTypes?: number[] } | undefined} opts */
function queryOptions(opts) {
  if (!opts) return undefined;
  /** @param {string} value */
  const keep = (value) => value;
  return { rowMode: opts.rowMode, parsers: Object.fromEntries((opts.textTypes ?? []).map((oid) => [oid, keep])) };
}

/** What a PostgreSQL error carries (code, detail, constraint, ...), as plain data. */
/** @param {unknown} err */
function serializeError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  /** @type {Record<string, unknown>} */
  const fields = {};
  for (const [k, v] of Object.entries(err)) if (typeof v !== 'function' && typeof v !== 'object') fields[k] = v;
  return { ...fields, name: err.name, message: err.message, stack: err.stack };
}

/**
 * @param {PGlite} pg
 * @param {WorkerRequest} msg
 * @returns {Promise<unknown>}
 */
async function handle(pg, msg) {
  switch (msg.op) {
    case 'query': {
      const target = msg.tx === undefined ? pg : transactions.get(msg.tx)?.tx;
      if (!target) throw new Error(`transaction ${msg.tx} is not open`);
      return target.query(msg.sql, msg.params, queryOptions(msg.options));
    }
    case 'exec': {
      const target = msg.tx === undefined ? pg : transactions.get(msg.tx)?.tx;
      if (!target) throw new Error(`transaction ${msg.tx} is not open`);
      return target.exec(msg.sql);
    }
    case 'begin': {
      // Answers with the transaction's id (this message's) once it is open; its outcome goes to
      // the answer of its `end` message.
      const txId = msg.id;
      return new Promise((opened, failed) => {
        pg.transaction(async (tx) => {
          /** @type {boolean} */
          const commit = await new Promise((end) => {
            transactions.set(txId, { tx, end });
            opened(txId);
          });
          if (!commit) throw new Rollback();
        }).then(
          () => ended.get(txId)?.resolve(null),
          (err) => (err instanceof Rollback ? ended.get(txId)?.resolve(null) : (ended.get(txId)?.reject(err), failed(err))),
        );
      });
    }
    case 'end': {
      const open = transactions.get(msg.tx);
      if (!open) throw new Error(`transaction ${msg.tx} is not open`);
      const tx = msg.tx;
      const result = new Promise((resolve, reject) => ended.set(tx, { resolve, reject }));
      transactions.delete(msg.tx);
      open.end(msg.commit);
      try {
        return await result;
      } finally {
        ended.delete(msg.tx);
      }
    }
    case 'memory':
      // heapUsed/heapTotal/external/arrayBuffers are this thread's (PGlite's WASM memory among
      // them); rss is the whole process's. With --expose-gc (bench/idle-memory.ts) the thread's
      // garbage is collected first, as an idle V8 does by itself after a while.
      /** @type {{ gc?: () => void }} */ (globalThis).gc?.();
      return process.memoryUsage();
    case 'close':
      await pg.close();
      return null;
  }
}
port.on('message', (/** @type {WorkerRequest} */ msg) => {
  ready
    .then((pg) => handle(pg, msg))
    .then(
      (value) => port.postMessage({ id: msg.id, ok: true, value }),
      (err) => port.postMessage({ id: msg.id, ok: false, error: serializeError(err) }),
    );
});
