import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, queryOptions, type QueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { defaultRuntimeConfig } from '../../contract/config';
import type { RefreshTarget } from '../offline/refresh-after-write';
import { resetRuntimeConfig } from './config';
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
  vi.unstubAllGlobals();
});

type Answer = 'ok' | 'lost' | 400 | 503;

/** The server answers the queued answers in turn ('ok' once they run out); what it was sent is kept. */
function server(answers: Answer[]): Array<{ name: string; key: string | null }> {
  resetRuntimeConfig(defaultRuntimeConfig);
  const sent: Array<{ name: string; key: string | null }> = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    sent.push({ name: (JSON.parse(String(init.body)) as { name: string }).name, key: new Headers(init.headers).get('Idempotency-Key') });
    const answer = answers.shift() ?? 'ok';
    if (answer === 'lost') throw new TypeError('Failed to fetch');
    const status = answer === 'ok' ? 200 : answer;
    const body = answer === 'ok' ? { data: 'ok' } : { errorCodeResponse: status === 400 ? 'VALIDATION_ERROR' : 'SERVER_ERROR' };
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  return sent;
}

const write = (refreshes: readonly RefreshTarget[] = []) =>
  plainWrite({
    mutationKey: ['test', 'create'],
    request: (name: string) => ({ service: 'bff', path: '/test/create', method: 'POST', body: { name } }),
    schema: z.string(),
    refreshes: () => refreshes,
  });

const press = (c: QueryClient, name: string, options = write()) => new MutationObserver(c, options).mutate(name).catch(() => undefined);

describe('the Idempotency-Key of a plain write', () => {
  it('is one per press, the same for every retry of it', async () => {
    const sent = server(['lost', 503]);
    const c = client();
    await new MutationObserver(c, { ...write(), retry: 2, retryDelay: 0 }).mutate('L1');
    expect(sent).toHaveLength(3);
    expect(sent[0]!.key).toBeTruthy();
    expect(new Set(sent.map((s) => s.key)).size).toBe(1);

    await press(c, 'L2');
    expect(sent[3]!.key).not.toBe(sent[0]!.key);
  });

  it('goes again with a second press of the same values after a lost answer, so the server answers it from its record', async () => {
    const sent = server(['lost', 503]);
    const c = client();
    await press(c, 'L1');
    await press(c, 'L1');
    await press(c, 'L1');
    expect(sent.map((s) => s.key)).toEqual([sent[0]!.key, sent[0]!.key, sent[0]!.key]);
  });

  it('is new for other values, after a refusal and after a write that went through', async () => {
    const sent = server(['lost', 'lost', 400]);
    const c = client();
    await press(c, 'L1'); // lost
    await press(c, 'L2'); // other values: a new write; lost
    await press(c, 'L2'); // a resend of it; refused (the server recorded nothing)
    await press(c, 'L2'); // after a refusal: new; goes through
    await press(c, 'L2'); // after a write that went through: a new write with the same values
    const keys = sent.map((s) => s.key);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
    expect(keys[3]).not.toBe(keys[2]);
    expect(keys[4]).not.toBe(keys[3]);
    expect(new Set(keys).size).toBe(4);
  });
});

describe('the refresh a plain write declares', () => {
  function setup(answer: Answer) {
    server([answer]);
    const c = client();
    const queryFn = vi.fn(async () => 'new');
    const shown = queryOptions({ queryKey: ['test', 'detail'], queryFn });
    // As restored from the device: data, no query function yet.
    c.setQueryData(shown.queryKey, 'old');
    return { c, queryFn, shown, run: () => press(c, 'L1', write([shown])) };
  }

  it('runs when the server applied the write, and when it refused it', async () => {
    const applied = setup('ok');
    await applied.run();
    await vi.waitFor(() => expect(applied.c.getQueryData(applied.shown.queryKey)).toBe('new'));

    const refused = setup(400);
    await refused.run();
    await vi.waitFor(() => expect(refused.queryFn).toHaveBeenCalledTimes(1));
  });

  it('does not run when the answer was lost (offline it would only drop kept copies)', async () => {
    const { run, queryFn } = setup('lost');
    await run();
    await new Promise((r) => setTimeout(r, 10));
    expect(queryFn).not.toHaveBeenCalled();
  });
});
