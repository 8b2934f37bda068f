import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from './app';
import { loadAuthUser, scopeFor } from './auth/scope';
import { asc, eq } from 'drizzle-orm';
import { dashboardUsers } from './db/schema/auth';
import { operators } from './db/schema/operators';
import type { Route } from './http/route-table';
import { demoAccounts } from './seed/seed';
import { createHarness, type Harness } from './test/harness';
import {
  bagOf,
  changedTables,
  entityCodes,
  fillPath,
  fingerprint,
  firstWallboxModel,
  idFields,
  looksLikeId,
  markersOf,
  mountedRoutes,
  nonexistentBag,
  pathParamKinds,
  pathParams,
  patternOf,
  recordingBag,
  samples,
  someUserOf,
  tenantValue,
  type Bag,
  type Fixtures,
  type Sample,
  type TenantEntity,
} from './test/route-matrix';

/**
 * The authorisation matrix (ARCHITECTURE.md, "Server"): every route the app mounts, called as
 * every kind of caller, with the caller's own data, another customer's data and data that exists
 * nowhere. The routes come from the app; what they name comes from test/route-matrix.ts, and a
 * route this file does not understand fails with what to add there.
 */

type Role = 'admin' | 'operator' | 'partner';
type Tenant = Exclude<Role, 'admin'>;
const roles: Role[] = ['admin', 'operator', 'partner'];
const tenants: Tenant[] = ['operator', 'partner'];

let h: Harness;
const tokens = {} as Record<Role, string>;
const own = {} as Record<Role, Bag>;
const foreign = {} as Record<Tenant, Bag>;
/** Names of other customers' data, per caller: none may appear in an answer to that caller. */
const foreignMarkers = {} as Record<Tenant, string[]>;
let fixtures: Fixtures;
let forged: { name: string; authorization: string }[];
let calls = 0;

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers of any route
  body: any;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

async function login(role: Role) {
  tokens[role] = (await h.login(role)).access_token;
}

beforeAll(async () => {
  h = await createHarness();
  for (const role of roles) await login(role);

  const users = {} as Record<Role, { id: string; customerId: string; scope: string[] | 'all' }>;
  for (const role of roles) {
    const [row] = await h.db
      .select({ id: dashboardUsers.id })
      .from(dashboardUsers)
      .where(eq(dashboardUsers.email, demoAccounts[role].email));
    const user = (await loadAuthUser(h.db, row.id))!;
    users[role] = { id: user.id, customerId: user.customerId, scope: (await scopeFor(h.db, user)).operatorIds };
  }
  const allOps = await h.db
    .select({ cpoId: operators.cpoId, customerId: operators.customerId })
    .from(operators)
    .orderBy(asc(operators.cpoId));
  const me = (role: Role) => ({ id: users[role].id, email: demoAccounts[role].email, password: demoAccounts[role].password });
  const lots: Record<Role, string> = { admin: 'MA1', operator: 'MO1', partner: 'MP1' };
  for (const role of tenants) {
    const scope = users[role].scope as string[];
    own[role] = await bagOf(h.db, scope[0], me(role), lots[role]);
    const other = allOps.find((o) => o.customerId !== users[role].customerId)!;
    foreign[role] = await bagOf(h.db, other.cpoId, await someUserOf(h.db, other.customerId), 'MF1');
    const mine = await markersOf(h.db, users[role].customerId);
    const customerIds = [...new Set(allOps.map((o) => o.customerId))].filter((c) => c !== users[role].customerId);
    const theirs = (await Promise.all(customerIds.map((c) => markersOf(h.db, c)))).flat();
    foreignMarkers[role] = theirs.filter((m) => m.length >= 5 && !mine.some((x) => x.includes(m)));
  }
  // The admin works on an operator neither tenant caller owns, so their own writes do not meet.
  const taken = new Set([...(users.operator.scope as string[]), ...(users.partner.scope as string[])]);
  own.admin = await bagOf(h.db, allOps.find((o) => !taken.has(o.cpoId))!.cpoId, me('admin'), lots.admin);

  fixtures = {
    wallboxModel: await firstWallboxModel(h.db),
    takenEmail: demoAccounts.unverified.email,
    otherAccount: await someUserOf(h.db, users.operator.customerId),
  };

  // Forged tokens, each otherwise an admin's: only the real key, algorithm, issuer, expiry and user may pass.
  const admin = claimsOf(tokens.admin);
  const key = new TextEncoder().encode(h.env.JWT_SECRET);
  const sign = (claims: Record<string, unknown>, k = key, alg = 'HS256') =>
    new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(k);
  const now = Math.floor(Date.now() / 1000);
  const [unverified] = await h.db
    .select({ id: dashboardUsers.id })
    .from(dashboardUsers)
    .where(eq(dashboardUsers.email, demoAccounts.unverified.email));
  const op = tokens.operator.split('.');
  forged = [
    { name: 'not a JWT', authorization: 'Bearer not-a-jwt' },
    {
      name: 'Basic scheme',
      authorization: `Basic ${Buffer.from(`${demoAccounts.admin.email}:${demoAccounts.admin.password}`).toString('base64')}`,
    },
    {
      name: 'signed with another key',
      authorization: `Bearer ${await sign(admin, new TextEncoder().encode('another-key-of-32-bytes-or-more!!'))}`,
    },
    { name: 'alg none', authorization: `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(admin)}.` },
    {
      name: 'operator token with an admin payload',
      authorization: `Bearer ${op[0]}.${b64({ ...claimsOf(tokens.operator), sub: admin.sub, sid: admin.sid })}.${op[2]}`,
    },
    { name: 'expired', authorization: `Bearer ${await sign({ ...admin, iat: now - 7200, exp: now - 3600 })}` },
    { name: 'another issuer', authorization: `Bearer ${await sign({ ...admin, iss: 'https://evil.example' })}` },
    { name: 'HS512 with the right key', authorization: `Bearer ${await sign(admin, key, 'HS512')}` },
    { name: 'unknown user', authorization: `Bearer ${await sign({ ...admin, sub: nonexistentBag.user.id })}` },
    { name: 'unverified user', authorization: `Bearer ${await sign({ ...admin, sub: unverified.id })}` },
  ];
});
afterAll(() => h?.close());

// ---------------------------------------------------------------------------------------------

interface Built {
  path: string;
  sample: Sample;
  /** The kinds of data the request was built from. */
  used: Set<keyof Bag>;
}

function build(r: Route, bag: Bag, query?: Record<string, string>): Built {
  const used = new Set<keyof Bag>();
  const b = recordingBag(bag, used);
  const pattern = patternOf(r);
  const params: Record<string, string> = {};
  for (const p of pathParams(pattern)) {
    const kind = pathParamKinds[p.key];
    params[p.name] = 'entity' in kind ? kind.value(b) : kind.unscoped;
  }
  const sample = samples[`${r.method} ${pattern}`]?.(b, fixtures) ?? {};
  const q = { ...sample.query, ...query };
  const qs = new URLSearchParams(q).toString();
  return { path: `${fillPath(pattern, params)}${qs ? `?${qs}` : ''}`, sample: { ...sample, query: q }, used };
}

async function send(r: Route, built: Built, auth: { token?: string; authorization?: string }): Promise<Answer> {
  calls++;
  if (built.sample.form) {
    const authorization = auth.authorization ?? (auth.token ? `Bearer ${auth.token}` : undefined);
    const res = await h.app.request(built.path, {
      method: r.method,
      headers: authorization ? { authorization } : {},
      body: built.sample.form(),
    });
    const text = await res.text();
    return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
  }
  const body = r.method === 'GET' ? undefined : (built.sample.body ?? {});
  const res = await h.request(r.method, built.path, {
    body,
    token: auth.token,
    headers: auth.authorization ? { authorization: auth.authorization } : undefined,
  });
  return { status: res.status, body: res.body };
}

const codeOf = (a: Answer) => (a.body && typeof a.body === 'object' ? a.body.errorCodeResponse : undefined);
const show = (a: Answer) => `${a.status} ${JSON.stringify(a.body)?.slice(0, 300)}`;
const sameAnswer = (a: Answer, b: Answer) =>
  a.status === b.status && (a.status >= 400 ? codeOf(a) === codeOf(b) : JSON.stringify(a.body) === JSON.stringify(b.body));
const ok = (a: Answer, expected?: number[]) => (expected ? expected.includes(a.status) : a.status >= 200 && a.status < 300);

/** Every key of a sample's query and body (nested), to check that each id-like one is known. */
function keysOf(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keysOf(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysOf(v, out);
    }
  }
  return out;
}

/** Runs the whole matrix of one route; answers the problems found (empty when it holds). */
async function checkRoute(r: Route): Promise<string[]> {
  const problems: string[] = [];
  const pattern = patternOf(r);
  const key = `${r.method} ${pattern}`;
  const where = 'server/src/test/route-matrix.ts';

  if (!['public', 'user', 'admin'].includes(r.access as string)) return [`${key} declares no access ('public' | 'user' | 'admin')`];
  const unknownParams = pathParams(pattern).filter((p) => !pathParamKinds[p.key]);
  if (unknownParams.length > 0) {
    return unknownParams.map(
      (p) =>
        `${key}: path parameter '${p.key}' is not in pathParamKinds (${where}); add what it names (operator, location, connector, contract, user, or unscoped with why) so the matrix can call it with another customer's data`,
    );
  }
  if (r.method !== 'GET' && !samples[key])
    return [`${key}: add a valid request for this write to samples (${where}), from its contract schema`];
  const idKeys = [...keysOf(build(r, own.admin).sample.query), ...keysOf(build(r, own.admin).sample.body)].filter(
    (k) => looksLikeId(k) && !(k in idFields),
  );
  if (idKeys.length > 0) return [`${key}: id-like field(s) ${idKeys.join(', ')} not in idFields (${where}); add what each names`];

  let fp = await fingerprint(h.db);
  /** A refused call must leave the database as it was. */
  const unchanged = async (what: string, a: Answer) => {
    const now = await fingerprint(h.db);
    const changed = changedTables(fp, now);
    fp = now;
    if (changed.length > 0) problems.push(`${what}: answered ${a.status} and changed ${changed.join(', ')}`);
  };
  const noLeak = (what: string, role: Role, a: Answer) => {
    if (role === 'admin') return;
    const text = JSON.stringify(a.body) ?? '';
    const leaked = foreignMarkers[role].filter((m) => text.includes(m));
    if (leaked.length > 0) problems.push(`${what}: answer to ${role} names another customer's data (${leaked.join(', ')})`);
  };
  const isPublic = r.access === 'public';

  // Anonymous and forged callers.
  const plain = build(r, own.admin);
  const anonymous = await send(r, plain, {});
  if (anonymous.status >= 500) problems.push(`anonymous: ${show(anonymous)}`);
  if (isPublic) {
    if (!ok(anonymous, plain.sample.expect))
      problems.push(`anonymous on a public route, expected ${plain.sample.expect ?? '2xx'}: ${show(anonymous)}`);
    fp = await fingerprint(h.db);
  } else {
    if (anonymous.status !== 401) problems.push(`anonymous must get 401: ${show(anonymous)}`);
    await unchanged('anonymous', anonymous);
  }
  for (const f of forged) {
    const a = await send(r, plain, { authorization: f.authorization });
    if (isPublic) {
      // Ignored: the same answer as without a token (or the route's limit on attempts, which counts both).
      if (a.status !== anonymous.status && a.status !== 429)
        problems.push(`forged token (${f.name}) on a public route must be ignored: ${show(a)} (anonymous: ${show(anonymous)})`);
      fp = await fingerprint(h.db);
    } else {
      if (a.status !== 401) problems.push(`forged token (${f.name}) must get 401: ${show(a)}`);
      await unchanged(`forged token (${f.name})`, a);
    }
  }

  for (const role of roles) {
    const allowed = r.access !== 'admin' || role === 'admin';
    const mine = build(r, own[role]);
    const token = tokens[role];
    if (!allowed) {
      const a = await send(r, mine, { token });
      if (![401, 403, 404].includes(a.status)) problems.push(`${role} is outside '${r.access}', must get 401/403/404: ${show(a)}`);
      await unchanged(`${role} outside '${r.access}'`, a);
      noLeak(role, role, a);
      continue;
    }

    if (!isPublic) {
      // The same request with one kind of data swapped for another customer's, or for data that exists nowhere.
      for (const entity of [...mine.used]) {
        if (entity === 'request') continue;
        const expected = (a: Answer) =>
          entity === 'user' ? [403, 404].includes(a.status) : a.status === 404 && codeOf(a) === entityCodes[entity as TenantEntity];
        const want = entity === 'user' ? '403/404 (only the caller itself)' : `404 ${entityCodes[entity as TenantEntity]}`;
        const missing = await send(r, build(r, { ...own[role], [entity]: nonexistentBag[entity] }), { token });
        if (!expected(missing)) problems.push(`${role} with a nonexistent ${entity} must get ${want}: ${show(missing)}`);
        await unchanged(`${role} with a nonexistent ${entity}`, missing);
        if (role === 'admin') continue;
        const theirs = await send(r, build(r, { ...own[role], [entity]: foreign[role][entity] }), { token });
        if (!expected(theirs)) problems.push(`${role} with another customer's ${entity} must get ${want}: ${show(theirs)}`);
        else if (!sameAnswer(theirs, missing))
          problems.push(`${role}: another customer's ${entity} answers unlike a nonexistent one: ${show(theirs)} vs ${show(missing)}`);
        await unchanged(`${role} with another customer's ${entity}`, theirs);
        noLeak(`${role} with another customer's ${entity}`, role, theirs);
      }
    }

    // The caller's own request (which may write: logout, the writes).
    const mineAnswer = await send(r, mine, { token });
    if (!ok(mineAnswer, mine.sample.expect))
      problems.push(
        `${role} with its own data, expected ${mine.sample.expect ?? '2xx'}: ${show(mineAnswer)}${mineAnswer.status === 400 ? ` (add or fix the sample in ${where})` : ''}`,
      );
    noLeak(`${role} with its own data`, role, mineAnswer);
    const after = await fingerprint(h.db);
    const wrote = changedTables(fp, after).length > 0;
    fp = after;

    if (!isPublic && r.method === 'GET' && !wrote) {
      // Every id-like query field, whether the route reads it or not: a tenant id must answer 404
      // with its code or be ignored (the same answer as without it); another customer's search
      // value must answer like one that exists nowhere.
      for (const [field, kind] of Object.entries(idFields)) {
        if ('tenant' in kind) {
          const values: [string, string][] = [['nonexistent', tenantValue(kind.tenant, nonexistentBag)]];
          if (role !== 'admin') {
            values.push(["another customer's", tenantValue(kind.tenant, foreign[role])]);
            if (field.endsWith('s'))
              values.push([
                "own and another customer's",
                `${tenantValue(kind.tenant, own[role])},${tenantValue(kind.tenant, foreign[role])}`,
              ]);
          }
          const answers: Answer[] = [];
          for (const [what, value] of values) {
            const a = await send(r, build(r, own[role], { [field]: value }), { token });
            answers.push(a);
            const ignored = !(field in (mine.sample.query ?? {})) && sameAnswer(a, mineAnswer);
            if (!ignored && !(a.status === 404 && codeOf(a) === entityCodes[kind.tenant]))
              problems.push(`${role} with ${field}=<${what}> must get 404 ${entityCodes[kind.tenant]} (or be ignored): ${show(a)}`);
            noLeak(`${role} with ${field}=<${what}>`, role, a);
            if (a.status >= 400) await unchanged(`${role} with ${field}=<${what}>`, a);
          }
          if (answers.length > 1 && !sameAnswer(answers[0], answers[1]))
            problems.push(`${role} with ${field}: another customer's value answers unlike a nonexistent one`);
        } else if ('search' in kind && role !== 'admin') {
          const missing = await send(r, build(r, own[role], { [field]: kind.search(nonexistentBag) }), { token });
          const theirs = await send(r, build(r, own[role], { [field]: kind.search(foreign[role]) }), { token });
          if (!sameAnswer(theirs, missing))
            problems.push(
              `${role} searching ${field} for another customer's value answers unlike a nonexistent one: ${show(theirs)} vs ${show(missing)}`,
            );
          noLeak(`${role} searching ${field}`, role, theirs);
        }
      }
      fp = await fingerprint(h.db);
    }

    // A route that ends the caller's session (logout) must not end the matrix's.
    if ((await h.request('GET', '/bff/dropdown-configuration', { token: tokens[role] })).status === 401) {
      await login(role);
      fp = await fingerprint(h.db);
    }
  }
  return problems;
}

describe('access matrix', () => {
  it('covers every route the app mounts, each declared with an access', () => {
    const { mounted, undeclared } = mountedRoutes(h.app);
    expect(undeclared, 'mounted but in no route table').toEqual([]);
    expect(mounted.length).toBe(new Set(routes.map((r) => `${r.method} ${patternOf(r)}`)).size);
    for (const m of mounted) expect(['public', 'user', 'admin'], m.key).toContain(m.route.access);
  });

  // One case per declared route (the first case proves they are exactly the mounted ones).
  it.each(routes.map((r) => [`${r.method} ${patternOf(r)}`, r] as const))('%s', async (_key, r) => {
    expect(await checkRoute(r)).toEqual([]);
  });

  it('tells the developer what to add for a route it does not know', async () => {
    const route = (r: Pick<Route, 'method' | 'path' | 'access'>): Route => ({ service: 'bff', handler: (c) => c.body(null), ...r });
    expect(await checkRoute(route({ method: 'GET', path: '/widgets/:widgetId', access: 'user' }))).toEqual([
      expect.stringContaining("path parameter 'widgets/:widgetId' is not in pathParamKinds"),
    ]);
    expect(await checkRoute(route({ method: 'POST', path: '/widgets', access: 'user' }))).toEqual([
      expect.stringContaining('add a valid request for this write to samples'),
    ]);
    expect(await checkRoute(route({ method: 'GET', path: '/widgets', access: undefined as unknown as Route['access'] }))).toEqual([
      expect.stringContaining('declares no access'),
    ]);
  });

  it('made the calls', () => {
    console.info(`access matrix: ${routes.length} routes, ${calls} calls`);
    expect(calls).toBeGreaterThan(routes.length * (forged.length + 4));
  });
});
