import type { Context } from 'hono';

/**
 * Reading and remaking the lightweight Response of @hono/node-server (what `c.json` and `c.body`
 * make there) without turning it into a web Response: reading its `body` or `arrayBuffer()` makes
 * a ReadableStream (~60 µs of the event loop per answer), and its `headers` an undici Headers whose
 * every `set` validates and sorts (~2 µs each; the security headers of an API answer cost ~30 µs
 * that way, the writing of them as many again). Remade with a plain record of headers, the Node
 * server hands that record to `writeHead` as it is.
 */

/** An answer as status, text or bytes, and headers with lower-case names. */
export interface PlainAnswer {
  status: number;
  body: string | Uint8Array<ArrayBuffer>;
  headers: Record<string, string>;
}

/** The symbol under which the Node server's Response keeps `[status, body, headers]` (found on the first one seen). */
let cacheKey: symbol | undefined;

function cacheOf(res: Response): unknown[] | undefined {
  const holder = res as unknown as Record<symbol, unknown>;
  if (cacheKey === undefined) cacheKey = Object.getOwnPropertySymbols(res).find((key) => key.description === 'cache');
  const cache = cacheKey === undefined ? undefined : holder[cacheKey];
  return Array.isArray(cache) ? cache : undefined;
}

/**
 * A lightweight Response as status, body and headers; undefined for any other Response, or one
 * that sets cookies (a record holds one value per name).
 */
export function plainAnswer(res: Response): PlainAnswer | undefined {
  const cache = cacheOf(res);
  if (!cache) return undefined;
  const [status, body, init] = cache as [number, unknown, unknown];
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined;
  const headers: Record<string, string> = {};
  if (init instanceof Headers) {
    if (init.has('set-cookie')) return undefined;
    for (const [name, value] of init) headers[name] = value;
  } else if (init && typeof init === 'object') {
    for (const [name, value] of Object.entries(init as Record<string, unknown>)) {
      if (typeof value !== 'string') return undefined;
      headers[name.toLowerCase()] = value;
    }
  } else {
    // What the Node server sends for a body without headers.
    headers['content-type'] = 'text/plain; charset=UTF-8';
  }
  return { status, body: body as string | Uint8Array<ArrayBuffer>, headers };
}

/** A lightweight Response from its parts (made after the Node server has installed its Response). */
export const plainResponse = ({ status, body, headers }: PlainAnswer): Response => new Response(body, { status, headers });

/** Sets `record`'s headers on the context's answer, over any of the same name; a lightweight answer stays lightweight. */
export function setHeaders(c: Context, record: Record<string, string>) {
  const plain = plainAnswer(c.res);
  if (!plain) {
    for (const [name, value] of Object.entries(record)) c.res.headers.set(name, value);
    return;
  }
  // Replaced whole (`undefined` first), or Hono would copy the old answer's headers onto the new one.
  c.res = undefined as unknown as Response;
  Object.assign(plain.headers, record);
  c.res = plainResponse(plain);
}
