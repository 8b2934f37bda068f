/**
 * The main thread's side of PGlite in a worker thread (`pglite-worker.ts`): an object with the
 * methods drizzle's pglite driver calls on a PGlite (`query`, `exec`, `transaction`), each a
 * message to the worker. So the server's event loop only waits for the answer, never for the query.
 */
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';

type ProxyQueryOptions = { rowMode?: 'array' | 'object'; textTypes?: number[] };
export type WorkerRequest =
  | { id: number; op: 'query'; tx?: number; sql: string; params?: unknown[]; options?: ProxyQueryOptions }
  | { id: number; op: 'exec'; tx?: number; sql: string }
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'memory' }
  | { id: number; op: 'close' };
type Distribute<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = Distribute<WorkerRequest>;
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: Record<string, unknown> };

interface QueryOptionsIn {
  rowMode?: 'array' | 'object';
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

/** An error as the worker saw it: message, PostgreSQL's code, detail, constraint ... */
function revive(data: Record<string, unknown>): Error {
  const err = new Error(String(data.message));
  Object.assign(err, data);
  return err;
}

/** What `drizzle-orm/pglite` needs of a client; `tx` is set inside a transaction. */
class ProxyClient {
  constructor(
    protected readonly send: (req: Request) => Promise<unknown>,
    private readonly tx?: number,
  ) {}

  query<T>(sql: string, params?: unknown[], options?: QueryOptionsIn): Promise<Results<T>> {
    // drizzle's parsers only keep timestamps, dates, intervals and numeric arrays as text: the
    // worker rebuilds them from the type ids. A serializer or `blob` could not cross, so none is used.
    const opts: ProxyQueryOptions | undefined = options && {
      rowMode: options.rowMode,
      textTypes: Object.keys(options.parsers ?? {}).map(Number),
    };
    return this.send({ op: 'query', tx: this.tx, sql, params, options: opts }) as Promise<Results<T>>;
  }

  exec(sql: string): Promise<Results[]> {
    return this.send({ op: 'exec', tx: this.tx, sql }) as Promise<Results[]>;
  }
}

class ProxyTransaction extends ProxyClient {}

export class PgliteWorkerClient extends ProxyClient {
  private constructor(
    send: (req: Request) => Promise<unknown>,
    private readonly worker: Worker,
  ) {
    super(send);
  }

  /**
   * Starts the worker with PGlite's options (plain data: no dataDir keeps it in memory). Resolves
   * when it is open. `namedStatements` (default on) runs each `query` as a named prepared
   * statement per SQL text, at most `maxStatements` of them (`pglite-worker.mjs`), except SQL
   * matching `perCallPlans` (a regular expression's source); off, PGlite's own `query` (unnamed,
   * parsed and planned per call) runs every one.
   */
  static async start(
    options: { dataDir?: string; startParams?: string[] },
    {
      namedStatements = true,
      maxStatements = 500,
      perCallPlans,
    }: { namedStatements?: boolean; maxStatements?: number; perCallPlans?: string } = {},
  ): Promise<PgliteWorkerClient> {
    // JavaScript, not TypeScript: Node 20 applies no module hooks (tsx) in a worker thread.
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { options, namedStatements, maxStatements, perCallPlans },
      execArgv: [],
    });
    const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
    let nextId = 1;
    let dead: Error | undefined;
    const failAll = (err: Error) => {
      dead = err;
      for (const p of pending.values()) p.reject(err);
      pending.clear();
    };
    worker.on('message', (reply: WorkerReply) => {
      const p = pending.get(reply.id);
      if (!p) return;
      pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.value);
      else p.reject(revive(reply.error));
    });
    worker.on('error', (err) => failAll(err));
    worker.on('exit', (code) => failAll(new Error(`PGlite worker exited (code ${code})`)));
    const send = (req: Request) =>
      new Promise<unknown>((resolve, reject) => {
        if (dead) return reject(dead);
        const id = nextId++;
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...req, id });
      });
    const client = new PgliteWorkerClient(send, worker);
    await client.query('select 1');
    return client;
  }

  /**
   * Runs `fn` in one PGlite transaction: committed when it resolves, rolled back when it throws.
   * Until then every other statement waits in the worker (PGlite runs one transaction at a time).
   */
  async transaction<T>(fn: (tx: ProxyTransaction) => Promise<T>): Promise<T> {
    const txId = (await this.send({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await fn(new ProxyTransaction(this.send, txId));
    } catch (err) {
      // The fault that counts is `err`, thrown on to whoever logs it; a failed rollback after it
      // (the worker gone) would only hide it.
      await this.send({ op: 'end', tx: txId, commit: false }).catch(() => undefined);
      throw err;
    }
    await this.send({ op: 'end', tx: txId, commit: true });
    return result;
  }

  /** The worker thread's memory (its heap and buffers; `rss` is the whole process's). */
  memory(): Promise<NodeJS.MemoryUsage> {
    return this.send({ op: 'memory' }) as Promise<NodeJS.MemoryUsage>;
  }

  async close(): Promise<void> {
    await this.send({ op: 'close' });
    await this.worker.terminate();
  }

  /** The worker's thread id (for reports of its memory, which `process.memoryUsage()` includes). */
  get threadId() {
    return this.worker.threadId;
  }
}
