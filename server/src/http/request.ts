import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from './errors';
import { isMultipart } from './multipart';
import type { AppBindings } from './types';

/**
 * What every API request goes through before its route's access check and transaction: the body is
 * size-checked and read in full first (so no database transaction or lock is ever held while a slow
 * client sends it), and strings the database cannot store are refused as 400.
 */

export type BodyLimit = 'json' | 'upload';

// The rest of the body is never read, so the connection cannot carry another request: saying so
// lets the client open a new one instead of sending its next request into a socket about to close.
const tooLarge = () => new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large', undefined, undefined, { Connection: 'close' });

/**
 * Refuses a body over the route's limit with 413 before it is read whole (by Content-Length, or
 * while streaming when there is none), then reads it into the request, where `c.req.text()` finds
 * it again (a multipart upload's as bytes, `c.req.arrayBuffer()`).
 */
export function readBodyFirst(limit: BodyLimit): MiddlewareHandler<AppBindings> {
  return async (c, next) => {
    const maxSize = limit === 'upload' ? c.get('env').UPLOAD_BODY_LIMIT_BYTES : c.get('env').JSON_BODY_LIMIT_BYTES;
    const limited = bodyLimit({
      maxSize,
      onError: () => {
        throw tooLarge();
      },
    });
    return limited(c, async () => {
      try {
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
    });
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
