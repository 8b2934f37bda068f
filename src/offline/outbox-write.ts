import type { HttpMethod } from '../api/client';
import type { ServiceName } from '../api/config';

/** What a queued write is, as stored in IndexedDB (see outbox.ts for how it travels). */

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

export interface OutboxWrite<D = unknown> {
  id: string;
  idempotencyKey: string;
  /** Entity the write touches (e.g. the connector id); writes of one scope go out strictly in order. */
  scope: string;
  /** Registered write kind (write-kinds.ts), e.g. 'station.parking-lot': labels, effects, failure texts. */
  kind: string;
  /** The facts of the write the kind renders its label from, in the language of the moment. */
  data: D;
  /**
   * The version of the scope's entity this write expects (optimistic locking; the server moves it
   * on by one when it applies the write). Only on writes that carry one (see versioned-writes.ts).
   */
  version?: number;
  /** Only on writes queued by an app version before write kinds: their label as it was stored. */
  label?: string;
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

/** What an area hands to `Outbox.enqueue`. */
export interface NewWrite<D = unknown> {
  scope: string;
  kind: string;
  data: D;
  /** The entity version the write expects, when it carries one (also in its request). */
  version?: number;
  request: OutboxRequest;
}

export const byOrder = (a: OutboxWrite, b: OutboxWrite) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

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

/** A 409 CONFLICT or 412: the server's entity changed since the user saw it (`detail` says how). */
export function isConflict(error: OutboxError | null | undefined): error is OutboxError {
  return !!error && (error.code === 'CONFLICT' || error.status === 412);
}
