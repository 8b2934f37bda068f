// @ts-check
/**
 * Runs PGlite in a worker thread, so no query blocks the server's event loop (see
 * `pglite-proxy.ts`, the main thread's side, and ARCHITECTURE.md's Server section).
 *
 * Messages in: `{ id, op, ... }`; each gets exactly one answer `{ id, ok, value | error }`.
 * A transaction (`begin`) stays open in PGlite until the main thread sends `end` for it; PGlite's
 * own transaction mutex makes every query outside it wait meanwhile, as it does in-process.
 * Each `query` runs as a named prepared statement kept per SQL text (`queryNamed`).
 * Plain JavaScript: Node 20 gives a worker thread no module hooks, so tsx cannot load TypeScript here.
 */
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse as pgliteParse, protocol } from '@electric-sql/pglite';
/** @typedef {import('./pglite-proxy').WorkerRequest} WorkerRequest */
/** @typedef {import('@electric-sql/pglite').Transaction} Transaction */
/** @typedef {import('@electric-sql/pglite').Results} Results */
/** @typedef {import('@electric-sql/pglite').messages.BackendMessage} BackendMessage */
/** @typedef {import('@electric-sql/pglite').messages.RowDescriptionMessage} RowDescriptionMessage */

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts must run in a worker thread');

/**
 * @type {{
 *   options: { dataDir?: string; startParams?: string[] };
 *   namedStatements: boolean;
 *   maxStatements: number;
 *   perCallPlans?: string;
 * }}
 */
const { options, namedStatements, maxStatements, perCallPlans } = workerData;
/** SQL parsed and planned for each call (`runPerCall`), not kept as a named statement. */
const unnamed = perCallPlans ? new RegExp(perCallPlans) : undefined;
// The options come from `pgliteOptions` (client.ts), the same as an in-process PGlite's.
const ready = PGlite.create(options);

/** @type {Map<number, { tx: Transaction; end: (commit: boolean) => void }>} */
const transactions = new Map();
/** @type {Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>} */
const ended = new Map();
class Rollback extends Error {}

/** The parsers drizzle passes keep a type's text as it is; functions cannot cross postMessage. */
/** @param {string} value */
const keep = (value) => value;
/** @type {Map<string, { rowMode?: 'array' | 'object'; parsers: Record<number, (value: string) => string> }>} */
const optionsByKey = new Map();
/**
 * The same object for the same options (drizzle sends one of two), so `mergedParsers` can key on it.
 * @param {{ rowMode?: 'array' | 'object'; textTypes?: number[] } | undefined} opts
 */
function queryOptions(opts) {
  if (!opts) return undefined;
  const key = `${opts.rowMode}:${opts.textTypes ?? ''}`;
  let made = optionsByKey.get(key);
  if (!made) {
    made = { rowMode: opts.rowMode, parsers: Object.fromEntries((opts.textTypes ?? []).map((oid) => [oid, keep])) };
    optionsByKey.set(key, made);
  }
  return made;
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
 * Named prepared statements, one per SQL text, at most `maxStatements` (the least recently used
 * one is closed for a new one). PGlite's own `query` parses, describes and plans every statement
 * anew in the unnamed statement, in six calls into PGlite each; a statement seen before here is
 * one call (Bind, Execute, Sync) that skips parsing and, after PostgreSQL's first five custom
 * plans, planning when its generic plan is no dearer. The answer is built by PGlite's own
 * `parseResults` with its parsers and the same values' serializers, so rows and errors are those
 * of `query`. Prepared statements belong to the connection (the one PGlite has), not to a
 * transaction: one made inside a transaction that rolls back stays valid. SQL matching
 * `perCallPlans` is planned for each call's values instead (a generic plan ignores them): see
 * `runPerCall`.
 */
/** Longer SQL (a multi-row insert) is likely one of a kind: it goes through `query` unnamed. */
const MAX_STATEMENT_SQL = 16_384;
/** @type {Map<string, { name: string; paramTypes: number[]; description: RowDescriptionMessage | undefined }>} */
const statements = new Map();
let nextStatement = 1;
const { serialize } = protocol;

/** PGlite's protocol parser, for every message but a data row (each `exchange` hands it whole messages). */
const parser = new protocol.Parser();

/**
 * Sends `message` (ending in Sync) and parses PGlite's answer like `execProtocolStream`, which
 * throws the first database error, but reads each data row's fields straight from the answer's
 * bytes: PGlite's parser copies every field into an ArrayBuffer of its own before decoding it,
 * most of its time for a page of rows. Every other message goes through PGlite's parser.
 * @param {PGlite} pg
 * @param {Uint8Array} message
 * @returns {Promise<BackendMessage[]>}
 */
async function exchange(pg, message) {
  /** @type {Uint8Array[]} */
  const chunks = [];
  // The bytes are a view into PGlite's memory, valid only during the call: copied.
  await pg.execProtocolRawStream(message, { syncToFs: false, onRawData: (bytes) => void chunks.push(bytes.slice()) });
  const buf = Buffer.concat(chunks);
  /** @type {BackendMessage[]} */
  const messages = [];
  /** @type {BackendMessage | undefined} */
  let error;
  for (let at = 0; at + 5 <= buf.length;) {
    const end = at + 1 + buf.readUInt32BE(at + 1);
    if (buf[at] === 0x44) {
      // DataRow: Int16 field count, then per field an Int32 length (-1: null) and its bytes.
      let p = at + 5;
      const fields = new Array(buf.readInt16BE(p));
      p += 2;
      for (let i = 0; i < fields.length; i++) {
        const length = buf.readInt32BE(p);
        p += 4;
        fields[i] = length === -1 ? null : buf.toString('utf8', p, p + length);
        if (length > 0) p += length;
      }
      messages.push(/** @type {BackendMessage} */ ({ name: 'dataRow', length: end - at - 1, fields }));
    } else {
      parser.parse(buf.subarray(at, end), (msg) => {
        if (msg.name === 'error') error ??= msg;
        else messages.push(msg);
      });
    }
    at = end;
  }
  if (error) throw error;
  return messages;
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
  let length = 0;
  for (const p of parts) length += p.byteLength;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * `query` through a named statement, or `runPerCall` for SQL matching `perCallPlans`. The caller holds PGlite's query mutex (and, outside a
 * transaction, its transaction mutex): exactly what `query` and a transaction's `query` hold.
 * @param {PGlite} pg
 * @param {string} sql
 * @param {unknown[]} params
 * @param {ReturnType<typeof queryOptions>} opts
 * @param {boolean} inTransaction
 * @returns {Promise<Results>}
 */
async function queryNamed(pg, sql, params, opts, inTransaction) {
  if (unnamed?.test(sql)) {
    try {
      return await runPerCall(pg, sql, params, opts);
    } catch (err) {
      perCallTypes.delete(sql);
      throw withQuery(err, sql, params, opts);
    } finally {
      if (!inTransaction) await pg.syncToFs();
    }
  }
  try {
    return await runNamed(pg, sql, params, opts);
  } catch (err) {
    // A plan that no longer fits its statement (a table changed under it: 0A000 "cached plan must
    // not change result type") is dropped; outside a transaction the statement is prepared anew and
    // run once more (nothing ran: the check comes before execution), inside one the error stands,
    // as PostgreSQL's own aborts the transaction.
    if (isDatabaseError(err) && err.code === '0A000' && (await forget(pg, sql)) && !inTransaction) {
      return await runNamed(pg, sql, params, opts).catch((again) => {
        throw withQuery(again, sql, params, opts);
      });
    }
    throw withQuery(err, sql, params, opts);
  } finally {
    if (!inTransaction) await pg.syncToFs();
  }
}

/** @param {unknown} err @returns {err is Error & { code?: string }} */
const isDatabaseError = (err) => err instanceof Error && 'code' in err;

/** What PGlite's `query` adds to a database error. @param {unknown} err @param {string} sql @param {unknown[]} params @param {unknown} opts */
function withQuery(err, sql, params, opts) {
  if (isDatabaseError(err)) Object.assign(err, { query: sql, params, queryOptions: opts });
  return err;
}

/** Closes the statement of `sql`; false when there was none. @param {PGlite} pg @param {string} sql */
async function forget(pg, sql) {
  const statement = statements.get(sql);
  if (!statement) return false;
  statements.delete(sql);
  await pg.execProtocolStream(concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]), {
    syncToFs: false,
    throwOnError: false,
  });
  return true;
}

/** @type {WeakMap<object, PGlite["parsers"]>} */
const parsersByOptions = new WeakMap();
/**
 * PGlite's parsers with those of `opts` on top.
 * @param {PGlite} pg
 * @param {ReturnType<typeof queryOptions>} opts
 */
function mergedParsers(pg, opts) {
  if (!opts) return pg.parsers;
  let merged = parsersByOptions.get(opts);
  if (!merged) parsersByOptions.set(opts, (merged = { ...pg.parsers, ...opts.parsers }));
  return merged;
}

/**
 * @param {PGlite} pg
 * @param {string} sql
 * @param {unknown[]} params
 * @param {ReturnType<typeof queryOptions>} opts
 * @returns {Promise<Results>}
 */
async function runNamed(pg, sql, params, opts) {
  let statement = statements.get(sql);
  if (statement) {
    // Least recently used first: a Map keeps insertion order.
    statements.delete(sql);
    statements.set(sql, statement);
  } else {
    /** @type {Uint8Array[]} */
    const parts = [];
    if (statements.size >= maxStatements) {
      for (const [oldestSql, oldest] of statements) {
        statements.delete(oldestSql);
        parts.push(serialize.close({ type: 'S', name: oldest.name }));
        break;
      }
    }
    const name = `w${nextStatement++}`;
    parts.push(serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync());
    // A statement that does not parse throws here and is not kept.
    const messages = await exchange(pg, concat(parts));
    statement = {
      name,
      paramTypes: pgliteParse.parseDescribeStatementResults(messages),
      description: /** @type {RowDescriptionMessage | undefined} */ (messages.find((m) => m.name === 'rowDescription')),
    };
    statements.set(sql, statement);
  }
  const values = serializeValues(pg, statement.paramTypes, params);
  /** @type {BackendMessage[]} */
  const messages = await exchange(
    pg,
    concat([serialize.bind({ statement: statement.name, values }), serialize.execute(), serialize.sync()]),
  );
  if (statement.description) messages.unshift(statement.description);
  // PGlite's `parseResults` would copy all its parsers (some hundred) to put the options' on top,
  // on every call: done once per options here.
  return pgliteParse.parseResults(messages, mergedParsers(pg, opts), opts && { rowMode: opts.rowMode })[0];
}

/**
 * The values as PGlite's `query` sends them: by the serializer of each parameter's type, else as text.
 * @param {PGlite} pg
 * @param {number[]} paramTypes
 * @param {unknown[]} params
 */
function serializeValues(pg, paramTypes, params) {
  return params.map((param, i) => {
    if (param === null || param === undefined) return null;
    const serializer = pg.serializers[paramTypes[i]];
    return serializer ? serializer(param) : String(param);
  });
}

/** The parameter types of SQL planned per call, by its text (at most `maxStatements`). */
/** @type {Map<string, number[]>} */
const perCallTypes = new Map();

/**
 * SQL planned for each call's values, in the unnamed statement as PGlite's `query` does, but in one
 * call into PGlite (Parse, Bind, Describe, Execute, Sync) instead of six: the parameters' types,
 * which their serializers need before Bind, are asked once per SQL text (Parse, Describe, Sync) and
 * kept. The answer's columns come with every call (Describe of the portal).
 * @param {PGlite} pg
 * @param {string} sql
 * @param {unknown[]} params
 * @param {ReturnType<typeof queryOptions>} opts
 * @returns {Promise<Results>}
 */
async function runPerCall(pg, sql, params, opts) {
  let paramTypes = perCallTypes.get(sql);
  if (!paramTypes) {
    const described = await exchange(pg, concat([serialize.parse({ text: sql }), serialize.describe({ type: 'S' }), serialize.sync()]));
    paramTypes = pgliteParse.parseDescribeStatementResults(described);
    for (const oldest of perCallTypes.keys()) {
      if (perCallTypes.size < maxStatements) break;
      perCallTypes.delete(oldest);
    }
    perCallTypes.set(sql, paramTypes);
  }
  const values = serializeValues(pg, paramTypes, params);
  const messages = await exchange(
    pg,
    concat([
      serialize.parse({ text: sql }),
      serialize.bind({ values }),
      serialize.describe({ type: 'P' }),
      serialize.execute(),
      serialize.sync(),
    ]),
  );
  return pgliteParse.parseResults(messages, mergedParsers(pg, opts), opts && { rowMode: opts.rowMode })[0];
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
      const opts = queryOptions(msg.options);
      if (!namedStatements || msg.sql.length > MAX_STATEMENT_SQL) {
        return target.query(msg.sql, msg.params, opts);
      }
      const params = msg.params ?? [];
      // The same locks as `query` (outside a transaction) and a transaction's `query` take.
      if (msg.tx !== undefined) return pg._runExclusiveQuery(() => queryNamed(pg, msg.sql, params, opts, true));
      return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => queryNamed(pg, msg.sql, params, opts, false)));
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
