import type { NewWrite, OutboxWrite } from './outbox-write';

let written = 0;

/** Test helper: a write as the outbox keeps it, made from what an area hands to `enqueue`. */
export const storedWrite = (input: NewWrite, patch: Partial<OutboxWrite> = {}): OutboxWrite => ({
  ...input,
  id: `w${++written}`,
  idempotencyKey: 'k',
  createdAt: 0,
  seq: written,
  owner: 'u',
  state: 'pending',
  attempts: 0,
  lastError: null,
  nextAttemptAt: 0,
  ...patch,
});
