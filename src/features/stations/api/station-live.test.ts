import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { SessionExpiredError } from '../../../api/errors';
import { createStationLive, keepLive, readLiveStream, type LiveHandlers, type LiveTransport } from './station-live';
import { stationKeys, type StationListParams } from './station-keys';

/** A server-sent event stream the test writes into and ends. */
function eventStream() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: () => new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } }),
    send: (text: string) => controller.enqueue(encoder.encode(text)),
    end: () => controller.close(),
  };
}

const noHandlers = (): LiveHandlers & { stations: string[]; readies: number } => {
  const h = {
    stations: [] as string[],
    readies: 0,
    onReady: () => void h.readies++,
    onStation: (cpId: string) => void h.stations.push(cpId),
  };
  return h;
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('readLiveStream', () => {
  it('sends the bearer token, reads station events split anywhere, and ends with the server’s retry', async () => {
    const stream = eventStream();
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(stream.response());
    const transport: LiveTransport = { url: async () => '/api/ocpp/live', token: () => 'T1', refresh: vi.fn(), fetch };
    const handlers = noHandlers();
    const done = readLiveStream(transport, new AbortController().signal, handlers);
    await flush();
    stream.send('retry: 1000\nevent: ready\ndata: {}\n\n');
    stream.send('event: station\ndata: {"cpId":"CP');
    stream.send('1"}\n\n: keep-alive\n\nevent: station\ndata: not json\n\nevent: station\ndata: {"cpId":"CP2"}\n\n');
    stream.end();
    await expect(done).resolves.toBe(1000);
    expect(handlers.readies).toBe(1);
    expect(handlers.stations).toEqual(['CP1', 'CP2']);
    const init = fetch.mock.calls[0][1]!;
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer T1');
  });

  it('refreshes the token once on 401 and opens the stream with the new one', async () => {
    const stream = eventStream();
    let token = 'OLD';
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockResolvedValueOnce(new Response('{}', { status: 401 }))
      .mockResolvedValueOnce(stream.response());
    const refresh = vi.fn(async () => (token = 'NEW'));
    const done = readLiveStream(
      { url: async () => '/live', token: () => token, refresh, fetch },
      new AbortController().signal,
      noHandlers(),
    );
    await flush();
    stream.end();
    await done;
    expect(refresh).toHaveBeenCalledTimes(1);
    expect((fetch.mock.calls[1][1]!.headers as Record<string, string>).Authorization).toBe('Bearer NEW');
  });

  it('rejects a refusal that a refresh does not cure', async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response('{}', { status: 403 }));
    await expect(
      readLiveStream({ url: async () => '/live', token: () => 'T', refresh: vi.fn(), fetch }, new AbortController().signal, noHandlers()),
    ).rejects.toMatchObject({ status: 403 });
  });
});

describe('keepLive', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(0.5); // no jitter
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** A fake `read`: each call is one connection the test ends, fails or sees aborted. */
  function connections() {
    const calls: Array<{ signal: AbortSignal; handlers: LiveHandlers; end: (retry?: number) => void; fail: (e?: unknown) => void }> = [];
    const read = (signal: AbortSignal, handlers: LiveHandlers) =>
      new Promise<number | undefined>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        calls.push({ signal, handlers, end: resolve, fail: (e) => reject(e ?? new TypeError('network')) });
      });
    return { calls, read };
  }

  function onlineSwitch(initial = true) {
    let online = initial;
    const listeners = new Set<() => void>();
    return {
      isOnline: () => online,
      subscribeOnline: (l: () => void) => (listeners.add(l), () => void listeners.delete(l)),
      set: (value: boolean) => {
        online = value;
        for (const l of listeners) l();
      },
      listeners,
    };
  }

  it('reopens after the server ended the stream, after the retry it asked for', async () => {
    const { calls, read } = connections();
    const net = onlineSwitch();
    const live = keepLive({ read, ...net, handlers: noHandlers() });
    expect(calls).toHaveLength(1);
    calls[0].end(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    live.stop();
  });

  it('backs off 1 s, 2 s, 4 s after failures, and an opened stream resets the backoff', async () => {
    const { calls, read } = connections();
    const net = onlineSwitch();
    const live = keepLive({ read, ...net, handlers: noHandlers() });
    calls[0].fail();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(2);
    calls[1].fail();
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    calls[2].fail();
    await vi.advanceTimersByTimeAsync(4000);
    expect(calls).toHaveLength(4);
    calls[3].handlers.onReady();
    calls[3].fail();
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toHaveLength(5);
    live.stop();
  });

  it('never waits more than the maximum between tries', async () => {
    const { calls, read } = connections();
    const live = keepLive({ read, ...onlineSwitch(), handlers: noHandlers(), maxDelayMs: 5000 });
    for (let i = 0; i < 6; i++) {
      calls[i].fail();
      await vi.advanceTimersByTimeAsync(5000);
    }
    expect(calls).toHaveLength(7);
    live.stop();
  });

  it('closes the stream when the app goes offline, opens none while offline, and opens at once when back', async () => {
    const { calls, read } = connections();
    const net = onlineSwitch();
    const live = keepLive({ read, ...net, handlers: noHandlers() });
    net.set(false);
    expect(calls[0].signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
    net.set(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
    live.stop();
  });

  it('does not start while offline', async () => {
    const { calls, read } = connections();
    const net = onlineSwitch(false);
    const live = keepLive({ read, ...net, handlers: noHandlers() });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(0);
    live.stop();
  });

  it('stop() closes the stream and nothing reopens it', async () => {
    const { calls, read } = connections();
    const net = onlineSwitch();
    const live = keepLive({ read, ...net, handlers: noHandlers() });
    live.stop();
    expect(calls[0].signal.aborted).toBe(true);
    expect(net.listeners.size).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
  });

  it('gives up when the session is over', async () => {
    const { calls, read } = connections();
    const live = keepLive({ read, ...onlineSwitch(), handlers: noHandlers() });
    calls[0].fail(new SessionExpiredError({ status: 401, errorCodeResponse: 'UNAUTHORIZED' }));
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toHaveLength(1);
    live.stop();
  });
});

describe('createStationLive', () => {
  const params = (page: number): StationListParams => ({
    cpId: '',
    addressParkingLot: '',
    locationIds: [],
    wallboxModels: [],
    page,
    size: 10,
  });

  it('refreshes the list page and connector details showing the station, only while a screen holds it', async () => {
    const client = new QueryClient();
    const fetched: string[] = [];
    const seed = (key: readonly unknown[], data: unknown) =>
      client.prefetchQuery({
        queryKey: key,
        queryFn: () => {
          fetched.push(JSON.stringify(key));
          return data;
        },
      });
    await seed(stationKeys.list(params(0)), { totalNumberOfRecords: 2, response: [{ cpId: 'CP1' }, { cpId: 'CP9' }] });
    await seed(stationKeys.list(params(1)), { totalNumberOfRecords: 2, response: [{ cpId: 'CP2' }] });
    await seed(stationKeys.detail('CP1_1'), {});
    await seed(stationKeys.detail('CP10_1'), {});
    fetched.length = 0;

    const streams: Array<ReturnType<typeof eventStream>> = [];
    const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
      const s = eventStream();
      streams.push(s);
      init?.signal?.addEventListener('abort', () => s.end());
      return s.response();
    });
    const live = createStationLive(client, { url: async () => '/live', token: () => 'T', refresh: vi.fn(), fetch });
    const releaseList = live.acquire();
    const releaseDetail = live.acquire();
    await flush();
    expect(fetch).toHaveBeenCalledTimes(1);
    streams[0].send('event: ready\ndata: {}\n\nevent: station\ndata: {"cpId":"CP1"}\n\nevent: station\ndata: {"cpId":"CP1"}\n\n');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fetched.sort()).toEqual([JSON.stringify(stationKeys.list(params(0))), JSON.stringify(stationKeys.detail('CP1_1'))].sort());

    releaseList();
    expect(fetch.mock.calls[0][1]!.signal!.aborted).toBe(false);
    releaseDetail();
    expect(fetch.mock.calls[0][1]!.signal!.aborted).toBe(true);
  });
});
