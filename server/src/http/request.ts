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
  if (containsNul(decoded)) throw invalidCharacters('url');
  await next();
};

/** Throws 400 when any string (or key) in a parsed JSON value holds a NUL; iterative, so deep nesting cannot overflow the stack. */
export function refuseUnstorableJson(value: unknown): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (containsNul(v)) throw invalidCharacters('body');
    } else if (Array.isArray(v)) {
      for (const item of v) stack.push(item);
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (containsNul(k)) throw invalidCharacters('body');
        stack.push(item);
      }
    }
  }
}

/** The caller's address for the sign-in limits: the socket's, or the first X-Forwarded-For entry behind a trusted proxy. */
export function clientAddress(c: Context<AppBindings>): string {
  if (c.get('env').TRUST_PROXY) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // Requests made in-process (tests) have no socket.
    return 'unknown';
  }
}
