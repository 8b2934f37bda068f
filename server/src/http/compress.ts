import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Worth compressing: text, JSON, JavaScript, SVG, the manifest. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/i;
/** Below this a compressed answer is hardly smaller and costs a round of zlib. */
const MIN_BYTES = 1024;
/**
 * Up to this size an answer is compressed on the event loop (at most ~0.3 ms for 64 KB at Brotli
 * 4): zlib's thread-pool round trip costs ~100 µs of main-thread time per answer whatever its
 * size, more than compressing a list page itself (4 KB: 35 µs). Larger answers go to the pool.
 */
const SYNC_MAX_BYTES = 64 * 1024;

/**
 * Compresses what the server makes per request (API answers, the app's HTML shell) with Brotli,
 * or gzip for a client without it. Static files are compressed once at build time and served as
 * they are (`precompressed` in app.ts); a file served that way already has its Content-Encoding.
 * Brotli at quality 4: about gzip's speed with a smaller result.
 */
export const compressAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (c.req.method === 'HEAD' || res.headers.has('content-encoding')) return;
  if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return;
  const accepted = c.req.header('accept-encoding') ?? '';
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  if (!encoding) return;
  const plain = plainBody(res);
  if (plain === undefined && !res.body) return;
  if (plain === undefined && res.body && !res.headers.has('content-length')) {
    // A stream (a download): compressed as it flows, never read whole.
    const headers = new Headers(res.headers);
    headers.append('Vary', 'Accept-Encoding');
    headers.set('Content-Encoding', encoding);
    weakenEtag(headers);
    const zip = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : createGzip({ level: 6 });
    const body = Readable.toWeb(Readable.fromWeb(res.body as WebReadableStream).pipe(zip)) as ReadableStream;
    c.res = undefined as unknown as Response;
    c.res = new Response(body, { status: res.status, headers });
    return;
  }
  const raw = plain === undefined ? Buffer.from(await res.arrayBuffer()) : Buffer.from(plain);
  // A lightweight Response's headers are its own, plain Headers: changed in place, not copied
  // (~35 µs per answer); another Response's may be immutable.
  const headers = plain === undefined ? new Headers(res.headers) : res.headers;
  headers.append('Vary', 'Accept-Encoding');
  // Only a web Response has a status text of its own (reading it makes a lightweight one a web one).
  const init = { status: res.status, statusText: plain === undefined ? res.statusText : undefined, headers };
  // Replaced whole (`undefined` first), or Hono would copy the old answer's headers onto the new one.
  c.res = undefined as unknown as Response;
  if (raw.length < MIN_BYTES) {
    c.res = new Response(raw, init);
    return;
  }
  const sync = raw.length <= SYNC_MAX_BYTES;
  let body: Buffer<ArrayBuffer>;
  if (encoding === 'br') {
    const options: BrotliOptions = { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } };
    body = sync ? brotliCompressSync(raw, options) : await brotli(raw, options);
  } else {
    const options: ZlibOptions = { level: 6 };
    body = sync ? gzipSync(raw, options) : await gz(raw, options);
  }
  headers.set('Content-Encoding', encoding);
  weakenEtag(headers);
  headers.set('Content-Length', String(body.length));
  c.res = new Response(body, init);
};

/**
 * The entity tag named the uncompressed bytes: kept as a weak one (same content, other bytes), so a
 * detail's version header survives compression.
 */
function weakenEtag(headers: Headers) {
  const etag = headers.get('ETag');
  if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
}

/**
 * The text or bytes a lightweight Response of @hono/node-server (what `c.json` makes) was made
 * with, read from its cache. Reading `body` or `arrayBuffer()` instead turns it into a web Response
 * with a ReadableStream first: ~60 µs of the event loop per answer, more than compressing a list
 * page. Undefined for any other Response (a stream, a file), which is read the usual way.
 */
export function plainBody(res: Response): string | Uint8Array | undefined {
  for (const key of Object.getOwnPropertySymbols(res)) {
    if (key.description !== 'cache') continue;
    const cache: unknown = (res as unknown as Record<symbol, unknown>)[key];
    const body = Array.isArray(cache) ? (cache[1] as unknown) : undefined;
    if (typeof body === 'string' || body instanceof Uint8Array) return body;
  }
  return undefined;
}
