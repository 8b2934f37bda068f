import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRuntimeConfig } from '../../contract/config';
import { routes } from './app';
import { testEnv } from './env';
import { mountServices, routeKeys, routeOrder, type Route } from './http/route-table';
import type { AppBindings } from './http/types';
import { createRandom } from './seed/random';
import { createHarness, type Harness } from './test/harness';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

// Who may call each route, with whose data, is the access matrix's (access-matrix.test.ts).

describe('route tables', () => {
  it('declare every route the app mounts, and nothing it does not', () => {
    const mounted = new Set(
      h.app.routes
        // Middleware for every path (app.use) and the PWA's catch-all are not routes of an area.
        .filter((r) => r.method !== 'ALL' && r.path !== '/*' && r.path !== '*')
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...mounted].sort()).toEqual([...new Set(routeKeys(routes, defaultRuntimeConfig.services))].sort());
  });
});

// ---- Route order over the real tables ------------------------------------------------------------

const key = (r: Route) => `${r.service} ${r.method} ${r.path}`;
const segmentsOf = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => segment.startsWith(':');

/** Fisher-Yates with a seeded mulberry32, so a failing order can be replayed from its seed. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const rnd = createRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rnd.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Whether `general` (same service and method) answers a request meant for `specific`: same number
 * of segments, each of `general`'s a parameter or `specific`'s fixed text, and at least one
 * parameter of `general` where `specific` has fixed text.
 */
function shadows(general: Route, specific: Route): boolean {
  if (general.service !== specific.service || general.method !== specific.method) return false;
  const g = segmentsOf(general.path);
  const s = segmentsOf(specific.path);
  if (g.length !== s.length) return false;
  let wider = false;
  for (let i = 0; i < g.length; i++) {
    if (isParam(g[i]!)) wider ||= !isParam(s[i]!);
    else if (isParam(s[i]!) || g[i] !== s[i]) return false;
  }
  return wider;
}

/** A request path for a route: each parameter a value no route has as fixed text. */
const requestPath = (r: Route) =>
  `${r.service === 'root' ? '' : defaultRuntimeConfig.services[r.service]}/${segmentsOf(r.path)
    .map((s) => (isParam(s) ? `value-of-${s.slice(1)}` : s))
    .join('/')}`;

/** The tables mounted as app.ts mounts them (`mountServices`), listed in the given order, each handler answering with its route's key. */
function mountedMarkers(table: readonly Route[]) {
  const app = new Hono<AppBindings>();
  app.use('*', async (c, next) => {
    c.set('env', testEnv());
    await next();
  });
  const markers = table.map((r): Route => ({
    service: r.service,
    method: r.method,
    path: r.path,
    access: r.access,
    transaction: false,
    handler: (c) => c.text(key(r)),
  }));
  mountServices(app, markers, { access: { public: [], user: [], admin: [] }, callerInStatement: (h) => h }, defaultRuntimeConfig.services);
  return app;
}

describe('route order over the real tables', () => {
  const SHUFFLES = 500;
  const shadowed = routes.flatMap((general) =>
    routes.filter((specific) => shadows(general, specific)).map((specific) => ({ general, specific })),
  );

  it('has fixed paths that a parameter path would also match (else this test proves nothing)', () => {
    expect(shadowed.map(({ general, specific }) => `${key(specific)} before ${general.path}`)).toEqual(
      expect.arrayContaining([
        'bff GET /locations/get-by-cpo-for-dropdown before /locations/:id',
        'bff GET /connectors/get-by-cpo before /connectors/:id',
      ]),
    );
  });

  it(`sorts ${SHUFFLES} shuffles of them into one order, each fixed path before the parameter path that would answer it`, () => {
    const first = [...routes].sort(routeOrder).map(key);
    for (let seed = 1; seed <= SHUFFLES; seed++) {
      const order = shuffled(routes, seed).sort(routeOrder).map(key);
      expect(order, `shuffle ${seed}`).toEqual(first);
    }
    for (const { general, specific } of shadowed) {
      expect(first.indexOf(key(specific)), `${key(specific)} before ${general.path}`).toBeLessThan(first.indexOf(key(general)));
    }
  });

  it(`answers every route with its own handler, mounted in ${SHUFFLES / 5} shuffled orders`, async () => {
    for (let seed = 1; seed <= SHUFFLES / 5; seed++) {
      const app = mountedMarkers(shuffled(routes, seed));
      for (const r of routes) {
        const res = await app.request(
          requestPath(r),
          r.method === 'GET' ? {} : { method: r.method, body: '{}', headers: { 'content-type': 'application/json' } },
        );
        expect(await res.text(), `shuffle ${seed}: ${r.method} ${requestPath(r)}`).toBe(key(r));
      }
    }
  });
});
