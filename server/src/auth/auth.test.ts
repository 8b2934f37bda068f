import { eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenClaimsSchema, tokenPairSchema } from '../../../contract/auth';
import { errorBodySchema } from '../../../contract/errors';
import { dashboardUsers, passwordResetTokens, refreshTokens } from '../db/schema/auth';
import { throttles } from '../db/schema/http';
import { mailOutbox } from '../db/schema/mail';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { sha256 } from '../db/stored-hash';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const decode = (jwt: string) => tokenClaimsSchema.parse(JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()));

/** Signs in a seeded non-demo user of the given customer (password of "others"). */
async function otherUser(customerId: string) {
  const [u] = await h.db
    .select()
    .from(dashboardUsers)
    .where(
      sql`${dashboardUsers.customerId} = ${customerId} and ${dashboardUsers.email} like '%.example' and ${dashboardUsers.email} not like '%@cockpit.example'`,
    )
    .limit(1);
  const res = await h.request('POST', '/user-service/login', {
    body: { username: u.email, password: demoAccounts.others.password, origin: 'dashboard' },
  });
  expect(res.status).toBe(200);
  return { user: u, tokens: res.body.data as { access_token: string; refresh_token: string } };
}

describe('POST /login', () => {
  it('answers a token pair with the spec claims', async () => {
    const res = await h.request('POST', '/user-service/login', {
      body: { username: demoAccounts.operator.email, password: demoAccounts.operator.password, origin: 'dashboard' },
    });
    expect(res.status).toBe(200);
    const pair = tokenPairSchema.parse(res.body.data);
    expect(pair.token_type).toBe('Bearer');
    expect(pair.expires_in).toBe(900);
    expect(pair.refresh_expires_in).toBe(14 * 24 * 3600);
    const claims = decode(pair.access_token);
    expect(claims.email).toBe(demoAccounts.operator.email);
    expect(claims.customer_type).toBe('Operator');
    expect(claims.cpo_id).toHaveLength(1);
    expect(claims.resource_access.dashboard_oli_move?.roles).toEqual(['oli_move_operator']);
    expect(claims.resource_access.admin_oli_move).toBeUndefined();
    expect(claims.exp - (claims.iat ?? 0)).toBe(900);
  });

  it('is case-insensitive on the e-mail and marks admins', async () => {
    const res = await h.request('POST', '/user-service/login', {
      body: { username: 'ADMIN@Cockpit.Example', password: demoAccounts.admin.password },
    });
    expect(res.status).toBe(200);
    expect(decode(res.body.data.access_token).resource_access.admin_oli_move?.roles).toEqual(['oli_move_admin']);
  });

  it('gives a Partner all operators of its customer in cpo_id', async () => {
    const { access_token } = await h.login('partner');
    const claims = decode(access_token);
    expect(claims.customer_type).toBe('Partner');
    expect(claims.cpo_id.length).toBeGreaterThan(1);
  });

  it('refuses a wrong password with 401 UNAUTHORIZED "Invalid user credentials"', async () => {
    const res = await h.request('POST', '/user-service/login', {
      body: { username: demoAccounts.operator.email, password: 'Wrong-Password-1', origin: 'dashboard' },
    });
    expect(res.status).toBe(401);
    expect(errorBodySchema.parse(res.body)).toMatchObject({
      errorCodeResponse: 'UNAUTHORIZED',
      errorMessage: 'Invalid user credentials',
    });
  });

  it('refuses an unknown user the same way', async () => {
    const res = await h.request('POST', '/user-service/login', {
      body: { username: 'nobody@cockpit.example', password: 'Whatever-123', origin: 'dashboard' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ errorCodeResponse: 'UNAUTHORIZED', errorMessage: 'Invalid user credentials' });
  });

  it('refuses an unverified account with USER_NOT_VERIFIED', async () => {
    const res = await h.request('POST', '/user-service/login', {
      body: { username: demoAccounts.unverified.email, password: demoAccounts.unverified.password },
    });
    expect(res.status).toBe(401);
    expect(res.body.errorCodeResponse).toBe('USER_NOT_VERIFIED');
  });

  it('answers 400 VALIDATION_ERROR with per-field issues', async () => {
    const res = await h.request('POST', '/user-service/login', { body: { username: 'not-an-email', password: '' } });
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    const paths = res.body.issues.map((i: { path: string }) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['username', 'password']));
  });
});

describe('sign-in limits per account and address', () => {
  let p: Harness;
  beforeAll(async () => {
    // Behind a trusted proxy, so a test can sign in from several addresses.
    p = await createHarness({ TRUST_PROXY: 1 });
  });
  afterAll(() => p?.close());
  const loginFrom = async (address: string, password: string) => {
    const started = performance.now();
    const res = await p.request('POST', '/user-service/login', {
      body: { username: demoAccounts.partner.email, password, origin: 'dashboard' },
      headers: { 'x-forwarded-for': address },
    });
    return { status: res.status, code: res.body?.errorCodeResponse, ms: performance.now() - started };
  };

  it('lets an attacker block only their own address: the owner signs in from another at once, wrong answers to the account slow down', async () => {
    const attacker = '203.0.113.7';
    for (let i = 0; i < 5; i++) expect((await loginFrom(attacker, 'Wrong-Password-1')).status).toBe(401);
    expect(await loginFrom(attacker, 'Wrong-Password-1')).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS' });

    const owner = await loginFrom('198.51.100.20', demoAccounts.partner.password);
    expect(owner.status).toBe(200);
    expect(owner.ms).toBeLessThan(1000);
    expect((await loginFrom(attacker, demoAccounts.partner.password)).status).toBe(429);

    // The account's 6th wrong password of the quarter hour, from a fresh address: answered, but late.
    const spread = await loginFrom('192.0.2.99', 'Wrong-Password-1');
    expect(spread.status).toBe(401);
    expect(spread.ms).toBeGreaterThanOrEqual(450);
  });

  it('takes as long for an invited account as for a wrong password (the same key derivation)', async () => {
    const [model] = await p.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, demoAccounts.operator.email));
    const invited = 'invited.timing@cockpit.example';
    await p.db.insert(dashboardUsers).values({
      ...model,
      id: crypto.randomUUID(),
      email: invited,
      passwordHash: '!invited',
      verified: false,
    });
    const attempt = async (username: string, i: number) => {
      // Each attempt from its own address and with no count of earlier failures: only the password check is timed.
      await p.db.delete(throttles);
      const started = performance.now();
      const res = await p.request('POST', '/user-service/login', {
        body: { username, password: 'Wrong-Password-1', origin: 'dashboard' },
        headers: { 'x-forwarded-for': `203.0.113.${100 + i}` },
      });
      expect(res.status).toBe(401);
      return performance.now() - started;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    await attempt(invited, 0);
    await attempt(demoAccounts.operator.email, 0);
    const times = { invited: [] as number[], wrong: [] as number[] };
    for (let i = 1; i <= 9; i++) {
      times.invited.push(await attempt(invited, i));
      times.wrong.push(await attempt(demoAccounts.operator.email, i));
    }
    const [a, b] = [median(times.invited), median(times.wrong)];
    expect(Math.max(a, b) / Math.min(a, b), JSON.stringify({ invitedMs: a, wrongMs: b })).toBeLessThan(2);
  });
});

describe('POST /refresh-token', () => {
  it('rotates: new pair works; the old refresh token gets the same pair within the grace period, and its reuse after it revokes the family', async () => {
    const first = await h.login('operator');
    const refresh = (access: string, refreshToken: string) =>
      h.request('POST', '/user-service/refresh-token', {
        body: { currentAccessToken: access, currentRefreshToken: refreshToken, origin: 'dashboard' },
      });
    const r1 = await refresh(first.access_token, first.refresh_token);
    expect(r1.status).toBe(200);
    const second = tokenPairSchema.parse(r1.body.data);
    expect(second.refresh_token).not.toBe(first.refresh_token);

    // The answer was lost and the client sends the old one again (or a second tab does): the same new pair.
    const retried = await refresh(first.access_token, first.refresh_token);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toEqual(r1.body.data);
    const live = await h.request('GET', '/bff/cpos', { token: second.access_token });
    expect(live.status).toBe(200);

    // After the grace period the old one is refused, and the whole family (including `second`) dies.
    await h.db
      .update(refreshTokens)
      .set({ revokedAt: new Date(Date.now() - 120_000) })
      .where(eq(refreshTokens.tokenHash, sha256(first.refresh_token)));
    const reuse = await refresh(second.access_token, first.refresh_token);
    expect(reuse.status).toBe(401);
    const afterReuse = await refresh(second.access_token, second.refresh_token);
    expect(afterReuse.status).toBe(401);
    // Its access tokens end with it, at once.
    expect((await h.request('GET', '/bff/cpos', { token: second.access_token })).status).toBe(401);
  });

  it('accepts an expired access token with a valid signature', async () => {
    const pair = await h.login('operator');
    const claims = decode(pair.access_token);
    const expired = await new SignJWT({ ...claims, exp: undefined, iat: undefined })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(h.env.JWT_ISSUER)
      .setSubject(claims.sub)
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(h.env.JWT_SECRET));
    const res = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: expired, currentRefreshToken: pair.refresh_token },
    });
    expect(res.status).toBe(200);
  });

  it("refuses another user's access token with the refresh token", async () => {
    const op = await h.login('operator');
    const partner = await h.login('partner');
    const res = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: partner.access_token, currentRefreshToken: op.refresh_token },
    });
    expect(res.status).toBe(401);
    // And the operator's refresh token still works (not consumed by the refused attempt).
    const ok = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: op.access_token, currentRefreshToken: op.refresh_token },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a forged access token', async () => {
    const op = await h.login('operator');
    const forged = await new SignJWT({ sub: decode(op.access_token).sub })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(h.env.JWT_ISSUER)
      .sign(new TextEncoder().encode('another-secret-another-secret-another-secret'));
    const res = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: forged, currentRefreshToken: op.refresh_token },
    });
    expect(res.status).toBe(401);
    expect(res.body.errorCodeResponse).toBe('TOKEN_INVALID');
  });
});

describe('bearer verification', () => {
  it('refuses a tampered, an expired and an alg:none token with 401', async () => {
    const { access_token } = await h.login('operator');
    const ok = await h.request('GET', '/bff/cpos', { token: access_token });
    expect(ok.status).toBe(200);

    const [head, payload, sig] = access_token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
    const tampered = await h.request('GET', '/bff/cpos', { token: `${head}.${tamperedPayload}.${sig}` });
    expect(tampered.status).toBe(401);
    expect(tampered.body.errorCodeResponse).toBe('TOKEN_INVALID');

    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    const noneRes = await h.request('GET', '/bff/cpos', { token: none });
    expect(noneRes.status).toBe(401);
    expect(noneRes.body.errorCodeResponse).toBe('TOKEN_INVALID');

    const expired = await new SignJWT({ ...claims, exp: undefined, iat: undefined })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(h.env.JWT_ISSUER)
      .setSubject(claims.sub)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(h.env.JWT_SECRET));
    const expiredRes = await h.request('GET', '/bff/cpos', { token: expired });
    expect(expiredRes.status).toBe(401);
    expect(expiredRes.body.errorCodeResponse).toBe('TOKEN_EXPIRED');

    const missing = await h.request('GET', '/bff/cpos');
    expect(missing.status).toBe(401);
  });
});

describe('GET /logout/{sub}', () => {
  it("revokes the caller's refresh tokens and refuses someone else's sub", async () => {
    const pair = await h.login('partner');
    const { sub } = decode(pair.access_token);
    const foreign = await h.request('GET', '/user-service/logout/some-other-id', { token: pair.access_token });
    expect(foreign.status).toBe(403);
    const res = await h.request('GET', `/user-service/logout/${sub}`, { token: pair.access_token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: true });
    const refresh = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: pair.access_token, currentRefreshToken: pair.refresh_token },
    });
    expect(refresh.status).toBe(401);
  });
});

describe('forgot and reset password', () => {
  it('answers USER_NOT_FOUND for an unknown address and USER_NOT_VERIFIED for an inactive one', async () => {
    const unknown = await h.request('GET', '/user-service/forget-password/nobody%40cockpit.example');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCodeResponse).toBe('USER_NOT_FOUND');
    const inactive = await h.request('GET', `/user-service/forget-password/${demoAccounts.unverified.email}`);
    expect(inactive.status).toBe(409);
    expect(inactive.body.errorCodeResponse).toBe('USER_NOT_VERIFIED');
  });

  it('mails a German reset link whose token works exactly once', async () => {
    const { user } = await otherUser('K10001');
    const res = await h.request('GET', `/user-service/forget-password/${encodeURIComponent(user.email)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: true });
    const mails = await h.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Passwort');
    expect(mails[0].status).toBe('queued');
    const token = /passwort-vergessen\?token=([^\s]+)/.exec(mails[0].textBody)?.[1];
    expect(token).toBeTruthy();
    expect(mails[0].textBody).toContain(`${h.env.PUBLIC_URL}/passwort-vergessen?token=`);
    // Only the hash is stored.
    const stored = await h.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored[0].tokenHash).not.toBe(decodeURIComponent(token!));

    const weak = await h.request('POST', '/user-service/reset-password', {
      body: { token: decodeURIComponent(token!), newPassword: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.errorCodeResponse).toBe('WEAK_PASSWORD');

    const reset = await h.request('POST', '/user-service/reset-password', {
      body: { token: decodeURIComponent(token!), newPassword: 'Brand-New-Pass-42' },
    });
    expect(reset.status).toBe(200);
    const again = await h.request('POST', '/user-service/reset-password', {
      body: { token: decodeURIComponent(token!), newPassword: 'Another-New-Pass-43' },
    });
    expect(again.status).toBe(400);
    expect(again.body.errorCodeResponse).toBe('TOKEN_INVALID');

    const login = await h.request('POST', '/user-service/login', {
      body: { username: user.email, password: 'Brand-New-Pass-42' },
    });
    expect(login.status).toBe(200);
  });
});

describe('PUT /change-password', () => {
  it('refuses weak passwords and foreign usernames, then changes and revokes other sessions', async () => {
    const { user, tokens } = await otherUser('K10002');
    const other = await h.request('POST', '/user-service/login', {
      body: { username: user.email, password: demoAccounts.others.password },
    });
    const otherSession = other.body.data;

    const weak = await h.request('PUT', '/user-service/change-password', {
      token: tokens.access_token,
      body: { username: user.email, currentPassword: demoAccounts.others.password, newPassword: 'alllowercase1', origin: 'dashboard' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.errorCodeResponse).toBe('WEAK_PASSWORD');

    const foreign = await h.request('PUT', '/user-service/change-password', {
      token: tokens.access_token,
      body: {
        username: demoAccounts.admin.email,
        currentPassword: demoAccounts.others.password,
        newPassword: 'Strong-Password-99',
        origin: 'dashboard',
      },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errorCodeResponse).toBe('FORBIDDEN');

    // A token alone is not enough: without the current password, or with a wrong one, nothing changes.
    const missing = await h.request('PUT', '/user-service/change-password', {
      token: tokens.access_token,
      body: { username: user.email, newPassword: 'Strong-Password-99', origin: 'dashboard' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toContainEqual({ path: 'currentPassword', message: 'required' });
    const wrong = await h.request('PUT', '/user-service/change-password', {
      token: tokens.access_token,
      body: { username: user.email, currentPassword: 'Not-The-Password-1', newPassword: 'Strong-Password-99', origin: 'dashboard' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.errorCodeResponse).toBe('WRONG_CURRENT_PASSWORD');
    // Counted like a wrong sign-in of the account from this address.
    const [counted] = await h.db
      .select()
      .from(throttles)
      .where(eq(throttles.key, `login-pair:${user.email.toLowerCase()}|unknown`));
    expect(counted.hits).toBe(1);
    expect(
      (await h.request('POST', '/user-service/login', { body: { username: user.email, password: 'Strong-Password-99' } })).status,
    ).toBe(401);

    const ok = await h.request('PUT', '/user-service/change-password', {
      token: tokens.access_token,
      body: { username: user.email, currentPassword: demoAccounts.others.password, newPassword: 'Strong-Password-99', origin: 'dashboard' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: true });

    const oldPw = await h.request('POST', '/user-service/login', {
      body: { username: user.email, password: demoAccounts.others.password },
    });
    expect(oldPw.status).toBe(401);
    const newPw = await h.request('POST', '/user-service/login', {
      body: { username: user.email, password: 'Strong-Password-99' },
    });
    expect(newPw.status).toBe(200);
    // The other session is gone, the current one keeps working.
    const otherRefresh = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: otherSession.access_token, currentRefreshToken: otherSession.refresh_token },
    });
    expect(otherRefresh.status).toBe(401);
    const ownRefresh = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: tokens.access_token, currentRefreshToken: tokens.refresh_token },
    });
    expect(ownRefresh.status).toBe(200);
  });
});

describe('POST /cpos/dashboard-update-user-email', () => {
  it('refuses duplicates and same e-mail, then changes it and a refresh carries the new address', async () => {
    const { user, tokens } = await otherUser('K10003');
    const call = (body: object) =>
      h.request('POST', '/user-service/cpos/dashboard-update-user-email', { token: tokens.access_token, body });

    const dup = await call({ oldEmail: user.email, newEmail: demoAccounts.partner.email.toUpperCase(), origin: 'dashboard' });
    expect(dup.status).toBe(409);
    expect(dup.body.errorCodeResponse).toBe('DUPLICATED_EMAIL');

    const same = await call({ oldEmail: user.email, newEmail: user.email.toUpperCase(), origin: 'dashboard' });
    expect(same.status).toBe(400);
    expect(same.body.errorCodeResponse).toBe('SAME_EMAIL');

    const foreign = await call({ oldEmail: demoAccounts.admin.email, newEmail: 'x.y@cockpit.example', origin: 'dashboard' });
    expect(foreign.status).toBe(403);

    const ok = await call({ oldEmail: user.email, newEmail: 'neue.adresse@cockpit.example', origin: 'dashboard' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ data: true });

    const refreshed = await h.request('POST', '/user-service/refresh-token', {
      body: { currentAccessToken: tokens.access_token, currentRefreshToken: tokens.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(decode(refreshed.body.data.access_token).email).toBe('neue.adresse@cockpit.example');
  });
});
