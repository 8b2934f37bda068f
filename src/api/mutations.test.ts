import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, queryOptions, type QueryClient } from '@tanstack/react-query';
import { ApiError, NetworkError } from './errors';
import { plainWrite } from './mutations';
import { createQueryClient } from './query-client';

const clients: QueryClient[] = [];
function client(): QueryClient {
  const c = createQueryClient();
  clients.push(c);
  return c;
}
afterEach(() => {
  for (const c of clients.splice(0)) c.clear();
});

/** A plain write whose sends are recorded with the key each one carried. */
function recorded(answers: Array<() => Promise<string>>) {
  const sent: Array<{ body: string; key: string }> = [];
  const options = plainWrite({
    mutationKey: ['test', 'create'],
    send: async (body: string, idempotencyKey) => {
      sent.push({ body, key: idempotencyKey });
      const next = answers.shift();
      return next ? next() : 'ok';
    },
    refreshes: () => [],
  });
  return { sent, options };
}

const lost = () => Promise.reject(new NetworkError('failed'));
const refused = () => Promise.reject(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR' }));
const press = (c: QueryClient, options: ReturnType<typeof recorded>['options'], body: string) =>
  new MutationObserver(c, options).mutate(body).catch(() => undefined);

describe('the Idempotency-Key of a plain write', () => {
  it('is one per press, the same for every retry of it', async () => {
    const { sent, options } = recorded([lost, () => Promise.reject(new ApiError({ status: 503 }))]);
    const c = client();
    await new MutationObserver(c, { ...options, retry: 2, retryDelay: 0 }).mutate('L1');
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);

    await press(c, options, 'L2');
    expect(sent[3]!.key).not.toBe(sent[0]!.key);
  });

  it('goes again with a second press of the same values after a lost answer, so the server answers it from its record', async () => {
    const { sent, options } = recorded([lost, lost]);
    const c = client();
    await press(c, options, 'L1');
    await press(c, options, 'L1');
    await press(c, options, 'L1');
    expect(sent.map((s) => s.key)).toEqual([sent[0]!.key, sent[0]!.key, sent[0]!.key]);
  });

  it('is new for other values, after a refusal and after a write that went through', async () => {
    const { sent, options } = recorded([lost, lost, refused]);
    const c = client();
    await press(c, options, 'L1'); // lost
    await press(c, options, 'L2'); // other values: a new write; lost
    await press(c, options, 'L2'); // a resend of it; refused (the server recorded nothing)
    await press(c, options, 'L2'); // after a refusal: new; goes through
    await press(c, options, 'L2'); // after a write that went through: a new write with the same values
    const keys = sent.map((s) => s.key);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
    expect(keys[3]).not.toBe(keys[2]);
    expect(keys[4]).not.toBe(keys[3]);
    expect(new Set(keys).size).toBe(4);
  });
});

describe('the refresh a plain write declares', () => {
  function setup(answer: () => Promise<string>) {
    const c = client();
    const queryFn = vi.fn(async () => 'new');
    const shown = queryOptions({ queryKey: ['test', 'detail'], queryFn });
    // As restored from the device: data, no query function yet.
    c.setQueryData(shown.queryKey, 'old');
    const options = plainWrite({ mutationKey: ['test', 'edit'], send: answer, refreshes: () => [shown] });
    return { c, queryFn, shown, run: () => new MutationObserver(c, options).mutate().catch(() => undefined) };
  }

  it('runs when the server applied the write, and when it refused it', async () => {
    const applied = setup(async () => 'ok');
    await applied.run();
    await vi.waitFor(() => expect(applied.c.getQueryData(applied.shown.queryKey)).toBe('new'));

    const refusedWrite = setup(refused);
    await refusedWrite.run();
    await vi.waitFor(() => expect(refusedWrite.queryFn).toHaveBeenCalledTimes(1));
  });

  it('does not run when the answer was lost (offline it would only drop kept copies)', async () => {
    const { run, queryFn } = setup(lost);
    await run();
    await new Promise((r) => setTimeout(r, 10));
    expect(queryFn).not.toHaveBeenCalled();
  });
});
