import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Worth compressing: text, JSON, JavaScript, SVG, the manifest. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg\+xml)/i;
/** Below this a compressed answer is hardly smaller and costs a round of zlib. */
const MIN_BYTES = 1024;

/**
 * Compresses what the server makes per request (API answers, the app's HTML shell) with Brotli,
 * or gzip for a client without it. Static files are compressed once at build time and served as
 * they are (`precompressed` in app.ts); a file served that way already has its Content-Encoding.
 * Brotli at quality 4: about gzip's speed with a smaller result.
 */
export const compressAnswers: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  if (!res.body || res.headers.has('content-encoding') || c.req.method === 'HEAD') return;
  if (!COMPRESSIBLE.test(res.headers.get('content-type') ?? '')) return;
  const accepted = c.req.header('accept-encoding') ?? '';
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
  if (!encoding) return;
  const raw = Buffer.from(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.append('Vary', 'Accept-Encoding');
  // Replaced whole (`undefined` first), or Hono would copy the old answer's headers onto the new one.
  c.res = undefined as unknown as Response;
  if (raw.length < MIN_BYTES) {
    c.res = new Response(raw, { status: res.status, statusText: res.statusText, headers });
    return;
  }
  const body =
    encoding === 'br'
      ? await brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } })
      : await gz(raw, { level: 6 });
  headers.set('Content-Encoding', encoding);
  headers.delete('ETag');
  headers.set('Content-Length', String(body.length));
  c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
};
