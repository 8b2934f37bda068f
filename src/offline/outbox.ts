import type { UseStore } from 'idb-keyval';
import { apiRequest, refreshAccessToken } from '../api/client';
import { SessionExpiredError } from '../api/errors';
import { getClaims, getTokens, isAccessTokenValid, subscribeTokens } from '../auth/token-store';
import { isOnline, subscribeOnlineStatus } from './online-status';
import { BACKOFF_BASE_MS, DONE_TTL_MS, PARALLEL_SCOPES, backoffDelay, classify, toOutboxError, type Outcome } from './outbox-policy';
import { OutboxStore } from './outbox-store';
import { byOrder, isConflict, type NewWrite, type OutboxError, type OutboxRequest, type OutboxWrite } from './outbox-write';

/**
 * The outbox: writes made in the field are persisted to IndexedDB before `enqueue` resolves and
 * replayed from there, strictly in order per `scope` (entity id), several scopes side by side. Every
 * write keeps the Idempotency-Key it was born with, so a resend after a lost answer, a reload or a
 * killed tab gets the server's stored answer instead of applying the change twice. Nothing is
 * dropped without the user discarding it. It knows no area: kinds, labels and effects are
 * registered in write-kinds.ts; `onApplied` tells the query cache what went through.
 */

export const OUTBOX_LOCK = 'cpo-outbox';
const CHANNEL = 'cpo-outbox';

/**
 * `blocked`: a write of the same entity before it was refused and waits for the user (fix it with
 * 'Erneut bearbeiten' or discard it), so this one cannot go, online or not; the outbox button says so
 * with the way to the refused one (`blockerOf`).
 */
export type SubmitOutcome = 'saved' | 'queued' | 'failed' | 'blocked';
/** How long `submit` waits for the server before saying 'on its way'. */
export const SUBMIT_WAIT_MS = 10_000;

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

const isWaiting = (w: OutboxWrite) => w.state === 'pending' || w.state === 'waiting-for-sign-in';

export class Outbox {
  private readonly store: OutboxStore;
  private readonly send: SendFn;
  private readonly ensureSession: () => Promise<void>;
  private readonly now: () => number;
  private readonly locks: Pick<LockManager, 'request'> | null;
  private readonly currentUser: () => string | null;
  /** The stored writes in creation order, kept in step with each change (no store read per change). */
  private snapshot: readonly OutboxWrite[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly appliedListeners = new Set<(write: OutboxWrite) => void>();
  private readonly refusedListeners = new Set<(write: OutboxWrite) => void>();
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
    this.store = new OutboxStore(options.store);
    this.send = options.send ?? defaultSend;
    this.ensureSession = options.ensureSession ?? defaultEnsureSession;
    this.now = options.now ?? Date.now;
    const nav = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }) : undefined;
    this.locks = options.locks === undefined ? (nav?.locks?.request ? nav.locks : null) : options.locks;
    this.currentUser = options.currentUser ?? (() => getClaims()?.sub ?? null);
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL);
      // Another tab changed these writes: read just them, and run this tab's effects for the ones it finished.
      this.channel.onmessage = (event: MessageEvent<{ ids?: string[] }>) => {
        const ids = event.data?.ids;
        void (Array.isArray(ids) ? this.refresh(ids, true) : this.reloadAll());
      };
    }
    this.ready = this.reloadAll();
  }

  // ---- reading -----------------------------------------------------------------------------

  getSnapshot = (): readonly OutboxWrite[] => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Called with every write the server applied (in the tab that sent it and in every other open
   * tab), e.g. to refresh the queries it changed.
   */
  onApplied(listener: (write: OutboxWrite) => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /**
   * Called with every write the server refused (in every open tab): the screen showed the entity
   * as it no longer is (a colleague's change, another status), so what the write names is refreshed.
   */
  onRefused(listener: (write: OutboxWrite) => void): () => void {
    this.refusedListeners.add(listener);
    return () => this.refusedListeners.delete(listener);
  }

  /** Resolves once the stored writes have been read. */
  whenReady(): Promise<void> {
    return this.ready;
  }

  private publish(next: readonly OutboxWrite[]): void {
    this.snapshot = next;
    for (const w of next) this.lastSeq = Math.max(this.lastSeq, w.seq);
    for (const listener of [...this.listeners]) listener();
  }

  private notify(listeners: ReadonlySet<(write: OutboxWrite) => void>, write: OutboxWrite): void {
    for (const listener of [...listeners]) {
      try {
        listener(write);
      } catch (error) {
        console.error(error);
      }
    }
  }

  private async reloadAll(): Promise<void> {
    this.publish(await this.store.readAll());
  }

  /** Takes the stored state of `ids` into the snapshot (a write gone from the store leaves it). */
  private async refresh(ids: readonly string[], fromOtherTab = false): Promise<void> {
    const stored = await this.store.read(ids);
    const before = new Map(this.snapshot.map((w) => [w.id, w]));
    const next = new Map(before);
    ids.forEach((id, i) => {
      const w = stored[i];
      if (w) next.set(id, w);
      else next.delete(id);
    });
    this.publish([...next.values()].sort(byOrder));
    if (!fromOtherTab) return;
    for (const w of stored) {
      if (w?.state === 'done' && before.get(w.id)?.state !== 'done') this.notify(this.appliedListeners, w);
      if (w?.state === 'failed' && before.get(w.id)?.state !== 'failed') this.notify(this.refusedListeners, w);
    }
  }

  /** One write changed in this tab: the snapshot follows, and the other tabs read it. */
  private local(id: string, write: OutboxWrite | null): void {
    const i = this.snapshot.findIndex((w) => w.id === id);
    let next: OutboxWrite[];
    if (!write) next = this.snapshot.filter((w) => w.id !== id);
    else if (i >= 0) next = this.snapshot.map((w, j) => (j === i ? write : w));
    else next = [...this.snapshot, write].sort(byOrder);
    this.publish(next);
    this.broadcast([id]);
  }

  private broadcast(ids: string[]): void {
    if (ids.length > 0) this.channel?.postMessage({ ids });
  }

  // ---- writing -----------------------------------------------------------------------------

  /**
   * Queues a write; resolves once it is stored in IndexedDB (so a reload or killed tab cannot lose
   * it), then starts a replay when online. The Idempotency-Key is fixed here, for good.
   */
  async enqueue<D>(input: NewWrite<D>): Promise<OutboxWrite<D>> {
    await this.ready;
    const now = this.now();
    this.lastSeq = Math.max(this.lastSeq + 1, now * 1000);
    const write: OutboxWrite<D> = {
      id: crypto.randomUUID(),
      idempotencyKey: crypto.randomUUID(),
      scope: input.scope,
      kind: input.kind,
      data: input.data,
      ...(input.version !== undefined && { version: input.version }),
      request: { ...input.request, headers: { ...input.request.headers } },
      createdAt: now,
      seq: this.lastSeq,
      owner: this.currentUser(),
      state: 'pending',
      attempts: 0,
      lastError: null,
      nextAttemptAt: 0,
    };
    await this.store.add(write);
    this.local(write.id, write);
    if (isOnline()) void this.replay();
    return write;
  }

  /**
   * Queues the writes of one user action and tells how it went, for the message the user sees:
   * online it waits (up to `waitMs`) for the server's answers: 'saved' when all were applied,
   * 'failed' when one was refused (the outbox shows why); 'queued' offline or when the answers take
   * longer (they are still on their way).
   */
  async submit(inputs: readonly NewWrite[], waitMs = SUBMIT_WAIT_MS): Promise<SubmitOutcome> {
    const ids = new Set<string>();
    for (const input of inputs) ids.add((await this.enqueue(input)).id);
    const mineNow = () => this.snapshot.filter((w) => ids.has(w.id));
    if (mineNow().some((w) => w.state !== 'failed' && this.blockerOf(w))) return 'blocked';
    if (!isOnline()) return 'queued';
    return new Promise((resolve) => {
      const check = () => {
        const mine = mineNow();
        if (mine.some((w) => w.state === 'failed')) finish('failed');
        else if (mine.some((w) => this.blockerOf(w))) finish('blocked');
        else if (mine.every((w) => w.state === 'done')) finish('saved');
      };
      const timer = setTimeout(() => finish('queued'), waitMs);
      const stop = this.subscribe(check);
      // A request that got no answer meanwhile (lie-fi): the writes wait on the device, say so now.
      const stopStatus = subscribeOnlineStatus(() => {
        if (!isOnline()) finish('queued');
      });
      const finish = (outcome: SubmitOutcome) => {
        clearTimeout(timer);
        stop();
        stopStatus();
        resolve(outcome);
      };
      check();
    });
  }

  /**
   * The refused write that holds `write` back: an earlier write of its scope that failed and waits
   * for the user. Null when nothing holds it (or it is through).
   */
  blockerOf(write: OutboxWrite): OutboxWrite | null {
    if (write.state === 'done' || write.state === 'failed') return null;
    return this.snapshot.find((w) => w.scope === write.scope && w.seq < write.seq && w.state === 'failed') ?? null;
  }

  /** Puts a failed (or waiting / backing-off) write back in the queue and replays at once. */
  async retry(id: string): Promise<void> {
    await this.modify(id, (w) => (w.state === 'sending' || w.state === 'done' ? null : { ...w, state: 'pending', nextAttemptAt: 0 }));
    void this.replay();
  }

  /** Removes a write that is not on its way; returns false when it is being sent (or gone). */
  async discard(id: string): Promise<boolean> {
    const removed = await this.store.removeIf(id, (w) => w.state !== 'sending');
    if (removed) {
      this.local(id, null);
      // Later writes of the same scope may now go.
      void this.replay();
    }
    return removed;
  }

  /** Atomic read-modify-write of one record; `fn` returning null leaves it untouched. */
  private async modify(id: string, fn: (w: OutboxWrite) => OutboxWrite | null): Promise<OutboxWrite | null> {
    const next = await this.store.update(id, fn);
    if (next) this.local(id, next);
    return next;
  }

  /** Marks the writes of `write`'s scope still waiting behind it as failed with `lastError`. */
  private async parkFollowers(write: OutboxWrite, lastError: OutboxError): Promise<void> {
    const followers = this.snapshot.filter((w) => w.scope === write.scope && w.seq > write.seq && isWaiting(w));
    for (const f of followers) await this.modify(f.id, (w) => (isWaiting(w) ? { ...w, state: 'failed', lastError } : null));
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
    await this.reloadAll();
    const now = this.now();
    const skipBackoff = this.skipBackoff;
    this.skipBackoff = false;

    const expired = this.snapshot.filter((w) => w.state === 'done' && (w.doneAt ?? 0) + DONE_TTL_MS <= now).map((w) => w.id);
    if (expired.length > 0) {
      await this.store.remove(expired);
      this.publish(this.snapshot.filter((w) => !expired.includes(w.id)));
      // So other tabs drop them from their outbox list too.
      this.broadcast(expired);
    }

    const user = this.currentUser();
    const due = (w: OutboxWrite) =>
      w.state !== 'done' && w.state !== 'failed' && (skipBackoff || w.nextAttemptAt <= now) && w.owner === user;
    // Whoever holds the lock is the only sender, so a 'sending' left behind belongs to a killed tab.
    for (const w of this.snapshot.filter((s) => s.state === 'sending')) {
      await this.modify(w.id, (c) => (c.state === 'sending' ? { ...c, state: 'pending' } : null));
    }

    if (this.snapshot.some(due) && isOnline()) {
      try {
        await this.ensureSession();
        // Signed in (again): writes that waited for it may go.
        for (const w of this.snapshot.filter((s) => s.state === 'waiting-for-sign-in' && s.owner === user)) {
          await this.modify(w.id, (c) => (c.state === 'waiting-for-sign-in' ? { ...c, state: 'pending' } : null));
        }
        await this.sendDue(user, skipBackoff);
      } catch (error) {
        if (classify(error) === 'signin') await this.waitForSignIn();
        // Refresh failed for network/5xx reasons: try again later.
        else this.schedule(this.now() + BACKOFF_BASE_MS);
      }
    }
    this.scheduleNext();
  }

  /**
   * Up to PARALLEL_SCOPES scopes at a time, each strictly in order: a write that is not through
   * (failed, backing off after a 5xx or a network error, waiting for sign-in, another user's) holds
   * back the rest of its scope only. Going offline or a lost session stops every scope.
   */
  private async sendDue(user: string | null, skipBackoff: boolean): Promise<void> {
    const queues = new Map<string, OutboxWrite[]>();
    for (const w of this.snapshot) {
      if (w.state === 'done') continue;
      const queue = queues.get(w.scope);
      if (queue) queue.push(w);
      else queues.set(w.scope, [w]);
    }
    const jobs = [...queues.values()].map((writes) => ({ writes, skipBackoff }));
    const stop: { reason: Outcome | null } = { reason: null };
    const worker = async () => {
      for (let job = jobs.shift(); job && !stop.reason; job = jobs.shift()) {
        for (const [i, write] of job.writes.entries()) {
          if (this.disposed || !isOnline()) stop.reason ??= 'offline';
          if (stop.reason || write.state !== 'pending' || write.owner !== user) break;
          if (!job.skipBackoff && write.nextAttemptAt > this.now()) break;
          const outcome = await this.sendOne(write);
          if (outcome === 'done') continue;
          // A lost session stops every scope; a network error or 5xx backs off this scope only
          // (the others may well get through, and going offline is caught above).
          if (outcome === 'signin') stop.reason ??= outcome;
          else if ((outcome === 'offline' || outcome === 'retry') && this.skipBackoff) {
            // The connection came back (or the user asked) while this round runs: the scope goes
            // again at the end of this round instead of waiting for the next one. Once per signal.
            this.skipBackoff = false;
            jobs.push({ writes: job.writes.slice(i), skipBackoff: true });
          }
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_SCOPES }, worker));
    if (stop.reason === 'signin') await this.waitForSignIn();
  }

  /** Claims, sends and records one write; answers how it went. */
  private async sendOne(write: OutboxWrite): Promise<Outcome> {
    const claimed = await this.modify(write.id, (w) =>
      w.state === 'pending' ? { ...w, state: 'sending', attempts: w.attempts + 1 } : null,
    );
    if (!claimed) return 'failed';
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
      this.notify(this.appliedListeners, done ?? claimed);
      return 'done';
    }
    const lastError = toOutboxError(failure);
    if (outcome === 'failed') {
      const refused = await this.modify(claimed.id, (w) => ({ ...w, state: 'failed', lastError }));
      this.notify(this.refusedListeners, refused ?? claimed);
      // The writes queued behind a conflicting one were made on top of it (and carry the version it
      // would have left). Sent later, one could match a foreign change by chance and overwrite it
      // unseen, so they are parked with the same conflict for the user to look at.
      if (isConflict(lastError)) await this.parkFollowers(claimed, lastError);
    } else if (outcome === 'signin') {
      await this.modify(claimed.id, (w) => ({ ...w, state: 'waiting-for-sign-in', lastError }));
    } else {
      await this.modify(claimed.id, (w) => ({ ...w, state: 'pending', lastError, nextAttemptAt: now + backoffDelay(w.attempts) }));
    }
    return outcome;
  }

  /** The session is gone: every open write waits until someone signs in again. */
  private async waitForSignIn(): Promise<void> {
    for (const w of this.snapshot.filter((s) => s.state === 'pending' || s.state === 'sending')) {
      await this.modify(w.id, (c) => (c.state === 'pending' || c.state === 'sending' ? { ...c, state: 'waiting-for-sign-in' } : null));
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
    this.timer = setTimeout(
      () => {
        this.timer = null;
        void this.replay();
      },
      Math.max(0, at - this.now()),
    );
  }

  // ---- wiring ------------------------------------------------------------------------------

  /**
   * Replays now, and whenever the server can be reached again (the browser's `online` event, or the
   * first answer after lie-fi: online-status.ts), the page comes back to the foreground or someone
   * signs in. Idempotent; returns the unwiring.
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
      let wasOnline = isOnline();
      const stopStatus = subscribeOnlineStatus(() => {
        const online = isOnline();
        if (online && !wasOnline) kick();
        wasOnline = online;
      });
      if (typeof window !== 'undefined') window.addEventListener('online', kick);
      if (typeof document !== 'undefined') document.addEventListener('visibilitychange', onVisible);
      this.unwire = () => {
        stopTokens();
        stopStatus();
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

let appOutbox: Outbox | null = null;

/** The app's outbox (created on first use). */
export function getOutbox(): Outbox {
  appOutbox ??= new Outbox();
  return appOutbox;
}
