import { createParser } from 'eventsource-parser';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { refreshAccessToken } from '../../../api/client';
import { getServiceBase } from '../../../api/config';
import { SessionExpiredError } from '../../../api/errors';
import { getAccessToken } from '../../../auth/token-store';
import { isOnline, subscribeOnlineStatus } from '../../../offline/online-status';
import { refreshAfterWrite } from '../../../offline/refresh-after-write';
import { stationKeys } from './station-keys';

/**
 * Live status of the stations (GET /bff/ocpp/live, server-sent events): while a station screen is
 * open and the app is online, each `station` event refreshes the queries showing that station.
 * Read with fetch, not EventSource, because EventSource sends no Authorization header: the bearer
 * token goes along and a 401 is cured by one refresh, as api/client.ts does for every request.
 */

/** What one connection needs from the outside (the real ones below; fakes in the tests). */
export interface LiveTransport {
  url: () => Promise<string>;
  token: () => string | null;
  /** A fresh access token after a 401 (throws SessionExpiredError when the session is over). */
  refresh: () => Promise<string>;
  fetch: typeof fetch;
}

export const liveTransport: LiveTransport = {
  url: async () => `${(await getServiceBase('bff')).replace(/\/+$/, '')}/ocpp/live`,
  token: getAccessToken,
  refresh: refreshAccessToken,
  fetch: (...args) => fetch(...args),
};

/** Refused by the server (not a lost connection): the next try waits as long as backoff allows. */
export class LiveRefusedError extends Error {
  constructor(readonly status: number) {
    super(`live status refused (${status})`);
  }
}

export interface LiveHandlers {
  /** The server said the stream is open (the first event of each connection). */
  onReady: () => void;
  onStation: (cpId: string) => void;
}

/**
 * One connection, read until the server ends it (it does after OCPP_LIVE_STREAM_SECONDS) or
 * `signal` aborts it. Resolves with the reconnection delay the server asked for; rejects when the
 * connection failed or was refused.
 */
export async function readLiveStream(transport: LiveTransport, signal: AbortSignal, handlers: LiveHandlers): Promise<number | undefined> {
  const url = await transport.url();
  const open = (token: string | null) =>
    transport.fetch(url, {
      headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      cache: 'no-store',
      signal,
    });
  const used = transport.token();
  let response = await open(used);
  if (response.status === 401) {
    await response.body?.cancel().catch(() => undefined);
    // Another request (or tab) may have refreshed the pair meanwhile: use its token first.
    const now = transport.token();
    response = await open(now !== used && now ? now : await transport.refresh());
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    throw new LiveRefusedError(response.status);
  }
  let retryMs: number | undefined;
  const parser = createParser({
    onEvent: (event) => {
      if (event.event === 'ready') handlers.onReady();
      if (event.event !== 'station') return;
      try {
        const { cpId } = JSON.parse(event.data) as { cpId?: unknown };
        if (typeof cpId === 'string') handlers.onStation(cpId);
      } catch {
        // A broken event is skipped; the next one still counts.
      }
    },
    onRetry: (ms) => (retryMs = ms),
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return retryMs;
      parser.feed(value);
    }
  } finally {
    reader.releaseLock();
  }
}

export interface LiveOptions {
  read: (signal: AbortSignal, handlers: LiveHandlers) => Promise<number | undefined>;
  isOnline: () => boolean;
  subscribeOnline: (listener: () => void) => () => void;
  handlers: LiveHandlers;
  /** The first wait after a failure; doubled per failure up to `maxDelayMs`. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** A clean end (the server closed the stream) is followed by its `retry`, or this. */
  reopenMs?: number;
}

/**
 * Keeps one live connection open while the app is online: reopened after the server ended it,
 * after a failure with a backoff (1 s, 2 s, … 30 s, with jitter, reset by an opened stream),
 * closed at once when the app goes offline and opened again when it is back. `stop()` ends it.
 */
export function keepLive(options: LiveOptions): { stop: () => void } {
  const minDelay = options.minDelayMs ?? 1_000;
  const maxDelay = options.maxDelayMs ?? 30_000;
  let stopped = false;
  let failures = 0;
  let connection: AbortController | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, ms);
  };
  const connect = () => {
    if (stopped || connection || !options.isOnline()) return;
    const controller = new AbortController();
    connection = controller;
    const handlers: LiveHandlers = {
      onReady: () => {
        failures = 0;
        options.handlers.onReady();
      },
      onStation: options.handlers.onStation,
    };
    options.read(controller.signal, handlers).then(
      (retryMs) => {
        if (connection !== controller) return;
        connection = null;
        schedule(retryMs ?? options.reopenMs ?? minDelay);
      },
      (error: unknown) => {
        if (connection !== controller) return;
        connection = null;
        // A session that is over does not come back by asking again; the next sign-in starts anew.
        if (error instanceof SessionExpiredError) return;
        const wait = Math.min(maxDelay, minDelay * 2 ** failures);
        failures++;
        schedule(Math.round(wait * (0.75 + Math.random() * 0.5)));
      },
    );
  };
  const onlineChanged = () => {
    if (options.isOnline()) {
      // Back online: at once, without waiting out a backoff from the time offline.
      if (!connection) {
        failures = 0;
        schedule(0);
      }
      return;
    }
    if (timer) clearTimeout(timer);
    timer = null;
    connection?.abort();
    connection = null;
  };
  const unsubscribe = options.subscribeOnline(onlineChanged);
  connect();
  return {
    stop: () => {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      connection?.abort();
      connection = null;
    },
  };
}

/**
 * What a change of one station refreshes: the list pages showing it (also a location's stations
 * tab) and the detail of each of its connectors with its OCPP data, each by its exact key, so
 * pages of other stations are not asked again.
 */
export function queriesShowingStation(client: QueryClient, cpId: string): QueryKey[] {
  const keys: QueryKey[] = [];
  for (const query of client.getQueryCache().findAll({ queryKey: stationKeys.lists() })) {
    const rows = (query.state.data as { response?: Array<{ cpId?: string }> } | undefined)?.response;
    if (rows?.some((row) => row.cpId === cpId)) keys.push(query.queryKey);
  }
  for (const query of client.getQueryCache().findAll({ queryKey: stationKeys.details() })) {
    const connectorId = query.queryKey[stationKeys.details().length];
    if (typeof connectorId === 'string' && connectorId.startsWith(`${cpId}_`) && query.queryKey.length === stationKeys.details().length + 1)
      keys.push(query.queryKey);
  }
  return keys;
}

/** Changes arriving within this time go out as one refresh per query. */
const GATHER_MS = 250;

/**
 * The app's live connection, shared by every screen that wants it (`acquire` returns its release):
 * open while at least one is mounted. Events go through refresh-after-write, the way an applied
 * write refreshes what it changed; a reopened connection refreshes the station queries on screen,
 * since changes between two connections were not heard.
 */
export function createStationLive(client: QueryClient, transport: LiveTransport = liveTransport) {
  let users = 0;
  let live: { stop: () => void } | null = null;
  let opened = 0;
  const pending = new Set<string>();
  let gather: ReturnType<typeof setTimeout> | null = null;
  const flush = () => {
    gather = null;
    const keys = [...pending].flatMap((cpId) => queriesShowingStation(client, cpId));
    pending.clear();
    for (const key of keys) refreshAfterWrite(client, key);
  };
  const handlers: LiveHandlers = {
    onReady: () => {
      if (opened++ === 0) return;
      const shown = client.getQueryCache().findAll({ queryKey: stationKeys.all, type: 'active' });
      for (const query of shown) refreshAfterWrite(client, query.queryKey);
    },
    onStation: (cpId) => {
      pending.add(cpId);
      gather ??= setTimeout(flush, GATHER_MS);
    },
  };
  return {
    acquire: () => {
      if (users++ === 0) {
        opened = 0;
        live = keepLive({
          read: (signal, h) => readLiveStream(transport, signal, h),
          isOnline,
          subscribeOnline: subscribeOnlineStatus,
          handlers,
        });
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (--users > 0) return;
        live?.stop();
        live = null;
        if (gather) clearTimeout(gather);
        gather = null;
        pending.clear();
      };
    },
  };
}
