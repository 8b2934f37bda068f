import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeConfigSchema } from '../../contract/config';
import { createApp } from './app';
import { compressAnswers } from './http/compress';
import { createHarness, type Harness } from './test/harness';
import { routeTable } from './http/route-table';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

describe('GET /config.json', () => {
  it('answers the runtime config from env, never cached', async () => {
    const app = createApp({ db: h.db, env: { ...h.env, CSV_SEPARATOR: ',', REDO_SEPA_INTERVAL_MINUTES: 30 } });
    const res = await app.request('/config.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const config = runtimeConfigSchema.parse(await res.json());
    expect(config).toMatchObject({
      csvSeparator: ',',
      redoSepaIntervalMinutes: 30,
      services: {
        userService: '/user-service',
        bff: '/bff',
        contractManagement: '/contract-management',
        bookingService: '/booking-service',
      },
    });
  });
});

describe('errors', () => {
  it('answers unknown API paths with 404 JSON NOT_FOUND under every base', async () => {
    for (const base of ['/user-service', '/bff', '/contract-management', '/booking-service']) {
      const res = await h.request('GET', `${base}/does-not-exist`);
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('NOT_FOUND');
    }
  });

  it('answers other paths with a plain 404 when no build is present', async () => {
    const res = await h.request('GET', '/standorte');
    expect(res.status).toBe(404);
    expect(typeof res.body).toBe('string');
  });

  it('answers malformed JSON with 400, never 500', async () => {
    const res = await h.request('POST', '/user-service/login', { raw: '{"username": "a@b.de", ' });
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    const arr = await h.request('POST', '/user-service/login', { raw: '[1,2,3]' });
    expect(arr.status).toBe(400);
  });

  it('hides internals of unexpected errors behind 500 INTERNAL_ERROR', async () => {
    const logged: string[] = [];
    const app = createApp({
      db: h.db,
      env: h.env,
      log: (m) => logged.push(m),
      extraRoutes: routeTable('bff', [
        {
          method: 'GET',
          path: '/boom',
          access: 'public',
          handler: () => {
            throw new Error('secret database detail');
          },
        },
      ]),
    });
    const res = await app.request('/bff/boom');
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body).toEqual({ errorCodeResponse: 'INTERNAL_ERROR', errorMessage: 'Something went wrong' });
    expect(logged).toHaveLength(1);
    // The route and the error's kind, never its message (a database error's carries the query's parameters).
    expect(logged[0]).toContain('GET /bff/boom');
    expect(logged[0]).not.toContain('secret database detail');
  });

  it("logs a failed query without its parameters, though drizzle's message spans several lines and holds them", async () => {
    const logged: string[] = [];
    const app = createApp({
      db: h.db,
      env: h.env,
      log: (m) => logged.push(m),
      extraRoutes: routeTable('bff', [
        {
          method: 'GET',
          path: '/bad-date',
          access: 'public',
          handler: async (c) => {
            // What an impossible date did before the contract refused it: PostgreSQL fails the statement.
            await h.db.execute(sql`select ${'erika.secret@example.de'}::text as mail, ${'2026-02-30'}::date as day`);
            return c.json({});
          },
        },
      ]),
    });
    const res = await app.request('/bff/bad-date');
    expect(res.status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain('GET /bff/bad-date');
    expect(logged[0]).toContain('22008');
    expect(logged[0]).not.toContain('erika.secret');
    expect(logged[0]).not.toContain('2026-02-30');
    expect(logged[0]).not.toMatch(/params|select/i);
  });
});

describe('static PWA', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cockpit-static-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>CPO Cockpit</title>');
    writeFileSync(path.join(dir, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  });

  it('serves files with the right caching and falls back to the shell for navigations', async () => {
    const app = createApp({ db: h.db, env: { ...h.env, STATIC_DIR: dir } });
    const asset = await app.request('/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const sw = await app.request('/sw.js');
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    const nav = await app.request('/standorte/L10001', { headers: { accept: 'text/html' } });
    expect(nav.status).toBe(200);
    expect(await nav.text()).toContain('CPO Cockpit');
    expect(nav.headers.get('cache-control')).toBe('no-cache');
    const missingAsset = await app.request('/assets/missing.js');
    expect(missingAsset.status).toBe(404);
    const api = await app.request('/bff/nope', { headers: { accept: 'text/html' } });
    expect(api.status).toBe(404);
    expect((await api.json()).errorCodeResponse).toBe('NOT_FOUND');
  });

  it('sends static files compressed at build time and compresses JSON answers, Brotli first, gzip as fallback', async () => {
    const js = `export const big = ${JSON.stringify('x'.repeat(5000))};`;
    writeFileSync(path.join(dir, 'assets', 'big-abc123.js'), js);
    writeFileSync(path.join(dir, 'assets', 'big-abc123.js.br'), brotliCompressSync(js));
    writeFileSync(path.join(dir, 'assets', 'big-abc123.js.gz'), gzipSync(js));
    const app = createApp({ db: h.db, env: { ...h.env, STATIC_DIR: dir } });
    const br = await app.request('/assets/big-abc123.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toContain('max-age=31536000');
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(js);
    const gz = await app.request('/assets/big-abc123.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const plain = await app.request('/assets/big-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(js);

    const { access_token } = await h.login('admin');
    const headers = (encoding: string) => ({ authorization: `Bearer ${access_token}`, 'accept-encoding': encoding });
    const json = await app.request('/bff/connectors/get-by-cpo?page=0&size=50', { headers: headers('gzip, br') });
    expect(json.status).toBe(200);
    expect(json.headers.get('content-encoding')).toBe('br');
    expect(json.headers.get('vary')).toContain('Accept-Encoding');
    const data = JSON.parse(brotliDecompressSync(Buffer.from(await json.arrayBuffer())).toString());
    expect(data.data.response.length).toBeGreaterThan(0);
    const gzJson = await app.request('/bff/connectors/get-by-cpo?page=0&size=50', { headers: headers('gzip') });
    expect(gzJson.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await gzJson.arrayBuffer())).toString())).toEqual(data);

    // A compressed answer keeps its version header, as a weak entity tag (same content, other bytes).
    const tagged = new Hono().use(compressAnswers).get('/x', (c) => {
      c.header('ETag', '"7"');
      return c.json({ filler: 'x'.repeat(4000) });
    });
    const brTagged = await tagged.request('/x', { headers: { 'accept-encoding': 'br' } });
    expect(brTagged.headers.get('content-encoding')).toBe('br');
    expect(brTagged.headers.get('etag')).toBe('W/"7"');
    expect((await tagged.request('/x')).headers.get('etag')).toBe('"7"');
  });
});
