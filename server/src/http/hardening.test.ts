import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { and, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { dashboardUsers } from '../db/schema/auth';
import { idempotencyKeys, throttles } from '../db/schema/http';
import { mailOutbox } from '../db/schema/mail';
import { connectors } from '../db/schema/stations';
import { demoAccounts } from '../seed/seed';
import { IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS, requestFingerprint } from './idempotency';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const login = (username: string, password: string) =>
  h.request('POST', '/user-service/login', { body: { username, password, origin: 'dashboard' } });

describe('body limits', () => {
  it('refuses a 2 MB JSON body with 413 PAYLOAD_TOO_LARGE before reading it, signed in or not', async () => {
    const { access_token } = await h.login('operator');
    const big = JSON.stringify([{ connectorId: 'x'.repeat(2 * 1024 * 1024), cpId: 'a', locationId: 'b', parkingLotNumber: '1' }]);
    const put = await h.request('PUT', '/bff/connectors/update-parking-lots', { raw: big, token: access_token });
    expect(put.status).toBe(413);
    expect(put.body.errorCodeResponse).toBe('PAYLOAD_TOO_LARGE');
    const anonymous = await h.request('POST', '/user-service/login', {
      raw: JSON.stringify({ username: 'a@b.de', password: 'x'.repeat(2 ** 21) }),
    });
    expect(anonymous.status).toBe(413);
  });

  it('counts a body sent without Content-Length while it streams', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(256 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const res = await h.app.request('/user-service/login', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });
});

describe('strings the database cannot store', () => {
  it('refuses a NUL byte in a body, a path and a query with 400, anonymously too', async () => {
    const body = await login('a\u0000b@x.de', 'whatever');
    expect(body.status).toBe(400);
    expect(body.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    const pathNul = await h.request('GET', '/user-service/forget-password/a%00b%40x.de');
    expect(pathNul.status).toBe(400);
    const { access_token } = await h.login('operator');
    const query = await h.request('GET', '/bff/connectors/get-by-cpo?cpId=%00&page=0&size=10', { token: access_token });
    expect(query.status).toBe(400);
    const broken = await h.request('GET', '/bff/connectors/get-by-cpo?cpId=%E0%A4%A&page=0&size=10', { token: access_token });
    expect(broken.status).toBe(400);
  });

  it('takes an e-mail with a percent sign in the reset path as what it is, not as an encoding', async () => {
    const res = await h.request('GET', `/user-service/forget-password/${encodeURIComponent('a%zz@x.de')}`);
    expect(res.status).toBe(404);
    expect(res.body.errorCodeResponse).toBe('USER_NOT_FOUND');
  });
});

describe('headers and paths', () => {
  it('sends the security headers and no-store on every API answer, compressed or not, behind the Node server', async () => {
    const { access_token } = await h.login('operator');
    // Behind @hono/node-server answers are its lightweight Responses, whose headers go out as one record.
    const server = serve({ fetch: h.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const get = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', path, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
      });
    const expected = {
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'; sandbox",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'x-permitted-cross-domain-policies': 'none',
    };
    try {
      const answers = [
        await get('/bff/connectors/get-by-cpo?page=0&size=10', { authorization: `Bearer ${access_token}`, 'accept-encoding': 'br' }),
        await get('/bff/cpos', { authorization: `Bearer ${access_token}`, 'accept-encoding': 'identity' }),
        await get('/bff/cpos', {}),
        await get('/bff/no-such-call', { 'accept-encoding': 'gzip' }),
        await get('/bff/cpos%00', {}),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 400]);
      expect(answers[0].headers['content-encoding']).toBe('br');
      for (const answer of answers) {
        expect(answer.headers).toMatchObject(expected);
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('gives the app a CSP without inline scripts, and answers another case of a service base with a JSON 404', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cockpit-csp-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>CPO Cockpit</title>');
    const app = createApp({ db: h.db, env: { ...h.env, STATIC_DIR: dir }, log: () => {} });
    const page = await app.request('/cockpit', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const upper = await app.request('/BFF/cpos', { headers: { accept: 'text/html' } });
    expect(upper.status).toBe(404);
    expect((await upper.json()).errorCodeResponse).toBe('NOT_FOUND');
  });
});

describe('tokens', () => {
  const sign = (claims: Record<string, unknown>, exp: boolean) => {
    const jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(h.env.JWT_ISSUER).setIssuedAt();
    if (exp) jwt.setExpirationTime('10m');
    return jwt.sign(new TextEncoder().encode(h.env.JWT_SECRET));
  };
  const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

  it('refuses a validly signed token without exp or without a session', async () => {
    const { access_token } = await h.login('operator');
    const { exp: _exp, iat: _iat, ...claims } = claimsOf(access_token);
    expect((await h.request('GET', '/bff/cpos', { token: await sign(claims, true) })).status).toBe(200);
    expect((await h.request('GET', '/bff/cpos', { token: await sign(claims, false) })).status).toBe(401);
    const { sid: _sid, ...withoutSession } = claims;
    expect((await h.request('GET', '/bff/cpos', { token: await sign(withoutSession, true) })).status).toBe(401);
  });

  it('refuses an access token right after logout', async () => {
    const pair = await h.login('operator');
    const other = await h.login('operator');
    const sub = claimsOf(pair.access_token).sub as string;
    expect((await h.request('GET', `/user-service/logout/${sub}`, { token: pair.access_token })).status).toBe(200);
    const after = await h.request('GET', '/bff/cpos', { token: pair.access_token });
    expect(after.status).toBe(401);
    expect(after.body.errorCodeResponse).toBe('TOKEN_INVALID');
    // Logout ends every session of the user.
    expect((await h.request('GET', '/bff/cpos', { token: other.access_token })).status).toBe(401);
  });

  it("ends the other sessions' access tokens at once on a password change, and keeps this one", async () => {
    const here = await h.login('partner');
    const there = await h.login('partner');
    const change = await h.request('PUT', '/user-service/change-password', {
      token: here.access_token,
      body: {
        username: demoAccounts.partner.email,
        currentPassword: demoAccounts.partner.password,
        newPassword: demoAccounts.partner.password,
      },
    });
    expect(change.status).toBe(200);
    expect((await h.request('GET', '/bff/cpos', { token: here.access_token })).status).toBe(200);
    expect((await h.request('GET', '/bff/cpos', { token: there.access_token })).status).toBe(401);
  });

  it('keeps two tabs that refresh at once signed in, with the same new pair', async () => {
    const pair = await h.login('operator');
    const refresh = () =>
      h.request('POST', '/user-service/refresh-token', {
        body: { currentAccessToken: pair.access_token, currentRefreshToken: pair.refresh_token, origin: 'dashboard' },
      });
    const [a, b] = await Promise.all([refresh(), refresh()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.refresh_token).toBe(b.body.data.refresh_token);
    expect((await h.request('GET', '/bff/cpos', { token: a.body.data.access_token })).status).toBe(200);
  });
});

describe('sign-in limits', () => {
  it('answers the 6th wrong password within a minute with 429 and Retry-After, even with the right one; a block doubles', async () => {
    const email = demoAccounts.admin.email;
    for (let i = 0; i < 5; i++) expect((await login(email, 'Wrong-Password-1')).status).toBe(401);
    const sixth = await login(email, 'Wrong-Password-1');
    expect(sixth.status).toBe(429);
    expect(sixth.body.errorCodeResponse).toBe('TOO_MANY_REQUESTS');
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(sixth.body.errorDetail.retryAfterSeconds).toBe(retryAfter);
    expect((await login(email, demoAccounts.admin.password)).status).toBe(429);

    // The block runs out; five more wrong ones block for twice as long.
    // In-process requests have no socket: the pair's address reads 'unknown'.
    const key = `login-pair:${email}|unknown`;
    await h.db
      .update(throttles)
      .set({ blockedUntil: new Date(Date.now() - 1000) })
      .where(eq(throttles.key, key));
    for (let i = 0; i < 5; i++) expect((await login(email, 'Wrong-Password-1')).status).toBe(401);
    const again = await login(email, 'Wrong-Password-1');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(60);

    // A correct sign-in after the block resets the count.
    await h.db
      .update(throttles)
      .set({ blockedUntil: new Date(Date.now() - 1000) })
      .where(eq(throttles.key, key));
    expect((await login(email, demoAccounts.admin.password)).status).toBe(200);
    expect(await h.db.select().from(throttles).where(eq(throttles.key, key))).toEqual([]);
  });

  it('limits reset mails per e-mail: the 4th within 15 minutes is refused and not queued', async () => {
    const email = demoAccounts.operator.email;
    const mails = async () =>
      (
        await h.db
          .select({ n: sql<number>`count(*)::int` })
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, email))
      )[0].n;
    const before = await mails();
    for (let i = 0; i < 3; i++)
      expect((await h.request('GET', `/user-service/forget-password/${encodeURIComponent(email)}`)).status).toBe(200);
    const fourth = await h.request('GET', `/user-service/forget-password/${encodeURIComponent(email)}`);
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get('retry-after')).toBeTruthy();
    expect(await mails()).toBe(before + 3);
  });
});

describe('idempotency', () => {
  it('answers 409 while a request with the key is in flight, and compares the parsed JSON', async () => {
    const { access_token } = await h.login('admin');
    const [c] = await h.db.select().from(connectors).where(eq(connectors.status, 'IDLE')).limit(1);
    const item = { connectorId: c.connectorId, cpId: c.cpId, locationId: c.locationId, parkingLotNumber: 'Q9' };
    const [userId] = await h.db
      .select({ id: dashboardUsers.id })
      .from(dashboardUsers)
      .where(eq(dashboardUsers.email, demoAccounts.admin.email));

    // The claim of the same request still running (as another instance would hold it).
    const fingerprint = requestFingerprint('PUT', '/bff/connectors/update-parking-lots', JSON.stringify([item]));
    await h.db.insert(idempotencyKeys).values({ userId: userId.id, key: 'in-flight', fingerprint, status: 'in_progress' });
    const send = (key: string) =>
      h.request('PUT', '/bff/connectors/update-parking-lots', { body: [item], token: access_token, headers: { 'idempotency-key': key } });
    const busy = await send('in-flight');
    expect(busy.status).toBe(409);
    expect(busy.body.errorCodeResponse).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    // A claim left by a request that died is taken again after the claim timeout.
    await h.db
      .update(idempotencyKeys)
      .set({ claimedAt: new Date(Date.now() - (IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS + 5) * 1000) })
      .where(and(eq(idempotencyKeys.key, 'in-flight')));
    expect((await send('in-flight')).status).toBe(200);
    item.parkingLotNumber = 'Q10';

    const first = await h.request('PUT', '/bff/connectors/update-parking-lots', {
      raw: JSON.stringify([item]),
      token: access_token,
      headers: { 'idempotency-key': 'k-whitespace' },
    });
    expect(first.status).toBe(200);
    const again = await h.request('PUT', '/bff/connectors/update-parking-lots', {
      raw: JSON.stringify(
        [{ parkingLotNumber: 'Q10', locationId: item.locationId, cpId: item.cpId, connectorId: item.connectorId }],
        null,
        2,
      ),
      token: access_token,
      headers: { 'idempotency-key': 'k-whitespace' },
    });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS to the same request while its original runs', async () => {
    const { access_token } = await h.login('admin');
    const [c] = await h.db.select().from(connectors).where(eq(connectors.status, 'IDLE')).offset(1).limit(1);
    const item = { connectorId: c.connectorId, cpId: c.cpId, locationId: c.locationId, parkingLotNumber: 'Q8' };
    const send = () =>
      h.request('PUT', '/bff/connectors/update-parking-lots', {
        body: [item],
        token: access_token,
        headers: { 'idempotency-key': 'k-race' },
      });
    const [a, b] = await Promise.all([send(), send()]);
    const statuses = [a.status, b.status].sort();
    // Both are answered without applying the write twice: the second either met the running original (409)
    // or came after it finished (a replay of its answer).
    expect(statuses[0]).toBe(200);
    expect([200, 409]).toContain(statuses[1]);
    const late = statuses[1] === 409 ? (a.status === 409 ? a : b) : undefined;
    if (late) expect(late.body.errorCodeResponse).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    const [after] = await h.db.select().from(connectors).where(eq(connectors.connectorId, c.connectorId));
    expect(after.version).toBe(c.version + 1);
  });
});

describe('a slow client holds nothing', () => {
  it("answers another tenant's list while an anonymous sign-in body is still arriving", async () => {
    const app = createApp({ db: h.db, env: h.env, log: () => {} });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const { access_token } = await h.login('partner');
    const slow = connect(port, '127.0.0.1');
    try {
      const body = JSON.stringify({ username: demoAccounts.operator.email, password: 'Wrong-Password-1', origin: 'dashboard' });
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      slow.write(
        `POST /user-service/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
      );
      let slowAnswered = false;
      slow.on('data', () => (slowAnswered = true));
      const list = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { port, host: '127.0.0.1', path: '/bff/cpos', headers: { authorization: `Bearer ${access_token}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(list).toBe(200);
      // The sign-in is still waiting for the rest of its body.
      expect(slowAnswered).toBe(false);
      slow.end(body.slice(5));
    } finally {
      slow.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('an anonymous upload is not read', () => {
  it('answers a 20 MB upload body 401 while the client has sent only its first 64 KB, without a token or with a forged one', async () => {
    const app = createApp({ db: h.db, env: h.env, log: () => {} });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const forged = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
    try {
      for (const [path, auth] of [
        ['/bff/mail/send', ''],
        ['/contract-management/create-contract', `Authorization: Bearer ${forged}\r\n`],
      ]) {
        const socket = connect(port, '127.0.0.1');
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        const answer = new Promise<string>((resolve) => socket.once('data', (d) => resolve(d.toString('latin1'))));
        socket.write(
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: ${20 * 1024 * 1024}\r\n\r\n`,
        );
        socket.write('{"attachments":[' + '0,'.repeat(32 * 1024));
        const first = await Promise.race([answer, new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 3000))]);
        socket.destroy();
        expect(first).toMatch(/^HTTP\/1\.1 401/);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a refused body ends its connection', () => {
  it('answers 413 with Connection: close and closes the socket', async () => {
    const app = createApp({ db: h.db, env: h.env, log: () => {} });
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const { port } = server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let received = '';
      socket.on('data', (d) => (received += d.toString('latin1')));
      const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
      socket.write(
        `POST /user-service/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n{"username":"`,
      );
      await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 3000))]);
      expect(received).toMatch(/^HTTP\/1\.1 413/);
      expect(received).toMatch(/\r\nconnection: close\r\n/i);
      expect(received).not.toMatch(/keep-alive/i);
      expect(socket.readableEnded).toBe(true);
    } finally {
      socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
