import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAnswers } from './compress';
import { plainAnswer } from './plain-answer';

/**
 * Compression behind @hono/node-server, as the server runs it: `c.json` makes a lightweight
 * Response there, whose text `compressAnswers` reads from its cache instead of a stream.
 */
describe('compressAnswers behind the Node server', () => {
  let server: ServerType;
  let base: string;
  const big = { rows: Array.from({ length: 200 }, (_, i) => ({ id: `C${i}`, name: `Ladepunkt ${i} – Straße` })) };

  beforeAll(async () => {
    const app = new Hono()
      .use(compressAnswers)
      .get('/big', (c) => {
        c.header('ETag', '"3"');
        return c.json(big, 201);
      })
      .get('/small', (c) => c.json({ ok: true }))
      .get('/png', (c) => c.body(new Uint8Array(4000), 200, { 'content-type': 'image/png' }))
      .get('/stream', (c) => {
        const text = 'x'.repeat(5000);
        return c.body(
          new ReadableStream({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(text));
              controller.close();
            },
          }),
          200,
          { 'content-type': 'text/plain' },
        );
      });
    await new Promise<void>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        base = `http://127.0.0.1:${info.port}`;
        resolve();
      });
    });
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The raw bytes and headers (fetch would decompress). */
  const get = async (path: string, encoding?: string) => {
    const res = await fetch(`${base}${path}`, { headers: encoding ? { 'accept-encoding': encoding } : { 'accept-encoding': 'identity' } });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };

  it('reads a lightweight Response as status, body and headers without a stream', () => {
    // Made after `serve`, the global Response is the Node server's lightweight one.
    const json = new Response('{"a":1}', { status: 201, headers: { 'Content-Type': 'application/json', ETag: '"2"' } });
    expect(plainAnswer(json)).toEqual({ status: 201, body: '{"a":1}', headers: { 'content-type': 'application/json', etag: '"2"' } });
    expect(plainAnswer(new Response(new Uint8Array([1, 2])))).toEqual({
      status: 200,
      body: new Uint8Array([1, 2]),
      headers: { 'content-type': 'text/plain; charset=UTF-8' },
    });
    expect(plainAnswer(new Response(new ReadableStream()))).toBeUndefined();
    // Two cookies do not fit a record of one value per name: such an answer is left as it is.
    const cookies = new Headers();
    cookies.append('set-cookie', 'a=1');
    cookies.append('set-cookie', 'b=2');
    expect(plainAnswer(new Response('x', { headers: cookies }))).toBeUndefined();
  });

  it('compresses a JSON answer with Brotli or gzip, keeping status, type and a weak entity tag', async () => {
    for (const encoding of ['gzip, deflate, br', 'gzip']) {
      // fetch decompresses by itself: undici hands the decoded body, the headers tell what came.
      const res = await fetch(`${base}/big`, { headers: { 'accept-encoding': encoding } });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-encoding')).toBe(encoding === 'gzip' ? 'gzip' : 'br');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(res.headers.get('etag')).toBe('W/"3"');
      expect(await res.json()).toEqual(big);
    }
  });

  it('sends the compressed bytes with their length; identity, small and binary answers as they are', async () => {
    const http = await import('node:http');
    const raw = (path: string, encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        http
          .get(`${base}${path}`, { headers: { 'accept-encoding': encoding } }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          })
          .on('error', reject);
      });
    const br = await raw('/big', 'br');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(big);
    const gz = await raw('/big', 'gzip');
    expect(JSON.parse(gunzipSync(gz.body).toString())).toEqual(big);
    const identity = await get('/big');
    expect(identity.res.headers.get('content-encoding')).toBeNull();
    expect(identity.res.headers.get('etag')).toBe('"3"');
    expect(JSON.parse(identity.bytes.toString())).toEqual(big);
    const small = await raw('/small', 'br');
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(String(small.headers.vary)).toContain('Accept-Encoding');
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true });
    const png = await raw('/png', 'br');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.length).toBe(4000);
    // A streamed answer is read the usual way.
    const stream = await raw('/stream', 'br');
    expect(stream.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(stream.body).toString()).toBe('x'.repeat(5000));
  });
});
