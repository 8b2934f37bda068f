import { createStore, type UseStore } from 'idb-keyval';
import { apiRequest, refreshAccessToken, type HttpMethod } from '../api/client';
import type { ServiceName } from '../api/config';
import { ApiError, NetworkError, ResponseShapeError, SessionExpiredError, isAbortError } from '../api/errors';
import { getClaims, getTokens, isAccessTokenValid, subscribeTokens } from '../auth/token-store';
import { isOnline } from './online-status';

/**
 * The outbox: writes made in the field (parking-lot assignments, Active/Standby switches) are
 * persisted to IndexedDB before `enqueue` resolves and replayed from there, in creation order and
 * strictly in order per `scope` (entity id). Every write keeps the Idempotency-Key it was born with,
 * so a resend after a lost answer, a reload or a killed tab gets the server's stored answer instead
 * of applying the change twice. Nothing is dropped without the user discarding it.
 */

export const OUTBOX_DB = 'cpo-cockpit-outbox';
export const OUTBOX_STORE = 'writes';
export const OUTBOX_LOCK = 'cpo-outbox';
const CHANNEL = 'cpo-outbox';

export type OutboxKind = 'parking-lot' | 'availability';
export type OutboxState = 'pending' | 'sending' | 'done' | 'failed' | 'waiting-for-sign-in';

export interface OutboxRequest {
  service: ServiceName;
  path: string;
  method: Exclude<HttpMethod, 'GET'>;
  body?: unknown;
  /** Plain headers only (they are stored), e.g. `If-Match` with the version the user saw. */
  headers?: Record<string, string>;
}

export interface OutboxError {
  code: string;
  message: string;
  status?: number;
  detail?: unknown;
}

export interface OutboxWrite {
  id: string;
  idempotencyKey: string;
  /** Entity the write touches (e.g. the connector id); writes of one scope go out strictly in order. */
  scope: string;
  kind: OutboxKind;
  /** What the user sees for this write, e.g. 'Ladepunkt 2 · Parkplatz P12'. */
  label: string;
  request: OutboxRequest;
  /** ms since epoch. */
  createdAt: number;
  /** Creation order (monotonic, also across reloads). */
  seq: number;
  /** `sub` of the user who made it: another user signing in on the same device does not send it. */
  owner: string | null;
  state: OutboxState;
  attempts: number;
  lastError: OutboxError | null;
  /** No attempt before this time (ms); 0 = at once. */
  nextAttemptAt: number;
  doneAt?: number;
  result?: unknown;
}

export interface EnqueueInput {
  scope: string;
  kind: OutboxKind;
  label: string;
  request: OutboxRequest;
}

/** What a 409 CONFLICT / 412 says the server has now (errorDetail). */
export interface ConflictDetail {
  connectorId?: string;
  currentVersion?: number | string;
  current?: { parkingLot?: string | null; connectorStatus?: string | null };
}

export type OutboxEffect = (write: OutboxWrite, result: unknown) => void;

const effects = new Map<OutboxKind, Set<OutboxEffect>>();

/**
 * What should happen after a write of `kind` went through (e.g. invalidate query keys). Closures do
 * not survive a reload, so effects are registered by kind at start-up rather than passed to enqueue.
 */
export function registerOutboxEffect(kind: OutboxKind, effect: OutboxEffect): () => void {
  let set = effects.get(kind);
  if (!set) effects.set(kind, (set = new Set()));
  set.add(effect);
  return () => set.delete(effect);
}

/** Runs the effects of a finished write (in the tab that sent it, and in every other open tab). */
function runEffects(write: OutboxWrite, result: unknown) {
  for (const effect of effects.get(write.kind) ?? []) {
    try {
      effect(write, result);
    } catch (error) {
      console.error(error);
    }
  }
}

export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 60_000;
/** Done writes stay visible this long, then are pruned. */
export const DONE_TTL_MS = 30_000;

export function backoffDelay(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

export function conflictDetail(error: OutboxError | null | undefined): ConflictDetail | null {
  if (!error || !(error.code === 'CONFLICT' || error.status === 412)) return null;
  const d = error.detail;
  return d && typeof d === 'object' ? (d as ConflictDetail) : null;
}

export type SendFn = (request: OutboxRequest & { headers: Record<string, string>; background: true }) => Promise<unknown>;

export interface OutboxOptions {
  store?: UseStore;
  /** Defaults to apiRequest. */
  send?: SendFn;
  /** Before a replay: throws SessionExpiredError when nobody can be signed in; refreshes an expired token. */
  ensureSession?: () => Promise<void>;
  now?: () => number;
  /** Web Locks; defaults to navigator.locks when present (pass null to use the in-page lock only). */
  locks?: Pick<LockManager, 'request'> | null;
  /** Current user's id; defaults to the token's `sub`. */
  currentUser?: () => string | null;
}

const defaultSend: SendFn = (request) => apiRequest(request);

async function defaultEnsureSession(): Promise<void> {
  if (!getTokens()) throw new SessionExpiredError({ status: 401, errorCodeResponse: 'UNAUTHORIZED' });
  // A token that expired while offline is refreshed first, instead of spending a 401 per write.
  if (!isAccessTokenValid()) await refreshAccessToken();
}

// Fallback when Web Locks are missing: serialises outboxes of this page (not across tabs; the
// server's idempotency keys still keep a concurrent resend from applying twice).
const pageLocks = new Map<string, Promise<unknown>>();
function withPageLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const previous = pageLocks.get(name) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.catch(() => undefined);
  pageLocks.set(name, tail);
  void tail.then(() => {
    if (pageLocks.get(name) === tail) pageLocks.delete(name);
  });
  return run;
}

function req<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function txDone(store: IDBObjectStore): Promise<void> {
  const tx = store.transaction;
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
}

const byOrder = (a: OutboxWrite, b: OutboxWrite) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const isOpen = (w: OutboxWrite) => w.state !== 'done';

function toOutboxError(error: unknown): OutboxError {
  if (error instanceof ApiError) {
    return { code: error.errorCodeResponse, message: error.errorMessage, status: error.status, detail: error.errorDetail };
  }
  if (error instanceof NetworkError) return { code: 'NETWORK_ERROR', message: error.message };
  return { code: 'UNKNOWN_ERROR', message: error instanceof Error ? error.message : String(error) };
}

type Outcome = 'done' | 'retry' | 'failed' | 'signin' | 'offline';

function classify(error: unknown): Outcome {
  if (error instanceof SessionExpiredError) return 'signin';
  // A 2xx with a body we cannot read: the server applied the write, so sending it again is pointless.
  if (error instanceof ResponseShapeError && error.status >= 200 && error.status < 300) return 'done';
  if (error instanceof NetworkError || isAbortError(error)) return 'offline';
  if (error instanceof ApiError) {
    if (error.status >= 500 || error.status === 408 || error.status === 429) return 'retry';
    if (error.status === 409 && error.errorCodeResponse === 'IDEMPOTENCY_KEY_IN_PROGRESS') return 'retry';
    return 'failed';
  }
  // Anything unexpected (config not loadable, …) is retried rather than dropped.
  return 'retry';
}

export interface OutboxCounts {
  /** Not yet done (pending, sending, failed, waiting). */
  open: number;
  pending: number;
  sending: number;
  failed: number;
  waiting: number;
  done: number;
}

export function countWrites(writes: readonly OutboxWrite[]): OutboxCounts {
  const counts: OutboxCounts = { open: 0, pending: 0, sending: 0, failed: 0, waiting: 0, done: 0 };
  for (const w of writes) {
    if (w.state === 'done') counts.done++;
    else {
      counts.open++;
      if (w.state === 'pending') counts.pending++;
      else if (w.state === 'sending') counts.sending++;
      else if (w.state === 'failed') counts.failed++;
      else counts.waiting++;
    }
  }
  return counts;
}

export class Outbox {
  private readonly store: UseStore;
  private readonly send: SendFn;
  private readonly ensureSession: () => Promise<void>;
  private readonly now: () => number;
  private readonly locks: Pick<LockManager, 'request'> | null;
  private readonly currentUser: () => string | null;
  private snapshot: readonly OutboxWrite[] = [];
  private readonly listeners = new Set<() => void>();
  private running: Promise<void> | null = null;
  private again = false;
  private skipBackoff = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastSeq = 0;
  private disposed = false;
  private channel: BroadcastChannel | null = null;
  private unwire: (() => void) | null = null;
  private readonly ready: Promise<void>;

  constructor(options: OutboxOptions = {}) {
    this.store = options.store ?? createStore(OUTBOX_DB, OUTBOX_STORE);
    this.send = options.send ?? defaultSend;
    this.ensureSession = options.ensureSession ?? defaultEnsureSession;
    this.now = options.now ?? Date.now;
    const nav = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }) : undefined;
    this.locks = options.locks === undefined ? (nav?.locks?.request ? nav.locks : null) : options.locks;
    this.currentUser = options.currentUser ?? (() => getClaims()?.sub ?? null);
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL);
      // Another tab changed the store: refresh, and run this tab's effects for writes that tab finished.
      this.channel.onmessage = () => void this.reload(true);
    }
    this.ready = this.reload();
  }

  // ---- reading -----------------------------------------------------------------------------

  getSnapshot = (): readonly OutboxWrite[] => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Resolves once the stored writes have been read. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  private async readAll(): Promise<OutboxWrite[]> {
    const all = await this.store('readonly', (os) => req(os.getAll() as IDBRequest<OutboxWrite[]>));
    return all.filter((w): w is OutboxWrite => !!w && typeof w === 'object' && typeof w.id === 'string').sort(byOrder);
  }

  private async reload(fromOtherTab = false): Promise<void> {
    const before = fromOtherTab ? new Map(this.snapshot.map((w) => [w.id, w.state])) : null;
    const all = await this.readAll();
    for (const w of all) this.lastSeq = Math.max(this.lastSeq, w.seq);
    this.snapshot = all;
    for (const listener of [...this.listeners]) listener();
    if (before) for (const w of all) if (w.state === 'done' && before.get(w.id) !== 'done') runEffects(w, w.result);
  }

  private async changed(): Promise<void> {
    await this.reload();
    this.channel?.postMessage('changed');
  }

  // ---- writing -----------------------------------------------------------------------------

  /**
   * Queues a write; resolves once it is stored in IndexedDB (so a reload or killed tab cannot lose
   * it), then starts a replay when online. The Idempotency-Key is fixed here, for good.
   */
  async enqueue(input: EnqueueInput): Promise<OutboxWrite> {
    await this.ready;
    const now = this.now();
    this.lastSeq = Math.max(this.lastSeq + 1, now * 1000);
    const write: OutboxWrite = {
      id: crypto.randomUUID(),
      idempotencyKey: crypto.randomUUID(),
      scope: input.scope,
      kind: input.kind,
      label: input.label,
      request: { ...input.request, headers: { ...input.request.headers } },
      createdAt: now,
      seq: this.lastSeq,
      owner: this.currentUser(),
      state: 'pending',
      attempts: 0,
      lastError: null,
      nextAttemptAt: 0,
    };
    await this.store('readwrite', (os) => {
      os.put(write, write.id);
      return txDone(os);
    });
    await this.changed();
    if (isOnline()) void this.replay();
    return write;
  }

  /** Puts a failed (or waiting / backing-off) write back in the queue and replays at once. */
  async retry(id: string): Promise<void> {
    await this.modify(id, (w) => (w.state === 'sending' || w.state === 'done' ? null : { ...w, state: 'pending', nextAttemptAt: 0 }));
    void this.replay();
  }

  /** Removes a write that is not on its way; returns false when it is being sent (or gone). */
  async discard(id: string): Promise<boolean> {
    const removed = await this.store('readwrite', async (os) => {
      const current = await req(os.get(id) as IDBRequest<OutboxWrite | undefined>);
      if (!current || current.state === 'sending') return false;
      os.delete(id);
      await txDone(os);
      return true;
    });
    await this.changed();
    // Later writes of the same scope may now go.
    if (removed) void this.replay();
    return removed;
  }

  /** Atomic read-modify-write of one record; `fn` returning null leaves it untouched. */
  private async modify(id: string, fn: (w: OutboxWrite) => OutboxWrite | null): Promise<OutboxWrite | null> {
    const next = await this.store('readwrite', async (os) => {
      const current = await req(os.get(id) as IDBRequest<OutboxWrite | undefined>);
      const updated = current ? fn(current) : null;
      if (!updated) return null;
      os.put(updated, id);
      await txDone(os);
      return updated;
    });
    await this.changed();
    return next;
  }

  /** Marks the writes of `write`'s scope still waiting behind it as failed with `lastError`. */
  private async parkFollowers(write: OutboxWrite, lastError: OutboxError): Promise<void> {
    const waiting = (w: OutboxWrite) => w.state === 'pending' || w.state === 'waiting-for-sign-in';
    const followers = (await this.readAll()).filter((w) => w.scope === write.scope && w.seq > write.seq && waiting(w));
    for (const f of followers) await this.modify(f.id, (w) => (waiting(w) ? { ...w, state: 'failed', lastError } : w));
  }

  private async remove(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.store('readwrite', (os) => {
      for (const id of ids) os.delete(id);
      return txDone(os);
    });
  }

  // ---- replay ------------------------------------------------------------------------------

  /**
   * Sends what is due. Single-flight: a call during a running replay makes it go round once more
   * instead of starting a second one; across tabs a Web Lock keeps two tabs from sending at once.
   * `skipBackoff` (connection back, app in the foreground, signed in) sends without waiting out
   * the backoff of earlier failures.
   */
  replay(options: { skipBackoff?: boolean } = {}): Promise<void> {
    if (this.disposed) return Promise.resolve();
    if (options.skipBackoff) this.skipBackoff = true;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.withLock(() => this.runOnce());
        } while (this.again && !this.disposed);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  private withLock<T>(fn: () => Promise<T>): Promise<T> {
    if (this.locks) return this.locks.request(OUTBOX_LOCK, fn) as Promise<T>;
    return withPageLock(OUTBOX_LOCK, fn);
  }

  private async runOnce(): Promise<void> {
    await this.ready;
    // Other tabs may have changed the queue; under the lock the stored copy is the truth.
    let writes = await this.readAll();
    const now = this.now();
    const skipBackoff = this.skipBackoff;
    this.skipBackoff = false;

    const expired = writes.filter((w) => w.state === 'done' && (w.doneAt ?? 0) + DONE_TTL_MS <= now).map((w) => w.id);
    if (expired.length > 0) {
      await this.remove(expired);
      // So other tabs drop them from their outbox list too.
      await this.changed();
    }
    writes = writes.filter((w) => !expired.includes(w.id));

    const user = this.currentUser();
    const due = (w: OutboxWrite) => isOpen(w) && w.state !== 'failed' && (skipBackoff || w.nextAttemptAt <= now) && w.owner === user;
    // Whoever holds the lock is the only sender, so a 'sending' left behind belongs to a killed tab.
    const stale = writes.filter((w) => w.state === 'sending').map((w) => w.id);
    for (const id of stale) await this.modify(id, (w) => (w.state === 'sending' ? { ...w, state: 'pending' } : null));

    if (writes.some(due) && isOnline()) {
      try {
        await this.ensureSession();
        // Signed in (again): writes that waited for it may go.
        for (const w of writes) {
          if (w.state === 'waiting-for-sign-in' && w.owner === user) {
            await this.modify(w.id, (c) => (c.state === 'waiting-for-sign-in' ? { ...c, state: 'pending' } : null));
          }
        }
        await this.sendDue(await this.readAll(), user, skipBackoff);
      } catch (error) {
        const outcome = classify(error);
        if (outcome === 'signin') await this.waitForSignIn();
        // Refresh failed for network/5xx reasons: try again later.
        else this.schedule(this.now() + BACKOFF_BASE_MS);
      }
    } else {
      await this.reload();
    }
    this.scheduleNext();
  }

  private async sendDue(writes: OutboxWrite[], user: string | null, skipBackoff: boolean): Promise<void> {
    const blocked = new Set<string>();
    for (const write of writes) {
      if (this.disposed || !isOnline()) return;
      if (write.state === 'done') continue;
      if (blocked.has(write.scope)) continue;
      // A failed write, one waiting for sign-in or one backing off holds back the later writes of its scope.
      if (write.state !== 'pending' || (!skipBackoff && write.nextAttemptAt > this.now()) || write.owner !== user) {
        blocked.add(write.scope);
        continue;
      }
      const claimed = await this.modify(write.id, (w) =>
        w.state === 'pending' ? { ...w, state: 'sending', attempts: w.attempts + 1 } : null,
      );
      if (!claimed) {
        blocked.add(write.scope);
        continue;
      }
      let outcome: Outcome;
      let result: unknown;
      let failure: unknown;
      try {
        result = await this.send({
          ...claimed.request,
          headers: { ...claimed.request.headers, 'Idempotency-Key': claimed.idempotencyKey },
          background: true,
        });
        outcome = 'done';
      } catch (error) {
        failure = error;
        outcome = classify(error);
      }
      const now = this.now();
      if (outcome === 'done') {
        const done = await this.modify(claimed.id, (w) => ({ ...w, state: 'done', doneAt: now, lastError: null, result }));
        runEffects(done ?? claimed, result);
        continue;
      }
      const lastError = toOutboxError(failure);
      if (outcome === 'failed') {
        await this.modify(claimed.id, (w) => ({ ...w, state: 'failed', lastError }));
        blocked.add(claimed.scope);
        // The writes queued behind a conflicting one were made on top of it (and carry the version it
        // would have left). Sent later, one could match a foreign change by chance and overwrite it
        // unseen, so they are parked with the same conflict for the user to look at.
        if (conflictDetail(lastError)) await this.parkFollowers(claimed, lastError);
        continue;
      }
      if (outcome === 'signin') {
        await this.modify(claimed.id, (w) => ({ ...w, state: 'waiting-for-sign-in', lastError }));
        await this.waitForSignIn();
        return;
      }
      await this.modify(claimed.id, (w) => ({ ...w, state: 'pending', lastError, nextAttemptAt: now + backoffDelay(w.attempts) }));
      blocked.add(claimed.scope);
      // No answer at all: the other scopes would not get one either.
      if (outcome === 'offline') return;
    }
  }

  /** The session is gone: every open write waits until someone signs in again. */
  private async waitForSignIn(): Promise<void> {
    const writes = await this.readAll();
    for (const w of writes) {
      if (w.state === 'pending' || w.state === 'sending') {
        await this.modify(w.id, (c) => (c.state === 'pending' || c.state === 'sending' ? { ...c, state: 'waiting-for-sign-in' } : null));
      }
    }
  }

  private scheduleNext(): void {
    const now = this.now();
    let next = Infinity;
    for (const w of this.snapshot) {
      if (w.state === 'pending' && w.nextAttemptAt > now) next = Math.min(next, w.nextAttemptAt);
      if (w.state === 'done') next = Math.min(next, (w.doneAt ?? now) + DONE_TTL_MS);
    }
    if (next !== Infinity) this.schedule(next);
  }

  private schedule(at: number): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.replay();
    }, Math.max(0, at - this.now()));
  }

  // ---- wiring ------------------------------------------------------------------------------

  /**
   * Replays now, and whenever the browser is online again, the page comes back to the foreground or
   * someone signs in. Idempotent; returns the unwiring.
   */
  start(): () => void {
    if (!this.unwire) {
      const kick = () => void this.replay({ skipBackoff: true });
      const onVisible = () => {
        if (document.visibilityState === 'visible') kick();
      };
      const stopTokens = subscribeTokens((change) => {
        if (change.type === 'set') kick();
      });
      if (typeof window !== 'undefined') window.addEventListener('online', kick);
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
      this.unwire = () => {
        stopTokens();
        if (typeof window !== 'undefined') window.removeEventListener('online', kick);
        if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', onVisible);
        this.unwire = null;
      };
    }
    void this.replay({ skipBackoff: true });
    return () => this.unwire?.();
  }

  /** Stops timers, listeners and the channel (tests, or a logout that ends the page). */
  dispose(): void {
    this.disposed = true;
    this.unwire?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.channel?.close();
    this.channel = null;
  }
}

let defaultOutbox: Outbox | null = null;

/** The app's outbox (created on first use). */
export function getOutbox(): Outbox {
  defaultOutbox ??= new Outbox();
  return defaultOutbox;
}

/** Tests: use `outbox` as the app's outbox (null to reset). */
export function setDefaultOutbox(outbox: Outbox | null): void {
  defaultOutbox = outbox;
}

/** Queues a write in the app's outbox; see Outbox.enqueue. */
export function enqueue(input: EnqueueInput): Promise<OutboxWrite> {
  return getOutbox().enqueue(input);
}

/** Call once at start-up (main.tsx): replays what is stored and wires the triggers. */
export function startOutbox(): () => void {
  return getOutbox().start();
}
