import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defaultRuntimeConfig } from '../../contract/config';
import { getTokens, setTokens, subscribeTokens, type TokenChange } from '../auth/token-store';
import {
  FIRST_TRY_TIMEOUT_MS,
  READ_TIMEOUT_MS,
  WRITE_TIMEOUT_MS,
  answerTimeout,
  apiRequest,
  buildQueryString,
  buildUrl,
  dropEmpty,
  filenameFromContentDisposition,
  newIdempotencyKey,
  probeServer,
  refreshAccessToken,
} from './client';
import { isServerAnswering, reportAnswer, reportNoAnswer } from '../offline/online-status';
import { resetRuntimeConfig } from './config';
import { ApiError, NetworkError, ResponseShapeError, SessionExpiredError } from './errors';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

function mockFetch(handler: Handler) {
  const fn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(handler(String(input), init ?? {})));
  vi.stubGlobal('fetch', fn);
  return fn;
}

const authHeader = (init: RequestInit) => new Headers(init.headers).get('Authorization');
const tokenPair = (n: number) => ({
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
  expires_in: 300,
  refresh_expires_in: 3600,
  token_type: 'Bearer',
});

beforeEach(() => {
  localStorage.clear();
  resetRuntimeConfig({
    ...defaultRuntimeConfig,
    services: { ...defaultRuntimeConfig.services, contractManagement: 'https://cm.example.com/api/' },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('dropEmpty', () => {
  it('removes undefined, null, empty strings and empty containers recursively', () => {
    expect(
      dropEmpty({
        a: undefined,
        b: null,
        c: '',
        d: [],
        e: {},
        f: { g: '', h: { i: null } },
        j: ['', null, 'x', {}, [[]]],
        k: 'keep',
      }),
    ).toEqual({ j: ['x'], k: 'keep' });
  });

  it('keeps false, 0 and whitespace and leaves non-plain objects alone', () => {
    const date = new Date('2025-01-01T00:00:00Z');
    expect(dropEmpty({ f: false, z: 0, s: ' ', d: date, bytes: [0, 0] })).toEqual({
      f: false,
      z: 0,
      s: ' ',
      d: date,
      bytes: [0, 0],
    });
  });

  it('returns undefined when nothing is left', () => {
    expect(dropEmpty({ a: { b: [''] } })).toBeUndefined();
    expect(dropEmpty('')).toBeUndefined();
    expect(dropEmpty(0)).toBe(0);
  });
});

describe('query and URL building', () => {
  it('drops empty values and comma-joins arrays', () => {
    expect(
      buildQueryString({
        page: 0,
        size: 10,
        empty: '',
        none: undefined,
        nil: null,
        list: [],
        locations: ['1', 2, '', null],
        flag: false,
        name: 'Müller & Söhne',
      }),
    ).toBe('page=0&size=10&locations=1,2&flag=false&name=M%C3%BCller%20%26%20S%C3%B6hne');
  });

  it('encodes commas inside list items so the server can split on the literal ones', () => {
    expect(buildQueryString({ filters: ['a,b', 'c'] })).toBe('filters=a%2Cb,c');
  });

  it('joins base and path with exactly one slash', () => {
    expect(buildUrl('/bff', '/cpos', { page: 0 })).toBe('/bff/cpos?page=0');
    expect(buildUrl('https://x.example/api/', 'cpos')).toBe('https://x.example/api/cpos');
    expect(buildUrl('/bff', '/cpos?x=1', { page: 1 })).toBe('/bff/cpos?x=1&page=1');
  });
});

describe('apiRequest', () => {
  it('calls the service base with bearer, query and JSON body without empty values', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch(() => json({ data: { id: 7 } }));

    const result = await apiRequest({
      service: 'contractManagement',
      path: '/contracts',
      method: 'POST',
      query: { page: 0, filters: ['A', 'B'], q: '' },
      body: { name: 'x', careOf: '', nested: { a: null }, active: false, count: 0 },
      headers: { 'Idempotency-Key': 'k-1', 'If-Match': '"v3"' },
      schema: z.object({ id: z.number() }),
    });

    expect(result).toEqual({ id: 7 });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('https://cm.example.com/api/contracts?page=0&filters=A,B');
    expect(init?.method).toBe('POST');
    const headers = new Headers(init?.headers);
    expect(headers.get('Authorization')).toBe('Bearer access-0');
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Idempotency-Key')).toBe('k-1');
    expect(headers.get('If-Match')).toBe('"v3"');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'x', active: false, count: 0 });
  });

  it('sends no bearer when auth is false', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch(() => json({ data: true }));
    await apiRequest({ service: 'userService', path: '/login', method: 'POST', body: { a: 1 }, auth: false, schema: z.boolean() });
    expect(authHeader(fetchMock.mock.calls[0][1] ?? {})).toBeNull();
  });

  it('passes FormData through untouched, without a JSON content type', async () => {
    const fetchMock = mockFetch(() => json({ data: null }));
    const form = new FormData();
    form.append('file', new Blob(['a;b']), 'upload.csv');
    form.append('empty', '');
    await apiRequest({ service: 'bff', path: '/upload', method: 'POST', body: form });
    const init = fetchMock.mock.calls[0][1] ?? {};
    expect(init.body).toBe(form);
    expect(new Headers(init.headers).get('Content-Type')).toBeNull();
  });

  it('validates the envelope data with the schema', async () => {
    mockFetch(() => json({ data: { id: 'not-a-number' } }));
    const error = await apiRequest({ service: 'bff', path: '/x', schema: z.object({ id: z.number() }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseShapeError);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).issues[0]?.path).toBe('id');
  });

  it('returns undefined for an empty 2xx answer without schema', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    await expect(apiRequest({ service: 'bff', path: '/charging-requests/clean', method: 'PUT' })).resolves.toBeUndefined();
  });

  it('throws ApiError with the parsed error body', async () => {
    mockFetch(() =>
      json(
        {
          errorCodeResponse: 'OPERATOR_NOT_FOUND',
          errorMessage: 'Operator cpo-9 not found',
          errorDetail: { cpoId: 'cpo-9' },
          issues: [{ path: 'cpoId', message: 'unknown' }],
        },
        404,
      ),
    );
    const error = (await apiRequest({ service: 'bff', path: '/locations/location', method: 'POST', body: {} }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(404);
    expect(error.errorCodeResponse).toBe('OPERATOR_NOT_FOUND');
    expect(error.errorMessage).toBe('Operator cpo-9 not found');
    expect(error.errorDetail).toEqual({ cpoId: 'cpo-9' });
    expect(error.issues).toEqual([{ path: 'cpoId', message: 'unknown' }]);
  });

  it('turns a non-JSON error body into UNKNOWN_ERROR / Something went wrong', async () => {
    mockFetch(() => new Response('<html>Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const error = (await apiRequest({ service: 'bff', path: '/x' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.errorCodeResponse).toBe('UNKNOWN_ERROR');
    expect(error.errorMessage).toBe('Something went wrong');
    expect(error.message).toBe('Something went wrong');
  });

  it('keeps a JSON error body of another shape as errorDetail', async () => {
    mockFetch(() => json({ error: 'Location name taken' }, 400));
    const error = (await apiRequest({ service: 'bff', path: '/x' }).catch((e: unknown) => e)) as ApiError;
    expect(error.errorCodeResponse).toBe('UNKNOWN_ERROR');
    expect(error.errorDetail).toEqual({ error: 'Location name taken' });
  });

  it('throws NetworkError when fetch fails, with offline as the reason when the browser knows', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch');
    });
    const failed = await apiRequest({ service: 'bff', path: '/x' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(NetworkError);
    expect((failed as NetworkError).reason).toBe('failed');

    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const offline = await apiRequest({ service: 'bff', path: '/x' }).catch((e: unknown) => e);
    expect((offline as NetworkError).reason).toBe('offline');
  });

  it('rethrows an abort instead of wrapping it', async () => {
    const controller = new AbortController();
    mockFetch(() => {
      controller.abort();
      throw new DOMException('The operation was aborted.', 'AbortError');
    });
    const error = await apiRequest({ service: 'bff', path: '/x', signal: controller.signal }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(NetworkError);
    expect((error as Error).name).toBe('AbortError');
  });

  it('downloads binaries with the file name from Content-Disposition', async () => {
    mockFetch(
      () =>
        new Response(new Uint8Array([37, 80, 68, 70]), {
          status: 200,
          headers: {
            'Content-Type': 'application/pdf',
            'Content-Disposition': `attachment; filename="fallback.pdf"; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf`,
          },
        }),
    );
    const result = await apiRequest({ service: 'bff', path: '/bills/1/pdf', responseType: 'blob' });
    expect(result.status).toBe(200);
    expect(result.filename).toBe('Rechnung März.pdf');
    expect(result.contentType).toBe('application/pdf');
    expect(new Uint8Array(await result.blob.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70]));
  });

  it('reports 204 on downloads through the status', async () => {
    mockFetch(() => new Response(null, { status: 204 }));
    const result = await apiRequest({ service: 'bff', path: '/erp', responseType: 'blob' });
    expect(result.status).toBe(204);
    expect(result.filename).toBeNull();
  });
});

describe('Idempotency-Key', () => {
  const keyOf = (init: RequestInit) => new Headers(init.headers).get('Idempotency-Key');

  it('goes with every write, a key of its own for each; never with a read', async () => {
    const fetchMock = mockFetch(() => json({ data: true }));
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      await apiRequest({ service: 'bff', path: '/w', method, body: { a: 1 } });
    }
    await apiRequest({ service: 'bff', path: '/w', method: 'POST', auth: false });
    await apiRequest({ service: 'bff', path: '/r' });
    const keys = fetchMock.mock.calls.map(([, init]) => keyOf(init ?? {}));
    expect(keys.slice(0, 5).every((k) => typeof k === 'string' && k.length >= 32)).toBe(true);
    expect(new Set(keys.slice(0, 5)).size).toBe(5);
    expect(keys[5]).toBeNull();
  });

  it("keeps the caller's key, given as an option or as the header (the outbox's)", async () => {
    const fetchMock = mockFetch(() => json({ data: true }));
    await apiRequest({ service: 'bff', path: '/w', method: 'POST', idempotencyKey: 'press-1' });
    await apiRequest({ service: 'bff', path: '/w', method: 'PUT', headers: { 'Idempotency-Key': 'outbox-1' } });
    expect(fetchMock.mock.calls.map(([, init]) => keyOf(init ?? {}))).toEqual(['press-1', 'outbox-1']);
  });

  it('is random also where crypto.randomUUID is missing (a page served over plain http)', () => {
    const webCrypto = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: webCrypto.getRandomValues.bind(webCrypto) });
    const a = newIdempotencyKey();
    expect(a).toMatch(/^\d+-\d+-\d+-\d+$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('is the same on the resend after a refreshed token', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch((url, init) => {
      if (url === '/user-service/refresh-token') return json({ data: tokenPair(1) });
      return authHeader(init) === 'Bearer access-1' ? json({ data: true }) : json({ errorCodeResponse: 'TOKEN_EXPIRED' }, 401);
    });
    await apiRequest({ service: 'bff', path: '/w', method: 'POST', body: { a: 1 } });
    const [first, , resend] = fetchMock.mock.calls.map(([, init]) => keyOf(init ?? {}));
    expect(first).toBeTruthy();
    expect(resend).toBe(first);
  });
});

describe('filenameFromContentDisposition', () => {
  it('reads quoted, plain and extended forms', () => {
    expect(filenameFromContentDisposition('attachment; filename="a \\"b\\".csv"')).toBe('a "b".csv');
    expect(filenameFromContentDisposition('attachment; filename=export.xlsx')).toBe('export.xlsx');
    expect(filenameFromContentDisposition("attachment; filename*=utf-8''%C3%BC.pdf")).toBe('ü.pdf');
    expect(filenameFromContentDisposition('inline')).toBeNull();
    expect(filenameFromContentDisposition(null)).toBeNull();
  });
});

describe('401 handling', () => {
  const REFRESH_URL = '/user-service/refresh-token';

  it('refreshes once and retries the call with the new token', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch((url, init) => {
      if (url === REFRESH_URL) return json({ data: tokenPair(1) });
      return authHeader(init) === 'Bearer access-1'
        ? json({ data: ['ok'] })
        : json({ errorCodeResponse: 'TOKEN_EXPIRED', errorMessage: 'expired' }, 401);
    });

    await expect(apiRequest({ service: 'bff', path: '/cpos', schema: z.array(z.string()) })).resolves.toEqual(['ok']);

    const urls = fetchMock.mock.calls.map(([u]) => String(u));
    expect(urls).toEqual(['/bff/cpos', REFRESH_URL, '/bff/cpos']);
    const refreshInit = fetchMock.mock.calls[1][1] ?? {};
    expect(refreshInit.method).toBe('POST');
    expect(authHeader(refreshInit)).toBeNull();
    expect(JSON.parse(String(refreshInit.body))).toEqual({
      currentAccessToken: 'access-0',
      currentRefreshToken: 'refresh-0',
      origin: 'dashboard',
    });
    expect(getTokens()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  });

  it('retries only once: a second 401 is thrown', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch((url) =>
      url === REFRESH_URL ? json({ data: tokenPair(1) }) : json({ errorCodeResponse: 'FORBIDDEN' }, 401),
    );
    const error = (await apiRequest({ service: 'bff', path: '/cpos' }).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(401);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('shares one refresh between concurrent 401s', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    let releaseRefresh: () => void = () => {};
    const refreshGate = new Promise<void>((resolve) => (releaseRefresh = resolve));
    let unauthorizedSeen = 0;
    const fetchMock = mockFetch(async (url, init) => {
      if (url === REFRESH_URL) {
        await refreshGate;
        return json({ data: tokenPair(1) });
      }
      if (authHeader(init) === 'Bearer access-1') return json({ data: url });
      unauthorizedSeen++;
      if (unauthorizedSeen === 2) setTimeout(releaseRefresh, 0);
      return json({ errorCodeResponse: 'TOKEN_EXPIRED' }, 401);
    });

    const [a, b] = await Promise.all([
      apiRequest({ service: 'bff', path: '/a', schema: z.string() }),
      apiRequest({ service: 'bff', path: '/b', schema: z.string() }),
    ]);

    expect([a, b]).toEqual(['/bff/a', '/bff/b']);
    expect(fetchMock.mock.calls.filter(([u]) => u === REFRESH_URL)).toHaveLength(1);
    expect(fetchMock).toHaveBeenCalledTimes(5);
  });

  it('does not refresh again when another call already refreshed', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch((url, init) => {
      if (url === REFRESH_URL) return json({ data: tokenPair(2) });
      if (authHeader(init) === 'Bearer access-1') return json({ data: 'ok' });
      // The call was sent with access-0 while another one rotated the pair to access-1.
      setTokens({ accessToken: 'access-1', refreshToken: 'refresh-1' });
      return json({ errorCodeResponse: 'TOKEN_EXPIRED' }, 401);
    });
    await expect(apiRequest({ service: 'bff', path: '/a', schema: z.string() })).resolves.toBe('ok');
    expect(fetchMock.mock.calls.some(([u]) => u === REFRESH_URL)).toBe(false);
  });

  it('clears the tokens and notifies when the refresh is rejected', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const changes: TokenChange[] = [];
    const unsubscribe = subscribeTokens((c) => changes.push(c));
    const fetchMock = mockFetch((url) =>
      url === REFRESH_URL
        ? json({ errorCodeResponse: 'TOKEN_INVALID' }, 401)
        : json({ errorCodeResponse: 'TOKEN_EXPIRED', errorMessage: 'expired' }, 401),
    );

    const error = (await apiRequest({ service: 'bff', path: '/cpos' }).catch((e: unknown) => e)) as ApiError;
    unsubscribe();

    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(error.errorCodeResponse).toBe('TOKEN_EXPIRED');
    expect(getTokens()).toBeNull();
    expect(changes).toEqual([{ type: 'cleared', source: 'this-tab', reason: 'session-expired' }]);
    // The original call is not retried after a failed refresh.
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('keeps the tokens when the refresh fails for network reasons', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    mockFetch((url) => {
      if (url === REFRESH_URL) throw new TypeError('Failed to fetch');
      return json({ errorCodeResponse: 'TOKEN_EXPIRED' }, 401);
    });
    const error = await apiRequest({ service: 'bff', path: '/cpos' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(getTokens()).toEqual({ accessToken: 'access-0', refreshToken: 'refresh-0' });
  });

  it('clears and notifies when there is no refresh token at all', async () => {
    const changes: TokenChange[] = [];
    const unsubscribe = subscribeTokens((c) => changes.push(c));
    const fetchMock = mockFetch(() => json({ errorCodeResponse: 'UNAUTHORIZED' }, 401));
    const error = await apiRequest({ service: 'bff', path: '/cpos' }).catch((e: unknown) => e);
    unsubscribe();
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(changes.map((c) => c.type)).toEqual(['cleared']);
  });

  it('does not retry or refresh on other 4xx', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    for (const status of [400, 403, 404, 409, 422]) {
      const fetchMock = mockFetch(() => json({ errorCodeResponse: 'VALIDATION_ERROR' }, status));
      const error = (await apiRequest({ service: 'bff', path: '/x' }).catch((e: unknown) => e)) as ApiError;
      expect(error.status).toBe(status);
      expect(fetchMock).toHaveBeenCalledOnce();
    }
  });

  it('does not refresh for unauthenticated calls', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const fetchMock = mockFetch(() => json({ errorCodeResponse: 'UNAUTHORIZED', errorMessage: 'wrong' }, 401));
    const error = (await apiRequest({ service: 'userService', path: '/login', method: 'POST', body: {}, auth: false }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect(error).not.toBeInstanceOf(SessionExpiredError);
    expect(error.errorCodeResponse).toBe('UNAUTHORIZED');
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(getTokens()).not.toBeNull();
  });

  it('refreshAccessToken exchanges and stores the pair on demand', async () => {
    setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    mockFetch(() => json({ data: tokenPair(5) }));
    await expect(refreshAccessToken()).resolves.toBe('access-5');
    expect(getTokens()).toEqual({ accessToken: 'access-5', refreshToken: 'refresh-5' });
  });
});

/** A fetch that never answers; like the browser's, it rejects once its signal aborts. */
function hang(_url: string, init: RequestInit): Promise<Response> {
  return new Promise((_resolve, reject) => {
    const abort = () => reject(new DOMException('aborted', 'AbortError'));
    if (init.signal?.aborted) abort();
    init.signal?.addEventListener('abort', abort);
  });
}

describe('reachability from the requests themselves (lie-fi)', () => {
  afterEach(() => {
    reportAnswer();
    vi.useRealTimers();
  });

  it('a request without an answer marks the server as not answering; the next answer marks it answering', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest({ service: 'bff', path: '/x', auth: false })).rejects.toBeInstanceOf(NetworkError);
    expect(isServerAnswering()).toBe(false);
    mockFetch(() => json({ errorCodeResponse: 'NOT_FOUND' }, 404));
    await expect(apiRequest({ service: 'bff', path: '/x', auth: false })).rejects.toBeInstanceOf(ApiError);
    expect(isServerAnswering()).toBe(true);
  });

  it('after a request without an answer, the next one gives up after a short timeout instead of hanging', async () => {
    vi.useFakeTimers();
    reportNoAnswer();
    mockFetch(hang);
    const request = apiRequest({ service: 'bff', path: '/x', method: 'PUT', body: { a: 1 }, auth: false });
    const outcome = expect(request).rejects.toBeInstanceOf(NetworkError);
    await vi.advanceTimersByTimeAsync(FIRST_TRY_TIMEOUT_MS);
    await outcome;
    expect(isServerAnswering()).toBe(false);
  });

  it('a caller cancelling is not a missing answer', async () => {
    const controller = new AbortController();
    mockFetch(hang);
    const request = apiRequest({ service: 'bff', path: '/x', signal: controller.signal, auth: false });
    controller.abort();
    await expect(request).rejects.toMatchObject({ name: 'AbortError' });
    expect(isServerAnswering()).toBe(true);
  });

  it('times out reads and small writes, never uploads; shortly when the last request got no answer', () => {
    expect(answerTimeout('GET', undefined, true)).toBe(READ_TIMEOUT_MS);
    expect(answerTimeout('PUT', '{"a":1}', true)).toBe(WRITE_TIMEOUT_MS);
    expect(answerTimeout('PUT', '{"a":1}', false)).toBe(FIRST_TRY_TIMEOUT_MS);
    expect(answerTimeout('POST', new FormData(), false)).toBeNull();
    expect(answerTimeout('POST', 'x'.repeat(200_000), true)).toBeNull();
  });

  it('the probe counts only a JSON answer as the server (not a captive portal page)', async () => {
    reportNoAnswer();
    mockFetch(() => new Response('<html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    expect(await probeServer()).toBe(false);
    expect(isServerAnswering()).toBe(false);
    const fetchFn = mockFetch(() => new Response(null, { status: 200, headers: { 'Content-Type': 'application/json' } }));
    expect(await probeServer()).toBe(true);
    expect(isServerAnswering()).toBe(true);
    expect(fetchFn.mock.calls[0]?.[1]).toMatchObject({ method: 'HEAD', cache: 'no-store' });
  });
});
