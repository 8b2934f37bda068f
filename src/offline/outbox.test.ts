import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, get, set, type UseStore } from 'idb-keyval';
import { ApiError, NetworkError, SessionExpiredError } from '../api/errors';
import { makeClaims, makeJwt } from '../api/test-tokens';
import { clearTokens, getTokens, setTokens } from '../auth/token-store';
import { Outbox, type OutboxOptions, type SendFn } from './outbox';
import { reportAnswer, reportNoAnswer } from './online-status';
import { PARALLEL_SCOPES } from './outbox-policy';
import { isConflict, type NewWrite, type OutboxWrite } from './outbox-write';

let dbCount = 0;
let store: UseStore;
let clock: number;
let online: boolean;
const outboxes: Outbox[] = [];

type Sent = Parameters<SendFn>[0];
let send: ReturnType<typeof vi.fn<SendFn>>;

function make(options: OutboxOptions = {}): Outbox {
  const outbox = new Outbox({
    store,
    send,
    ensureSession: async () => {},
    locks: null,
    currentUser: () => 'user-1',
    now: () => clock,
    ...options,
  });
  outboxes.push(outbox);
  return outbox;
}

const input = (scope: string, n: number, kind = 'test.lot'): NewWrite<{ n: number }> => ({
  scope,
  kind,
  data: { n },
  request: {
    service: 'bff',
    path: `/connectors/${scope}/${n}`,
    method: 'PUT',
    body: { parkingLot: `P${n}` },
    headers: { 'If-Match': '"3"' },
  },
});

const paths = () => send.mock.calls.map(([r]) => r.path);
const stateOf = (outbox: Outbox, id: string) => outbox.getSnapshot().find((w) => w.id === id)?.state;
const find = (outbox: Outbox, id: string) => outbox.getSnapshot().find((w) => w.id === id) as OutboxWrite;

beforeEach(() => {
  store = createStore(`outbox-test-${++dbCount}`, 'writes');
  clock = 1_700_000_000_000;
  online = true;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  send = vi.fn<SendFn>(async () => ({ ok: true }));
});

afterEach(() => {
  reportAnswer();
  for (const o of outboxes.splice(0)) o.dispose();
  clearTokens('logout');
});

describe('Outbox', () => {
  it('persists a write before enqueue resolves, and a new instance (reload) still has it', async () => {
    online = false;
    const outbox = make();
    const write = await outbox.enqueue(input('c1', 1));
    const stored = await get<OutboxWrite>(write.id, store);
    expect(stored?.state).toBe('pending');
    expect(stored?.idempotencyKey).toBe(write.idempotencyKey);
    expect(stored?.request.headers?.['If-Match']).toBe('"3"');
    expect(send).not.toHaveBeenCalled();

    outbox.dispose();
    const reloaded = make();
    await reloaded.whenReady();
    expect(reloaded.getSnapshot().map((w) => w.id)).toEqual([write.id]);

    online = true;
    await reloaded.replay();
    expect(send).toHaveBeenCalledTimes(1);
    const sent = send.mock.calls[0][0];
    expect(sent.headers['Idempotency-Key']).toBe(write.idempotencyKey);
    expect(sent.headers['If-Match']).toBe('"3"');
    expect(sent.background).toBe(true);
    expect(stateOf(reloaded, write.id)).toBe('done');
  });

  it('replays each scope in creation order, scopes side by side', async () => {
    online = false;
    const outbox = make();
    await outbox.enqueue(input('a', 1));
    await outbox.enqueue(input('b', 1));
    await outbox.enqueue(input('a', 2));
    await outbox.enqueue(input('c', 1));
    online = true;
    await outbox.replay();
    expect(paths()).toEqual(['/connectors/a/1', '/connectors/b/1', '/connectors/c/1', '/connectors/a/2']);
    expect(outbox.getSnapshot().every((w) => w.state === 'done')).toBe(true);
  });

  it(`sends at most ${PARALLEL_SCOPES} scopes at once, never two writes of one scope`, async () => {
    let inFlight = 0;
    let most = 0;
    const busy = new Set<string>();
    send.mockImplementation(async (r: Sent) => {
      const scope = r.path.split('/')[2]!;
      expect(busy.has(scope)).toBe(false);
      busy.add(scope);
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      busy.delete(scope);
      return { ok: true };
    });
    online = false;
    const outbox = make();
    for (const scope of ['a', 'b', 'c', 'd', 'e', 'f']) for (const n of [1, 2, 3]) await outbox.enqueue(input(scope, n));
    online = true;
    await outbox.replay();
    expect(send).toHaveBeenCalledTimes(18);
    expect(most).toBe(PARALLEL_SCOPES);
    for (const scope of ['a', 'b', 'c', 'd', 'e', 'f']) {
      expect(paths().filter((p) => p.startsWith(`/connectors/${scope}/`))).toEqual([1, 2, 3].map((n) => `/connectors/${scope}/${n}`));
    }
  });

  it('backs off per scope: a scope whose server answers 5xx does not slow the others', async () => {
    send.mockImplementation(async (r: Sent) => {
      if (r.path.startsWith('/connectors/a/')) throw new ApiError({ status: 503, errorCodeResponse: 'UNAVAILABLE' });
      return { ok: true };
    });
    online = false;
    const outbox = make();
    const a1 = await outbox.enqueue(input('a', 1));
    const a2 = await outbox.enqueue(input('a', 2));
    const b1 = await outbox.enqueue(input('b', 1));
    online = true;
    await outbox.replay();
    const b2 = await outbox.enqueue(input('b', 2));
    await outbox.replay();
    expect(stateOf(outbox, b1.id)).toBe('done');
    expect(stateOf(outbox, b2.id)).toBe('done');
    expect(find(outbox, a1.id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: clock + 2_000 });
    expect(find(outbox, a2.id)).toMatchObject({ state: 'pending', attempts: 0 });
  });

  it('submit answers saved once the server applied every write, failed when one was refused, queued offline', async () => {
    const outbox = make();
    expect(await outbox.submit([input('a', 1), input('b', 1)])).toBe('saved');
    send.mockRejectedValueOnce(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR' }));
    expect(await outbox.submit([input('c', 1)])).toBe('failed');
    online = false;
    expect(await outbox.submit([input('d', 1)])).toBe('queued');
    expect(send).toHaveBeenCalledTimes(3);
  });

  it('lie-fi: submit says queued at once while the server does not answer, and as soon as a send gets no answer', async () => {
    const outbox = make();
    reportNoAnswer();
    const started = Date.now();
    expect(await outbox.submit([input('a', 1)])).toBe('queued');
    expect(send).not.toHaveBeenCalled();
    reportAnswer();
    // The browser says online and the server answered before: the send hangs, then gets no answer.
    let fail: (error: unknown) => void = () => {};
    send.mockImplementation(async (r: Sent) => {
      if (r.path.startsWith('/connectors/b/')) await new Promise((_resolve, reject) => (fail = reject));
      return { ok: true };
    });
    const outcome = outbox.submit([input('b', 1)], 60_000);
    await vi.waitFor(() => expect(paths()).toContain('/connectors/b/1'));
    reportNoAnswer(); // as api/client.ts does when a request times out
    fail(new NetworkError('failed'));
    expect(await outcome).toBe('queued');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('lie-fi: replays within moments of the first answer, without an online event, skipping the backoff', async () => {
    send.mockRejectedValueOnce(new NetworkError('failed'));
    const outbox = make();
    outbox.start();
    const a = await outbox.enqueue(input('a', 1));
    await vi.waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    reportNoAnswer();
    await vi.waitFor(() => expect(find(outbox, a.id)).toMatchObject({ state: 'pending', attempts: 1 }));
    expect(find(outbox, a.id).nextAttemptAt).toBeGreaterThan(clock);
    reportAnswer(); // the reachability probe got an answer
    await vi.waitFor(() => expect(stateOf(outbox, a.id)).toBe('done'));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('submit says blocked at once for a change parked behind a refused change of the same entity, and names the refused one', async () => {
    const outbox = make();
    send.mockRejectedValueOnce(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR' }));
    expect(await outbox.submit([input('a', 1)])).toBe('failed');
    const refused = outbox.getSnapshot().find((w) => w.state === 'failed')!;
    const started = Date.now();
    expect(await outbox.submit([input('a', 2)])).toBe('blocked');
    expect(Date.now() - started).toBeLessThan(1_000);
    const parked = outbox.getSnapshot().find((w) => w.state === 'pending')!;
    expect(outbox.blockerOf(parked)?.id).toBe(refused.id);
    // Another entity is not held back; offline a parked change is still announced as blocked.
    expect(await outbox.submit([input('b', 1)])).toBe('saved');
    online = false;
    expect(await outbox.submit([input('a', 3)])).toBe('blocked');
    // Once the refused change is discarded, nothing holds the others.
    await outbox.discard(refused.id);
    expect(outbox.blockerOf(parked)).toBeNull();
  });

  it('keeps a network failure pending and retries later with the same idempotency key', async () => {
    send.mockRejectedValueOnce(new NetworkError('failed'));
    const outbox = make();
    const write = await outbox.enqueue(input('a', 1));
    await outbox.replay();
    expect(find(outbox, write.id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: clock + 2_000 });
    expect(find(outbox, write.id).lastError?.code).toBe('NETWORK_ERROR');

    await outbox.replay();
    expect(send).toHaveBeenCalledTimes(1); // still backing off

    clock += 2_000;
    await outbox.replay();
    expect(send).toHaveBeenCalledTimes(2);
    const keys = send.mock.calls.map(([r]) => r.headers['Idempotency-Key']);
    expect(keys).toEqual([write.idempotencyKey, write.idempotencyKey]);
    expect(stateOf(outbox, write.id)).toBe('done');
  });

  it('skips the backoff when the connection comes back', async () => {
    send.mockRejectedValueOnce(new NetworkError('offline'));
    const outbox = make();
    const a = await outbox.enqueue(input('a', 1));
    await outbox.replay();
    expect(stateOf(outbox, a.id)).toBe('pending');
    outbox.start();
    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(stateOf(outbox, a.id)).toBe('done'));
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('retries 5xx with growing backoff while other scopes go on', async () => {
    send.mockImplementation(async (r: Sent) => {
      if (r.path.startsWith('/connectors/a/')) throw new ApiError({ status: 503, errorCodeResponse: 'UNAVAILABLE' });
      return { ok: true };
    });
    const outbox = make();
    const a = await outbox.enqueue(input('a', 1));
    const b = await outbox.enqueue(input('b', 1));
    await outbox.replay();
    expect(find(outbox, a.id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: clock + 2_000 });
    expect(stateOf(outbox, b.id)).toBe('done');

    clock += 2_000;
    await outbox.replay();
    expect(find(outbox, a.id)).toMatchObject({ state: 'pending', attempts: 2, nextAttemptAt: clock + 4_000 });
    expect(find(outbox, a.id).lastError?.status).toBe(503);

    send.mockResolvedValue({ ok: true });
    clock += 4_000;
    await outbox.replay();
    expect(stateOf(outbox, a.id)).toBe('done');
    expect(new Set(send.mock.calls.filter(([r]) => r.path === '/connectors/a/1').map(([r]) => r.headers['Idempotency-Key']))).toEqual(
      new Set([a.idempotencyKey]),
    );
  });

  it('a network error on one scope backs off that scope only; the others are sent', async () => {
    send.mockImplementation(async (r: Sent) => {
      if (r.path === '/connectors/a/1') throw new NetworkError('failed');
      return { ok: true };
    });
    online = false;
    const outbox = make();
    const a1 = await outbox.enqueue(input('a', 1));
    const a2 = await outbox.enqueue(input('a', 2));
    // More scopes than are sent at once, so some start only after a's failure.
    const others = [];
    for (const scope of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) others.push(await outbox.enqueue(input(scope, 1)));
    online = true;
    await outbox.replay();
    expect(find(outbox, a1.id)).toMatchObject({ state: 'pending', nextAttemptAt: clock + 2_000 });
    expect(stateOf(outbox, a2.id)).toBe('pending');
    for (const w of others) expect(stateOf(outbox, w.id)).toBe('done');
  });

  it('treats 409 IDEMPOTENCY_KEY_IN_PROGRESS as "retry later"', async () => {
    send.mockRejectedValueOnce(new ApiError({ status: 409, errorCodeResponse: 'IDEMPOTENCY_KEY_IN_PROGRESS' }));
    const outbox = make();
    const a = await outbox.enqueue(input('a', 1));
    await outbox.replay();
    expect(find(outbox, a.id)).toMatchObject({ state: 'pending', nextAttemptAt: clock + 2_000 });
  });

  it('parks a 4xx as failed with its reason; later writes of that scope wait, other scopes proceed; retry resumes', async () => {
    send.mockImplementationOnce(async () => {
      throw new ApiError({ status: 422, errorCodeResponse: 'VALIDATION_ERROR', errorMessage: 'Unknown parking lot' });
    });
    online = false;
    const outbox = make();
    const a1 = await outbox.enqueue(input('a', 1));
    const b1 = await outbox.enqueue(input('b', 1));
    const a2 = await outbox.enqueue(input('a', 2));
    online = true;
    await outbox.replay();
    expect(find(outbox, a1.id)).toMatchObject({
      state: 'failed',
      lastError: { code: 'VALIDATION_ERROR', message: 'Unknown parking lot', status: 422 },
    });
    expect(stateOf(outbox, b1.id)).toBe('done');
    expect(stateOf(outbox, a2.id)).toBe('pending');
    expect(paths()).toEqual(['/connectors/a/1', '/connectors/b/1']);

    await outbox.replay();
    expect(send).toHaveBeenCalledTimes(2); // failed stays failed until the user acts

    await outbox.retry(a1.id);
    await outbox.replay();
    expect(paths()).toEqual(['/connectors/a/1', '/connectors/b/1', '/connectors/a/1', '/connectors/a/2']);
    expect(send.mock.calls[2][0].headers['Idempotency-Key']).toBe(a1.idempotencyKey);
    expect(stateOf(outbox, a1.id)).toBe('done');
    expect(stateOf(outbox, a2.id)).toBe('done');
  });

  it('discard removes a failed write and lets the next one of its scope go', async () => {
    send.mockRejectedValueOnce(new ApiError({ status: 400, errorCodeResponse: 'BAD_REQUEST' }));
    online = false;
    const outbox = make();
    const a1 = await outbox.enqueue(input('a', 1));
    const a2 = await outbox.enqueue(input('a', 2));
    online = true;
    await outbox.replay();
    expect(stateOf(outbox, a1.id)).toBe('failed');
    expect(await outbox.discard(a1.id)).toBe(true);
    await outbox.replay();
    expect(find(outbox, a1.id)).toBeUndefined();
    expect(await get(a1.id, store)).toBeUndefined();
    expect(stateOf(outbox, a2.id)).toBe('done');
    expect(paths()).toEqual(['/connectors/a/1', '/connectors/a/2']);
  });

  it('parks a 409 CONFLICT with what changed on the server', async () => {
    const detail = { connectorId: 'a', currentVersion: 5, current: { parkingLot: 'P9', connectorStatus: 'STANDBY' } };
    send.mockRejectedValueOnce(
      new ApiError({ status: 409, errorCodeResponse: 'CONFLICT', errorMessage: 'Changed meanwhile', errorDetail: detail }),
    );
    const outbox = make();
    const a = await outbox.enqueue(input('a', 1));
    await outbox.replay();
    const write = find(outbox, a.id);
    expect(write.state).toBe('failed');
    expect(isConflict(write.lastError)).toBe(true);
    expect(write.lastError?.detail).toEqual(detail);
  });

  it('tells onRefused listeners (this tab and the other open ones) about a refused write, not about a network failure', async () => {
    if (typeof BroadcastChannel === 'undefined') throw new Error('BroadcastChannel is needed for this test');
    const here = vi.fn();
    const there = vi.fn();
    send.mockRejectedValueOnce(new NetworkError('failed'));
    const sender = make();
    const other = make();
    sender.onRefused(here);
    other.onRefused(there);
    await other.whenReady();
    const a = await sender.enqueue(input('a', 1));
    await sender.replay();
    expect(stateOf(sender, a.id)).toBe('pending');
    expect(here).not.toHaveBeenCalled();

    send.mockRejectedValueOnce(new ApiError({ status: 409, errorCodeResponse: 'CONFLICT' }));
    await sender.replay({ skipBackoff: true });
    expect(here).toHaveBeenCalledTimes(1);
    expect(here).toHaveBeenCalledWith(expect.objectContaining({ id: a.id, state: 'failed' }));
    await vi.waitFor(() => expect(there).toHaveBeenCalledTimes(1));
    expect((there.mock.calls[0]![0] as OutboxWrite).id).toBe(a.id);
  });

  it('keeps the entity version a write expects with the stored write', async () => {
    online = false;
    const outbox = make();
    const versioned = await outbox.enqueue({ ...input('a', 1), version: 7 });
    const plain = await outbox.enqueue(input('b', 1));
    expect((await get<OutboxWrite>(versioned.id, store))?.version).toBe(7);
    expect(await get<OutboxWrite>(plain.id, store)).not.toHaveProperty('version');
  });

  it('parks the writes queued behind a conflicting one of the same connector too, so none of them overwrites unseen', async () => {
    const detail = { connectorId: 'a', currentVersion: 5, current: { parkingLot: 'P9', connectorStatus: 'IDLE' } };
    online = false;
    const outbox = make();
    const a1 = await outbox.enqueue(input('a', 1));
    const a2 = await outbox.enqueue(input('a', 2));
    const b1 = await outbox.enqueue(input('b', 1));
    send.mockImplementation(async (r) => {
      if (r.path === '/connectors/a/1') {
        throw new ApiError({ status: 409, errorCodeResponse: 'CONFLICT', errorMessage: 'Changed meanwhile', errorDetail: detail });
      }
      return { ok: true };
    });
    online = true;
    await outbox.replay();
    expect(stateOf(outbox, a1.id)).toBe('failed');
    expect(stateOf(outbox, a2.id)).toBe('failed');
    expect(find(outbox, a2.id).lastError?.detail).toEqual(detail);
    expect(stateOf(outbox, b1.id)).toBe('done');
    expect(paths()).toEqual(['/connectors/a/1', '/connectors/b/1']);
  });

  it('does not park the followers of a write refused for another reason', async () => {
    online = false;
    const outbox = make();
    const a1 = await outbox.enqueue(input('a', 1));
    const a2 = await outbox.enqueue(input('a', 2));
    send.mockRejectedValueOnce(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR', errorMessage: 'bad' }));
    online = true;
    await outbox.replay();
    expect(stateOf(outbox, a1.id)).toBe('failed');
    expect(stateOf(outbox, a2.id)).toBe('pending');
  });

  it('also reads a 412 as a conflict', () => {
    expect(isConflict({ code: 'PRECONDITION_FAILED', message: 'x', status: 412, detail: { currentVersion: 2 } })).toBe(true);
    expect(isConflict({ code: 'VALIDATION_ERROR', message: 'x', status: 422, detail: {} })).toBe(false);
  });

  it('waits for sign-in when the session is gone and resumes once tokens are set', async () => {
    const signIn = () => setTokens({ accessToken: makeJwt(makeClaims({ sub: 'user-1' })), refreshToken: 'r1' });
    signIn();
    // The first answer ends the session (the client clears the tokens when the refresh is refused);
    // a write sent beside it meets the same.
    let ended = false;
    send.mockImplementation(async () => {
      if (!ended || !getTokens()) {
        ended = true;
        clearTokens('session-expired');
        throw new SessionExpiredError({ status: 401, errorCodeResponse: 'UNAUTHORIZED' });
      }
      return { ok: true };
    });
    online = false;
    // The real session check: no tokens → SessionExpiredError, valid token → go.
    const outbox = make({ ensureSession: undefined });
    const a1 = await outbox.enqueue(input('a', 1));
    const b1 = await outbox.enqueue(input('b', 1));
    online = true;
    outbox.start();
    await vi.waitFor(() => expect(stateOf(outbox, a1.id)).toBe('waiting-for-sign-in'));
    await outbox.replay();
    expect(stateOf(outbox, b1.id)).toBe('waiting-for-sign-in');
    const before = send.mock.calls.length;
    await outbox.replay();
    expect(send).toHaveBeenCalledTimes(before); // nothing goes out without a session

    signIn();
    await vi.waitFor(() => expect(stateOf(outbox, b1.id)).toBe('done'));
    expect(stateOf(outbox, a1.id)).toBe('done');
    const keys = send.mock.calls.map(([r]) => r.headers['Idempotency-Key']);
    expect(new Set(keys)).toEqual(new Set([a1.idempotencyKey, b1.idempotencyKey]));
    expect(keys.at(-1)).not.toBe(keys.at(-2));
  });

  it('does not send writes made by another user', async () => {
    online = false;
    let user = 'user-1';
    const outbox = make({ currentUser: () => user });
    const a = await outbox.enqueue(input('a', 1));
    user = 'user-2';
    online = true;
    await outbox.replay();
    expect(send).not.toHaveBeenCalled();
    expect(stateOf(outbox, a.id)).toBe('pending');
    user = 'user-1';
    await outbox.replay();
    expect(stateOf(outbox, a.id)).toBe('done');
  });

  it('sends each write once when replays start at the same time (also from two tabs)', async () => {
    send.mockImplementation(() => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), 5)));
    online = false;
    const tab1 = make();
    const tab2 = make();
    await tab1.enqueue(input('a', 1));
    await tab1.enqueue(input('b', 1));
    await tab1.enqueue(input('a', 2));
    await tab2.whenReady();
    online = true;
    await Promise.all([tab1.replay(), tab2.replay(), tab1.replay(), tab2.replay()]);
    expect(paths()).toEqual(['/connectors/a/1', '/connectors/b/1', '/connectors/a/2']);
  });

  it('uses the Web Lock when there is one', async () => {
    const request = vi.fn((_name: string, fn: () => Promise<unknown>) => fn());
    const outbox = make({ locks: { request } as unknown as Pick<LockManager, 'request'> });
    await outbox.enqueue(input('a', 1));
    await outbox.replay();
    expect(request).toHaveBeenCalledWith('cpo-outbox', expect.any(Function));
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('resends a write left "sending" by a killed tab, with its original key', async () => {
    const orphan: OutboxWrite = {
      id: 'w1',
      idempotencyKey: 'key-1',
      scope: 'a',
      kind: 'test.lot',
      data: { n: 1 },
      request: { service: 'bff', path: '/x', method: 'PATCH', body: { version: 2 } },
      createdAt: clock,
      seq: 1,
      owner: 'user-1',
      state: 'sending',
      attempts: 1,
      lastError: null,
      nextAttemptAt: 0,
    };
    await set('w1', orphan, store);
    const outbox = make();
    await outbox.replay();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send.mock.calls[0][0].headers['Idempotency-Key']).toBe('key-1');
    expect(stateOf(outbox, 'w1')).toBe('done');
  });

  it('runs the effects in the other open tabs too, once per finished write', async () => {
    if (typeof BroadcastChannel === 'undefined') throw new Error('BroadcastChannel is needed for this test');
    const effect = vi.fn();
    send.mockResolvedValue({ ok: true });
    online = false;
    const sender = make();
    const other = make();
    sender.onApplied(effect);
    other.onApplied(effect);
    await other.whenReady();
    const a = await sender.enqueue(input('a', 1));
    await vi.waitFor(() => expect(stateOf(other, a.id)).toBe('pending'));
    online = true;
    await sender.replay();
    // Once in the sender, once in the other tab.
    await vi.waitFor(() => expect(effect).toHaveBeenCalledTimes(2));
    expect(effect.mock.calls.map(([w]) => (w as OutboxWrite).id)).toEqual([a.id, a.id]);
    // Later broadcasts (the prune) do not run them again.
    clock += 60_000;
    await sender.replay();
    await vi.waitFor(() => expect(other.getSnapshot()).toEqual([]));
    expect(effect).toHaveBeenCalledTimes(2);
  });

  it('tells onApplied listeners about each applied write with its answer, and prunes done writes later', async () => {
    const effect = vi.fn();
    send.mockResolvedValueOnce({ connectorStatus: 'ACTIVE' });
    const outbox = make();
    const stop = outbox.onApplied(effect);
    const a = await outbox.enqueue(input('a', 1, 'test.status'));
    await outbox.replay();
    expect(effect).toHaveBeenCalledWith(expect.objectContaining({ id: a.id, state: 'done', result: { connectorStatus: 'ACTIVE' } }));
    stop();

    clock += 60_000;
    await outbox.replay();
    expect(outbox.getSnapshot()).toEqual([]);
    expect(await get(a.id, store)).toBeUndefined();
  });
});
