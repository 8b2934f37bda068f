import { clearTokens, getAccessToken, getTokens, setTokenPair, whenTokensStored } from '../auth/token-store';
import { ORIGIN_DASHBOARD, tokenPairAnswer } from '../auth/token-answers';
import type { AnswerCheck } from './answer-check';
import { CONFIG_URL, getServiceBase, type ServiceName } from './config';
import { isServerAnswering, reportAnswer, reportNoAnswer } from '../offline/online-status';
import {
  ApiError,
  NetworkError,
  ResponseShapeError,
  SessionExpiredError,
  apiErrorFromResponse,
  isAbortError,
  issuesFromZod,
} from './errors';
import { trackWrite } from './activity';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type QueryScalar = string | number | boolean;
export type QueryValue = QueryScalar | null | undefined | ReadonlyArray<QueryScalar | null | undefined>;
export type QueryParams = Record<string, QueryValue>;

interface BaseRequestOptions {
  service: ServiceName;
  /** Path inside the service, starting with `/`; encode path segments (ids, e-mails) yourself. */
  path: string;
  method?: HttpMethod;
  query?: QueryParams;
  /**
   * Plain values are sent as JSON with empty values removed (spec 1 §5). FormData, Blob,
   * URLSearchParams, binary data and strings go out untouched.
   */
  body?: unknown;
  headers?: HeadersInit;
  signal?: AbortSignal;
  /** Send the bearer token and refresh it once on 401. Defaults to true. */
  auth?: boolean;
  /** Writes show the loading overlay unless they run in the background (outbox replay). */
  background?: boolean;
  /**
   * The write's Idempotency-Key, for a caller that may send the same write again (a mutation's
   * press, see api/mutations.ts). Without it (and without the header) every write gets a key of its
   * own, which its 401 resend keeps.
   */
  idempotencyKey?: string;
  /** How much of the body was sent (0…1), for a file upload's progress bar; the request then goes by XMLHttpRequest. */
  onUploadProgress?: (fraction: number) => void;
}

/** What an answer check gives: the zod schema's output, or a hand-written check's type. */
export type AnswerOf<S> = S extends AnswerCheck<infer T> ? T : never;

export interface JsonRequestOptions<S extends AnswerCheck<unknown>> extends BaseRequestOptions {
  responseType?: 'json';
  /** Validates the envelope's `data`: the contract's zod schema, or a hand-written check (answer-check.ts). */
  schema: S;
}

export interface UntypedRequestOptions extends BaseRequestOptions {
  responseType?: 'json';
  schema?: undefined;
}

export interface BlobRequestOptions extends BaseRequestOptions {
  responseType: 'blob';
  /** Bytes of the answer received so far (and its length when the server said), while it streams in. */
  onDownloadProgress?: (received: number, total: number | null) => void;
}

export interface BlobResult {
  blob: Blob;
  filename: string | null;
  contentType: string | null;
  /** 204 means "nothing to download" (spec 3 §8), so callers need the status, not only the blob. */
  status: number;
}

type AnyRequestOptions = BaseRequestOptions & {
  responseType?: 'json' | 'blob';
  schema?: AnswerCheck<unknown>;
  onDownloadProgress?: BlobRequestOptions['onDownloadProgress'];
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Removes undefined, null, '' and arrays/objects that end up empty, recursively; keeps false and 0.
 * Only plain objects and arrays are walked, so Dates and files survive. Returns undefined when
 * nothing is left.
 */
export function dropEmpty<T>(value: T): T | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) {
    const items = value.map((item: unknown) => dropEmpty(item)).filter((item) => item !== undefined);
    return items.length > 0 ? (items as T) : undefined;
  }
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleaned = dropEmpty(item);
      if (cleaned !== undefined) out[key] = cleaned;
    }
    return Object.keys(out).length > 0 ? (out as T) : undefined;
  }
  return value;
}

const isEmptyQueryValue = (v: unknown): v is null | undefined | '' => v === undefined || v === null || v === '';

/** `a=1&list=x,y`: empty values and empty lists are left out, list items comma-joined (spec 1 §7). */
export function buildQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(query)) {
    let encoded: string;
    if (Array.isArray(raw)) {
      const items = (raw as ReadonlyArray<QueryScalar | null | undefined>).filter((v) => !isEmptyQueryValue(v));
      if (items.length === 0) continue;
      // Literal commas between items, encoded ones inside items, so the server can split safely.
      encoded = items.map((v) => encodeURIComponent(String(v))).join(',');
    } else {
      if (isEmptyQueryValue(raw)) continue;
      encoded = encodeURIComponent(String(raw));
    }
    parts.push(`${encodeURIComponent(key)}=${encoded}`);
  }
  return parts.join('&');
}

export function buildUrl(base: string, path: string, query?: QueryParams): string {
  const url = base.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
  const qs = buildQueryString(query);
  if (!qs) return url;
  return url + (url.includes('?') ? '&' : '?') + qs;
}

/** Reads the file name from Content-Disposition, preferring RFC 5987 `filename*` (umlauts). */
export function filenameFromContentDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2]) {
    try {
      return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
    } catch {
      // Malformed percent-encoding: fall through to the plain parameter.
    }
  }
  const quoted = /filename\s*=\s*"((?:\\.|[^"\\])*)"/i.exec(header);
  if (quoted) return quoted[1].replace(/\\(.)/g, '$1');
  const plain = /filename\s*=\s*([^;]+)/i.exec(header);
  return plain ? plain[1].trim() : null;
}

function isPassThroughBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** A random key; `crypto.randomUUID` is missing where the page is served over plain http (a LAN address). */
export const newIdempotencyKey = (): string =>
  (crypto.randomUUID as (() => string) | undefined)?.call(crypto) ?? crypto.getRandomValues(new Uint32Array(4)).join('-');

interface Prepared {
  url: string;
  method: HttpMethod;
  headers: Headers;
  body: BodyInit | undefined;
  signal: AbortSignal | undefined;
  onUploadProgress?: (fraction: number) => void;
}

async function prepare(options: AnyRequestOptions): Promise<Prepared> {
  const method = options.method ?? 'GET';
  const url = buildUrl(await getServiceBase(options.service), options.path, options.query);
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) headers.set('Accept', options.responseType === 'blob' ? '*/*' : 'application/json');
  // Every write by construction: a resend after a lost answer is then answered from the server's record.
  if (method !== 'GET' && !headers.has(IDEMPOTENCY_HEADER)) headers.set(IDEMPOTENCY_HEADER, options.idempotencyKey ?? newIdempotencyKey());
  let body: BodyInit | undefined;
  if (options.body !== undefined && method !== 'GET') {
    if (isPassThroughBody(options.body)) {
      // FormData must keep the browser's multipart boundary, so no Content-Type of ours.
      body = options.body;
    } else {
      if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
      body = JSON.stringify(dropEmpty(options.body) ?? (Array.isArray(options.body) ? [] : {}));
    }
  }
  return { url, method, headers, body, signal: options.signal, onUploadProgress: options.onUploadProgress };
}

/** How long a request may wait for its answer's headers when the last request got one. */
export const READ_TIMEOUT_MS = 10_000;
export const WRITE_TIMEOUT_MS = 20_000;
/**
 * When the last request got no answer, the first try of the next waits this long only: on lie-fi a
 * request may hang for minutes, and the user should hear 'saved on this device' within 2 s.
 */
export const FIRST_TRY_TIMEOUT_MS = 2_500;
/** Bodies above this (an upload, a contract PDF) may take longer to send than any header timeout. */
const TIMED_BODY_BYTES = 64 * 1024;

function bodyBytes(body: BodyInit | undefined): number {
  if (body === undefined || body === null) return 0;
  if (typeof body === 'string') return body.length;
  if (typeof Blob !== 'undefined' && body instanceof Blob) return body.size;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return body.byteLength;
  // FormData and streams: an upload; never cut short.
  return Infinity;
}

/** The time a request may wait for its answer, or null for none. */
export function answerTimeout(method: HttpMethod, body: BodyInit | undefined, serverAnswering: boolean): number | null {
  if (bodyBytes(body) > TIMED_BODY_BYTES) return null;
  if (!serverAnswering) return FIRST_TRY_TIMEOUT_MS;
  return method === 'GET' ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS;
}

/** The caller's signal, plus our own timeout; `timedOut` tells the two apart. */
function withTimeout(signal: AbortSignal | undefined, ms: number | null) {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    ms === null
      ? null
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, ms);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    done: () => {
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * One fetch. Whether an answer came back is reported to online-status.ts: that, not
 * navigator.onLine alone, decides whether the app treats the network as there (lie-fi).
 */
async function send(prepared: Prepared, token: string | null): Promise<Response> {
  const headers = new Headers(prepared.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const timeout = withTimeout(prepared.signal, answerTimeout(prepared.method, prepared.body, isServerAnswering()));
  try {
    const init: RequestInit = { method: prepared.method, headers, body: prepared.body, signal: timeout.signal };
    let response: Response;
    if (prepared.onUploadProgress) {
      const { fetchWithUploadProgress } = await import('./upload-progress');
      response = await fetchWithUploadProgress(prepared.url, init, prepared.onUploadProgress);
    } else {
      response = await fetch(prepared.url, init);
    }
    reportAnswer();
    return response;
  } catch (error) {
    // Cancellation is not a failure: TanStack Query and callers expect the AbortError itself.
    if (!timeout.timedOut() && (isAbortError(error) || prepared.signal?.aborted)) throw error;
    reportNoAnswer();
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new NetworkError(offline ? 'offline' : 'failed', { cause: error });
  } finally {
    timeout.done();
  }
}

/**
 * A cheap request that tells whether the server answers (offline/reachability-probe.ts): HEAD of
 * the runtime config, which the service worker leaves to the network (it only keeps GETs of it).
 * Only a JSON answer counts, so a captive portal's page does not read as the server.
 */
export async function probeServer(): Promise<boolean> {
  const timeout = withTimeout(undefined, FIRST_TRY_TIMEOUT_MS);
  try {
    const response = await fetch(CONFIG_URL, { method: 'HEAD', cache: 'no-store', signal: timeout.signal });
    const ours = response.status < 500 && (response.headers.get('Content-Type') ?? '').includes('json');
    if (ours) reportAnswer();
    return ours;
  } catch {
    reportNoAnswer();
    return false;
  } finally {
    timeout.done();
  }
}

const REFRESH_LOCK = 'cpo-cockpit-token-refresh';

/**
 * Refresh tokens rotate, so two tabs refreshing with the same one would log each other out. A Web
 * Lock serialises the tabs; the second one then sees the new token and skips its own refresh.
 */
async function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }).locks : undefined;
  if (!locks?.request) return fn();
  return locks.request(REFRESH_LOCK, fn);
}

function sessionExpired(from?: ApiError): SessionExpiredError {
  return new SessionExpiredError({
    status: 401,
    errorCodeResponse: from?.errorCodeResponse ?? 'UNAUTHORIZED',
    errorMessage: from?.errorMessage,
    errorDetail: from?.errorDetail,
    issues: from?.issues,
  });
}

async function performRefresh(staleAccessToken: string | null): Promise<string> {
  return withRefreshLock(async () => {
    const tokens = getTokens();
    if (tokens && staleAccessToken !== null && tokens.accessToken !== staleAccessToken) return tokens.accessToken;
    if (!tokens) {
      clearTokens('session-expired');
      throw sessionExpired();
    }
    const prepared = await prepare({
      service: 'userService',
      path: '/refresh-token',
      method: 'POST',
      body: {
        currentAccessToken: tokens.accessToken,
        currentRefreshToken: tokens.refreshToken,
        origin: ORIGIN_DASHBOARD,
      },
    });
    // Network failures and 5xx keep the tokens: the session may well be fine once the server is back.
    const response = await send(prepared, null);
    if (!response.ok) {
      const error = await apiErrorFromResponse(response);
      if (response.status >= 500) throw error;
      const now = getTokens();
      // Another tab (without Web Locks) rotated the pair meanwhile; its tokens are good.
      if (now && now.refreshToken !== tokens.refreshToken) return now.accessToken;
      clearTokens('session-expired');
      throw sessionExpired(error);
    }
    const pair = await parseJson(response, tokenPairAnswer);
    setTokenPair(pair);
    // The old refresh token is spent: the new pair must survive a killed browser before it is used.
    await whenTokensStored();
    return pair.access_token;
  });
}

let refreshInFlight: Promise<string> | null = null;

/**
 * Exchanges the stored token pair for a new one and stores it; concurrent callers share one request.
 * Also used after operator creation and e-mail change (spec 1 §4), when the claims changed.
 * When the server rejects the refresh the tokens are cleared (reason `session-expired`) and a
 * SessionExpiredError is thrown.
 */
export function refreshAccessToken(): Promise<string> {
  return refreshAfter(null);
}

function refreshAfter(staleAccessToken: string | null): Promise<string> {
  if (!refreshInFlight) {
    refreshInFlight = performRefresh(staleAccessToken).finally(() => {
      refreshInFlight = null;
    });
  }
  return refreshInFlight;
}

async function parseJson<S extends AnswerCheck<unknown>>(response: Response, schema: S | undefined): Promise<AnswerOf<S>> {
  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseShapeError({ status: response.status, errorDetail: text.slice(0, 500) });
    }
  }
  const data = isPlainObject(json) ? json.data : undefined;
  if (!schema) return data as AnswerOf<S>;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new ResponseShapeError({ status: response.status, issues: issuesFromZod(parsed.error) });
  }
  return parsed.data as AnswerOf<S>;
}

/**
 * The one way the PWA talks to the four services: service base from /config.json, bearer token,
 * one refresh-and-retry on 401, `{ data }` envelope validated with `schema`. Never retries anything
 * else (TanStack Query and the outbox own that policy).
 *
 * @throws ApiError for non-2xx answers and contract violations (SessionExpiredError when a 401
 *   could not be cured), NetworkError when no answer arrived, the AbortError when `signal` aborted.
 */
export function apiRequest(options: BlobRequestOptions): Promise<BlobResult>;
export function apiRequest<S extends AnswerCheck<unknown>>(options: JsonRequestOptions<S>): Promise<AnswerOf<S>>;
export function apiRequest(options: UntypedRequestOptions): Promise<unknown>;
export function apiRequest(options: AnyRequestOptions): Promise<unknown> {
  const method = options.method ?? 'GET';
  return method === 'GET' || options.background ? perform(options) : trackWrite(() => perform(options));
}

async function readBlob(response: Response, onProgress: BlobRequestOptions['onDownloadProgress']): Promise<Blob> {
  try {
    if (!onProgress) return await response.blob();
    const { readWithProgress } = await import('./download-progress');
    return await readWithProgress(response, onProgress);
  } catch (error) {
    if (isAbortError(error)) throw error;
    // The answer broke off midway (the network went): no answer, as for a request that got none.
    reportNoAnswer();
    throw new NetworkError('failed', { cause: error });
  }
}

async function perform(options: AnyRequestOptions): Promise<unknown> {
  const auth = options.auth ?? true;
  const prepared = await prepare(options);
  const token = auth ? getAccessToken() : null;
  let response = await send(prepared, token);

  if (auth && response.status === 401) {
    const unauthorized = await apiErrorFromResponse(response);
    let fresh: string;
    try {
      fresh = await refreshAfter(token);
    } catch (error) {
      if (error instanceof SessionExpiredError) throw sessionExpired(unauthorized);
      throw error;
    }
    response = await send(prepared, fresh);
  }

  if (!response.ok) throw await apiErrorFromResponse(response);

  if (options.responseType === 'blob') {
    return {
      blob: await readBlob(response, options.onDownloadProgress),
      filename: filenameFromContentDisposition(response.headers.get('Content-Disposition')),
      contentType: response.headers.get('Content-Type'),
      status: response.status,
    } satisfies BlobResult;
  }
  return parseJson(response, options.schema);
}
