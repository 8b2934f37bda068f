import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardUsers, refreshTokens } from '../db/schema/auth';
import { customers } from '../db/schema/customers';
import { operators } from '../db/schema/operators';
import { createApp } from '../app';
import { createHarness, type Harness } from '../test/harness';
import { loadAuthUser, loadSessionCaller, scopeFor } from './scope';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

/** Counts the statements the app sends to the database (both drivers call `$client.query`). */
function countQueries(): { stop: () => number } {
  const client = (h.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
  const original = client.query;
  let n = 0;
  client.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  return {
    stop: () => {
      client.query = original;
      return n;
    },
  };
}

describe('loadSessionCaller', () => {
  it('gives every user the same scope as ownOperatorIds/scopeFor, bound, unbound, partner and admin', async () => {
    const users = await h.db
      .select({ id: dashboardUsers.id, operatorId: dashboardUsers.operatorId, type: customers.customerType })
      .from(dashboardUsers)
      .innerJoin(customers, eq(customers.customerId, dashboardUsers.customerId));
    const kinds = new Set<string>();
    const compare = async (id: string) => {
      const user = (await loadAuthUser(h.db, id))!;
      const caller = (await loadSessionCaller(h.db, id, 'no-such-family'))!;
      expect(caller.sessionAlive).toBe(false);
      expect(caller.scope.operatorIds).toEqual((await scopeFor(h.db, user)).operatorIds);
      const { scope: _scope, sessionAlive: _alive, print: _print, ...rest } = caller;
      expect(rest).toEqual(user);
      kinds.add(user.isAdmin ? 'admin' : `${user.customerType}:${user.operatorId ? 'bound' : 'unbound'}`);
    };
    for (const u of users) await compare(u.id);
    // An Operator-type account without a binding falls back to the first operator of its customer.
    const bound = users.find((u) => u.type === 'Operator' && u.operatorId)!;
    await h.db.update(dashboardUsers).set({ operatorId: null }).where(eq(dashboardUsers.id, bound.id));
    try {
      await compare(bound.id);
    } finally {
      await h.db.update(dashboardUsers).set({ operatorId: bound.operatorId }).where(eq(dashboardUsers.id, bound.id));
    }
    expect(kinds).toEqual(new Set(['admin', 'Operator:bound', 'Operator:unbound', 'Partner:unbound']));
  });

  it('sees a live session', async () => {
    const { access_token } = await h.login('operator');
    const sid = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString()).sid as string;
    const [t] = await h.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, sid));
    expect((await loadSessionCaller(h.db, t.userId, sid))!.sessionAlive).toBe(true);
  });
});

describe('statements per signed-in request', () => {
  it('one for the caller and its scope, then the handler’s own', async () => {
    const tokens = { admin: (await h.login('admin')).access_token, operator: (await h.login('operator')).access_token };
    const calls: [string, keyof typeof tokens, number][] = [
      ['/bff/connectors/get-by-cpo?page=0&size=10', 'operator', 2],
      ['/bff/connectors/get-by-cpo?page=0&size=10', 'admin', 2],
      // The operator's session is known by now: the list checks its caller in its own statement.
      ['/bff/locations/get-by-cpo?page=0&size=10', 'operator', 1],
      ['/booking-service/bookings/get-charging-history?page=0&size=10', 'operator', 2],
      ['/booking-service/bookings/get-charging-history?page=0&size=10&filters=Completed', 'admin', 2],
      ['/bff/locations/get-by-cpo-for-dropdown', 'operator', 2],
      ['/bff/cpos?page=0&size=10', 'admin', 2],
      // The graph's series, the licence and the user counts in one statement.
      ['/bff/kpi/get-graph?graphType=TOTAL_ENERGY&unit=DAYS&startDate=2026-01-01&endDate=2026-01-31', 'operator', 2],
    ];
    for (const [path, who, expected] of calls) {
      const counter = countQueries();
      const res = await h.request('GET', path, { token: tokens[who] });
      const n = counter.stop();
      expect(res.status, path).toBe(200);
      expect({ path, who, n }).toEqual({ path, who, n: expected });
    }
    // The lists that check their caller in their own statement, once the session is known (`readAsCaller`).
    for (const [path, who] of [
      ['/bff/connectors/get-by-cpo?page=0&size=10', 'admin'],
      ['/bff/connectors/get-by-cpo?page=0&size=10', 'operator'],
      ['/bff/locations/get-by-cpo?page=0&size=10', 'operator'],
      ['/bff/locations/get-by-cpo?page=0&size=10&locationName=a', 'admin'],
      ['/booking-service/bookings/get-bills/operator?page=0&size=10&startDate=2025-04-01&endDate=2026-03-20', 'admin'],
      ['/booking-service/bookings/get-bills/operator?page=0&size=10', 'operator'],
    ] as const) {
      const counter = countQueries();
      const res = await h.request('GET', path, { token: tokens[who] });
      const n = counter.stop();
      expect(res.status, path).toBe(200);
      expect({ path, who, n }).toEqual({ path, who, n: 1 });
    }
  });
});

describe('a read that checks its caller in its own statement (the connector list)', () => {
  type Page = { data: { totalNumberOfRecords: number; response: { connectorId: string; cpId: string }[] } };
  const list = async (token: string, query = 'page=0&size=250') => {
    const counter = countQueries();
    const res = await h.request('GET', `/bff/connectors/get-by-cpo?${query}`, { token });
    return { status: res.status, body: res.body as unknown as Page, statements: counter.stop() };
  };
  const cpoOf = async (connectorIds: string[]) => {
    const rows = await h.db.query.connectors.findMany({
      columns: { cpoId: true },
      where: (c, { inArray }) => inArray(c.connectorId, connectorIds),
    });
    return new Set(rows.map((r) => r.cpoId));
  };

  it('needs one statement once the session is known, and sees a change of scope, a deactivation and a logout at once', async () => {
    const { access_token } = await h.login('partner');
    const payload = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString()) as {
      sub: string;
      sid: string;
      customer_id: string;
    };
    const first = await list(access_token);
    expect(first.status).toBe(200);
    expect(first.statements).toBe(2);
    const again = await list(access_token);
    expect(again.statements).toBe(1);
    expect(again.body).toEqual(first.body);

    // One of the partner's operators moves to another customer: the next answer leaves it out.
    const own = await h.db.select({ cpoId: operators.cpoId }).from(operators).where(eq(operators.customerId, payload.customer_id));
    expect(own.length).toBeGreaterThan(1);
    const moved = own[0].cpoId;
    expect(await cpoOf(first.body.data.response.map((r) => r.connectorId))).toContain(moved);
    const [other] = await h.db.select({ id: customers.customerId }).from(customers).where(eq(customers.customerType, 'Operator')).limit(1);
    await h.db.update(operators).set({ customerId: other.id }).where(eq(operators.cpoId, moved));
    try {
      const after = await list(access_token);
      expect(after.status).toBe(200);
      // The assumed caller failed its check: the caller was loaded and the page read again.
      expect(after.statements).toBe(3);
      expect(after.body.data.totalNumberOfRecords).toBeLessThan(first.body.data.totalNumberOfRecords);
      expect(await cpoOf(after.body.data.response.map((r) => r.connectorId))).not.toContain(moved);
      expect((await list(access_token)).statements).toBe(1);
    } finally {
      await h.db.update(operators).set({ customerId: payload.customer_id }).where(eq(operators.cpoId, moved));
    }

    // Moved back: a change again, seen again.
    expect((await list(access_token)).statements).toBe(3);

    // A page past the end asks its total alone, and that statement carries the check; so does a search without hits.
    const past = await list(access_token, 'page=100&size=250');
    expect(past.status).toBe(200);
    expect(past.statements).toBe(2);
    expect(past.body.data).toEqual({ totalNumberOfRecords: first.body.data.totalNumberOfRecords, response: [] });
    const none = await list(access_token, 'page=0&size=10&cpId=no-such-station');
    expect({ status: none.status, statements: none.statements }).toEqual({ status: 200, statements: 2 });
    expect(none.body.data).toEqual({ totalNumberOfRecords: 0, response: [] });

    await h.db.update(dashboardUsers).set({ verified: false }).where(eq(dashboardUsers.id, payload.sub));
    try {
      expect((await list(access_token)).status).toBe(401);
    } finally {
      await h.db.update(dashboardUsers).set({ verified: true }).where(eq(dashboardUsers.id, payload.sub));
    }
    expect((await list(access_token)).status).toBe(200);
    expect((await list(access_token)).statements).toBe(1);
    expect((await h.request('GET', `/user-service/logout/${payload.sub}`, { token: access_token })).status).toBe(200);
    const out = await list(access_token);
    expect(out.status).toBe(401);
    expect(out.body).toMatchObject({ errorCodeResponse: 'TOKEN_INVALID' });
    // A session that got its 401 is no longer assumed: the next try is the caller's statement alone.
    expect(await list(access_token)).toMatchObject({ status: 401, statements: 1 });
  });
});

describe('readAsCaller and an unexpected error', () => {
  it('answers 401 to a caller that lost its session and 500 (logged) to one that has it, never hiding the error', async () => {
    const logged: string[] = [];
    let calls = 0;
    const app = createApp({
      db: h.db,
      env: h.env,
      log: (m) => logged.push(m),
      extraRoutes: [
        {
          service: 'bff',
          method: 'GET',
          path: '/test/read-that-fails',
          access: 'user',
          callerInStatement: true,
          handler: async () => {
            calls++;
            throw new Error('boom');
          },
        },
      ],
    });
    const { access_token } = await h.login('operator');
    const { sub } = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString()) as { sub: string };
    const get = () => app.request('/bff/test/read-that-fails', { headers: { authorization: `Bearer ${access_token}` } });
    // A list first, so the session's caller is known and assumed by the next request.
    expect(
      (await app.request('/bff/connectors/get-by-cpo?page=0&size=10', { headers: { authorization: `Bearer ${access_token}` } })).status,
    ).toBe(200);
    expect((await get()).status).toBe(500);
    // Run once on the assumed caller, then the caller confirmed and the error thrown, not run again.
    expect(calls).toBe(1);
    expect(logged.join('\n')).toContain('/test/read-that-fails');
    expect((await app.request(`/user-service/logout/${sub}`, { headers: { authorization: `Bearer ${access_token}` } })).status).toBe(200);
    calls = 0;
    // Still assumed once (the logout loaded it): the handler's failure is dropped for the 401.
    expect((await get()).status).toBe(401);
    expect(calls).toBe(1);
    // Forgotten at that 401: the next request is refused before the handler runs.
    expect((await get()).status).toBe(401);
    expect(calls).toBe(1);
  });
});
