import type { ServerResponse } from 'node:http';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from './errors';
import { isMultipart } from './multipart';
import type { AppBindings } from './types';

/**
 * What every API request goes through before its route's access check and transaction: the body is
 * size-checked and read in full first (so no database transaction or lock is ever held while a slow
 * client sends it), and strings the database cannot store are refused as 400.
 */

export type BodyLimit = 'json' | 'upload';

// The connection cannot carry another request after a refused body: saying so lets the client open
// a new one instead of sending its next request into a socket about to close.
const tooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large', undefined, undefined, { Connection: 'close' });

/**
 * Reads and throws away the rest of a refused body: at most `maxBytes`, and only while the client
 * keeps sending (`idleMs` without a byte ends it; REQUEST_TIMEOUT_MS bounds the whole).
 */
function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number, idleMs: number): Promise<void> {
  return new Promise((resolve) => {
    let read = 0;
    let idle = setTimeout(resolve, idleMs);
    const pump = (): void => {
      reader.read().then(
        ({ done, value }) => {
          clearTimeout(idle);
          read += value?.length ?? 0;
          if (done || read > maxBytes) return resolve();
          idle = setTimeout(resolve, idleMs);
          pump();
        },
        // The client went away: nobody reads the answer.
        () => {
          clearTimeout(idle);
          resolve();
        },
      );
    };
    pump();
  });
}

/**
 * The 413 is answered at once, but its response is ended (and Node closes the socket, as
 * `Connection: close` says) only after the rest of the body was read and thrown away. Closing a
 * socket whose client still sends makes the kernel answer with a reset, and a client that had not
 * read the 413 yet loses it: Node's fetch saw EPIPE instead. The answer's bytes are all written
 * before (it has a Content-Length), so the client can read it while it still sends.
 */
function endAfterDiscarding(c: Context<AppBindings>, reader: ReadableStreamDefaultReader<Uint8Array>): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  // Requests made in-process (tests) have no socket.
  if (!outgoing || typeof outgoing.end !== 'function') return;
  const env = c.get('env');
  const discarded = discardRest(reader, env.REFUSED_BODY_DISCARD_BYTES, env.REFUSED_BODY_DISCARD_IDLE_MS);
  const end = outgoing.end.bind(outgoing) as (cb?: () => void) => ServerResponse;
  outgoing.end = ((...args: unknown[]) => {
    const cb = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
    if (args[0] !== undefined && args[0] !== null) outgoing.write(args[0] as Uint8Array, (args[1] as BufferEncoding) ?? 'utf8');
    void discarded.then(() => end(cb));
    return outgoing;
  }) as ServerResponse['end'];
}

/** The refusal of a body over the limit, its rest read only to let the client see it. */
function refuse(c: Context<AppBindings>, reader: ReadableStreamDefaultReader<Uint8Array>): never {
  endAfterDiscarding(c, reader);
  throw tooLarge();
}

/** The body up to `maxSize` bytes, or a 413 once it is known to be larger (by Content-Length, or while it streams). */
async function limitedBody(c: Context<AppBindings>, maxSize: number): Promise<void> {
  const body = c.req.raw.body;
  if (!body) return;
  const declared = c.req.raw.headers.has('transfer-encoding') ? null : c.req.raw.headers.get('content-length');
  if (declared !== null && Number.parseInt(declared, 10) > maxSize) {
    refuse(c, body.getReader());
  }
  if (declared !== null) return; // within the limit: Node reads no more than it declares
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxSize) {
      refuse(c, reader);
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  c.req.raw = new Request(c.req.raw, { body: whole });
}

/**
 * Refuses a body over the route's limit with 413 before it is kept whole (by Content-Length, or
 * while streaming when there is none), then reads it into the request, where `c.req.text()` finds
 * it again (a multipart upload's as bytes, `c.req.arrayBuffer()`).
 */
export function readBodyFirst(limit: BodyLimit): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const maxSize = limit === 'upload' ? c.get('env').UPLOAD_BODY_LIMIT_BYTES : c.get('env').JSON_BODY_LIMIT_BYTES;
    try {
      await limitedBody(c, maxSize);
      // A multipart upload may be binary (an XLSX): kept as bytes, which text() still reads; text
      // first would turn bytes that are no UTF-8 into U+FFFD for good. JSON stays text, read once.
      if (limit === 'upload' && isMultipart(c)) await c.req.arrayBuffer();
      else await c.req.text();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      // The client went away mid-body (ECONNRESET): nothing to log, and nobody reads the answer.
      throw new ApiError(400, 'VALIDATION_ERROR', 'Request body incomplete', undefined, undefined, { Connection: 'close' });
    }
    await next();
  };
}

/** PostgreSQL's text cannot hold NUL; such input is refused as a validation error, never a 500. */
export const containsNul = (s: string) => s.includes('\u0000');

/**
 * What the database cannot store: a NUL, or a lone UTF-16 surrogate (`"\ud800"` in JSON), which
 * is no Unicode character: PostgreSQL refuses it in jsonb (22P02, a 500 before issue 34) and UTF-8
 * cannot encode it, so a text column would get U+FFFD in its place. `isWellFormed` is V8's own
 * scan (a look-around regex took ~120 ms per 20 MB of base64 attachment on the event loop).
 */
export const unstorable = (s: string) => containsNul(s) || !s.isWellFormed();

const invalidCharacters = (where: string) =>
  new ApiError(400, 'VALIDATION_ERROR', `Invalid character in ${where}`, undefined, [{ path: where, message: 'invalidCharacter' }]);

/** Path and query of an API request: no NUL, no broken percent-encoding. */
export const refuseUnstorableUrl: MiddlewareHandler<AppBindings> = async (c, next) => {
  const url = new URL(c.req.url);
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname) + decodeURIComponent(url.search.replace(/\+/g, ' '));
  } catch {
    throw invalidCharacters('url');
  }
  if (unstorable(decoded)) throw invalidCharacters('url');
  await next();
};

/**
 * Throws 400 naming the field (`contractInfo.name`, `items.2`) when any string or key in a parsed
 * JSON value is `unstorable`: one check for every route's body, before its schema, so no route can
 * hand such a string to the database. Iterative, so deep nesting cannot overflow the stack.
 */
export function refuseUnstorableJson(value: unknown): void {
  // Each entry knows its parent and key; a path is spelled out only for the refusal, and only
  // strings and containers are visited (a 10 MB file as an array of byte numbers made 10 million
  // path strings, seconds on the event loop).
  type Entry = { v: unknown; parent?: Entry; key?: string | number };
  const pathOf = (e: Entry, last?: string): string => {
    const keys: (string | number)[] = last === undefined ? [] : [last];
    for (let at: Entry | undefined = e; at?.parent; at = at.parent) keys.unshift(at.key!);
    return keys.join('.');
  };
  const visit = (v: unknown) => typeof v === 'string' || (typeof v === 'object' && v !== null);
  const stack: Entry[] = [{ v: value }];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const v = e.v;
    if (typeof v === 'string') {
      if (unstorable(v)) throw invalidCharacters(pathOf(e) || 'body');
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (visit(v[i])) stack.push({ v: v[i], parent: e, key: i });
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        // The key itself is named with its bad characters replaced, so the answer stays valid text.
        if (unstorable(k)) throw invalidCharacters(pathOf(e, k.slice(0, 100).toWellFormed().replaceAll('\u0000', '\ufffd')));
        if (visit(item)) stack.push({ v: item, parent: e, key: k });
      }
    }
  }
}

/**
 * The client's address behind `hops` trusted proxies: each proxy appends the address it was reached
 * from to X-Forwarded-For, so the entry the outermost one wrote is `hops` from the end; everything
 * before it is text the client sent and may forge. A header with fewer entries than that (a proxy
 * that did not append) gives its first entry, as proxy-addr does; no header, or 0 hops, the socket's.
 */
export function forwardedClientAddress(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  hops: number,
): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  if (hops > 0 && header) {
    const entries = header
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const entry = entries[Math.max(0, entries.length - hops)];
    if (entry) return entry;
  }
  return socketAddress ?? 'unknown';
}

/** The caller's address for the sign-in limits (`forwardedClientAddress`). */
export function clientAddress(c: Context<AppBindings>): string {
  let socketAddress: string | undefined;
  try {
    socketAddress = getConnInfo(c).remote.address;
  } catch {
    // Requests made in-process (tests) have no socket.
  }
  return forwardedClientAddress(c.req.header('x-forwarded-for'), socketAddress, c.get('env').TRUST_PROXY);
}
