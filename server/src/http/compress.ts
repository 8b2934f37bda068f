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
import { plainAnswer, plainResponse } from './plain-answer';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Worth compressing: text, JSON, JavaScript, SVG, the manifest. */
// Not text/event-stream: a compressor holds events back until its buffer fills.
const COMPRESSIBLE = /^(text\/(?!event-stream)|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/i;
/** Below this a compressed answer is hardly smaller and costs a round of zlib. */
const MIN_BYTES = 1024;
/**
 * Up to this size an answer is compressed on the event loop (at most ~0.3 ms for 64 KB at Brotli
 * 4): zlib's thread-pool round trip costs ~100 µs of main-thread time per answer whatever its
 * size, more than compressing a list page itself (4 KB: 35 µs). Larger answers go to the pool.
 */
const SYNC_MAX_BYTES = 64 * 1024;
/**
 * Brotli's quality for an answer made whole: a list page (4.4 KB) takes ~18 µs at 3 and ~28 µs at
 * 4 (quality 4 sets up larger tables per answer) for 1 % fewer bytes; gzip (level 6) ~17 µs. A
 * stream (a download of any length) is compressed at 4, its setup spread over the whole file.
 */
const ANSWER_QUALITY = 3;

/**
 * Compresses what the server makes per request (API answers, the app's HTML shell) with Brotli,
 * or gzip for a client without it. Static files are compressed once at build time and served as
 * they are (`precompressed` in app.ts); a file served that way already has its Content-Encoding.
 * Brotli at quality 3 for answers made whole (`ANSWER_QUALITY`), 4 for streams.
 */
export const compressAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.req.method === 'HEAD') return;
  const res = c.res;
  const plain = plainAnswer(res);
  const encoded = plain ? 'content-encoding' in plain.headers : res.headers.has('content-encoding');
  if (encoded || !COMPRESSIBLE.test((plain ? plain.headers['content-type'] : res.headers.get('content-type')) ?? '')) return;
  const accepted = c.req.header('accept-encoding') ?? '';
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  if (!encoding) return;
  if (plain) {
    // A lightweight Response: its record of headers is extended and handed on as a record.
    const { status, body, headers } = plain;
    const raw = typeof body === 'string' ? Buffer.from(body) : body;
    headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : 'Accept-Encoding';
    c.res = undefined as unknown as Response;
    if (raw.length < MIN_BYTES) {
      c.res = plainResponse({ status, body, headers });
      return;
    }
    const zipped = await compress(raw, encoding);
    headers['content-encoding'] = encoding;
    headers['content-length'] = String(zipped.length);
    if (headers.etag && !headers.etag.startsWith('W/')) headers.etag = `W/${headers.etag}`;
    c.res = plainResponse({ status, body: zipped, headers });
    return;
  }
  if (!res.body) return;
  const headers = new Headers(res.headers);
  headers.append('Vary', 'Accept-Encoding');
  if (!res.headers.has('content-length')) {
    // A stream (a download): compressed as it flows, never read whole.
    headers.set('Content-Encoding', encoding);
    weakenEtag(headers);
    const zip = encoding === 'br' ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }) : createGzip({ level: 6 });
    const body = Readable.toWeb(Readable.fromWeb(res.body as WebReadableStream).pipe(zip)) as ReadableStream;
    c.res = undefined as unknown as Response;
    c.res = new Response(body, { status: res.status, headers });
    return;
  }
  const raw = Buffer.from(await res.arrayBuffer());
  // Replaced whole (`undefined` first), or Hono would copy the old answer's headers onto the new one.
  c.res = undefined as unknown as Response;
  const init = { status: res.status, statusText: res.statusText, headers };
  if (raw.length < MIN_BYTES) {
    c.res = new Response(raw, init);
    return;
  }
  const body = await compress(raw, encoding);
  headers.set('Content-Encoding', encoding);
  weakenEtag(headers);
  headers.set('Content-Length', String(body.length));
  c.res = new Response(body, init);
};

/** Small answers on the event loop, larger ones in zlib's pool (`SYNC_MAX_BYTES`). */
function compress(raw: Uint8Array, encoding: 'br' | 'gzip'): Promise<Buffer<ArrayBuffer>> | Buffer<ArrayBuffer> {
  const sync = raw.length <= SYNC_MAX_BYTES;
  if (encoding === 'br') {
    const options: BrotliOptions = {
      params: { [constants.BROTLI_PARAM_QUALITY]: ANSWER_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    };
    return sync ? brotliCompressSync(raw, options) : brotli(raw, options);
  }
  const options: ZlibOptions = { level: 6 };
  return sync ? gzipSync(raw, options) : gz(raw, options);
}

/**
 * The entity tag named the uncompressed bytes: kept as a weak one (same content, other bytes), so a
 * detail's version header survives compression.
 */
function weakenEtag(headers: Headers) {
  const etag = headers.get('ETag');
  if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
}
