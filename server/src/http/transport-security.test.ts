import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Env } from '../env';
import { createHarness, type Harness } from '../test/harness';

/** HSTS goes out over HTTPS only: the request's own protocol, or X-Forwarded-Proto behind a trusted proxy. */

let h: Harness;
let staticDir: string;
beforeAll(async () => {
  h = await createHarness();
  staticDir = mkdtempSync(path.join(tmpdir(), 'cockpit-hsts-'));
  mkdirSync(path.join(staticDir, 'assets'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>CPO Cockpit</title>');
});
afterAll(() => h?.close());

const hsts = 'max-age=15552000; includeSubDomains';
/** An API answer, an app page and a static file: every kind of answer the headers' middleware sees. */
const paths = ['/bff/cpos', '/cockpit', '/index.html'];

/** The Strict-Transport-Security header of each path, through a real Node server (plain HTTP). */
async function overNode(env: Env, headers: Record<string, string>): Promise<(string | undefined)[]> {
  const app = createApp({ db: h.db, env, log: () => {} });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  try {
    const get = (p: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', path: p, agent: false, headers: { accept: 'text/html', ...headers } }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers['strict-transport-security'] as string | undefined));
        });
        req.on('error', reject);
        req.end();
      });
    return await Promise.all(paths.map(get));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('Strict-Transport-Security', () => {
  it('is not sent over plain HTTP, nor for an X-Forwarded-Proto nobody vouches for', async () => {
    const env = { ...h.env, STATIC_DIR: staticDir, TRUST_PROXY: 0 };
    expect(await overNode(env, {})).toEqual([undefined, undefined, undefined]);
    expect(await overNode(env, { 'x-forwarded-proto': 'https' })).toEqual([undefined, undefined, undefined]);
  });

  it('is sent behind a trusted proxy that says the client came over HTTPS, and only then', async () => {
    const env = { ...h.env, STATIC_DIR: staticDir, TRUST_PROXY: 1 };
    expect(await overNode(env, { 'x-forwarded-proto': 'https' })).toEqual([hsts, hsts, hsts]);
    expect(await overNode(env, { 'x-forwarded-proto': 'https, http' })).toEqual([hsts, hsts, hsts]);
    expect(await overNode(env, { 'x-forwarded-proto': 'http' })).toEqual([undefined, undefined, undefined]);
    expect(await overNode(env, {})).toEqual([undefined, undefined, undefined]);
  });

  it("is sent when the request's own protocol is HTTPS", async () => {
    const app = createApp({ db: h.db, env: { ...h.env, STATIC_DIR: staticDir }, log: () => {} });
    for (const p of paths) {
      const secure = await app.request(`https://cockpit.example.org${p}`, { headers: { accept: 'text/html' } });
      expect(secure.headers.get('strict-transport-security')).toBe(hsts);
      const plain = await app.request(`http://cockpit.example.org${p}`, { headers: { accept: 'text/html' } });
      expect(plain.headers.get('strict-transport-security')).toBeNull();
    }
  });
});
