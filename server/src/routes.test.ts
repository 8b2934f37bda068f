import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRuntimeConfig } from '../../contract/config';
import { routes } from './app';
import { routeKeys, routeOrder } from './http/route-table';
import { createHarness, type Harness } from './test/harness';

let h: Harness;
let tokens: { operator: string; admin: string };

beforeAll(async () => {
  h = await createHarness();
  tokens = { operator: (await h.login('operator')).access_token, admin: (await h.login('admin')).access_token };
});
afterAll(() => h?.close());

/** A concrete path for a route pattern (`:id` → a value no one has). */
const concrete = (path: string) => path.replace(/:(\w+)/g, 'NO_SUCH_$1');
const fullPath = (r: (typeof routes)[number]) =>
  `${r.service === 'root' ? '' : defaultRuntimeConfig.services[r.service]}${concrete(r.path)}`;

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

  it('put fixed segments before parameters, whatever order the tables list them in', () => {
    const paths = ['/locations/:id', '/locations/get-by-cpo-for-dropdown', '/cpos/:id/operator-details', '/cpos', '/a/:x/b', '/a/y/:z'];
    const sorted = [...paths]
      .map((path) => ({ path }))
      .sort(routeOrder)
      .map((r) => r.path);
    expect(sorted.indexOf('/locations/get-by-cpo-for-dropdown')).toBeLessThan(sorted.indexOf('/locations/:id'));
    expect(sorted.indexOf('/a/y/:z')).toBeLessThan(sorted.indexOf('/a/:x/b'));
    const reversed = [...paths]
      .reverse()
      .map((path) => ({ path }))
      .sort(routeOrder)
      .map((r) => r.path);
    expect(reversed.indexOf('/locations/get-by-cpo-for-dropdown')).toBeLessThan(reversed.indexOf('/locations/:id'));
  });

  it('each route answers as its access says: 401 without a token, 403 for a non-admin on admin routes', async () => {
    for (const r of routes) {
      const body = r.method === 'GET' ? undefined : {};
      const anonymous = await h.request(r.method, fullPath(r), { body });
      if (r.access === 'public') expect(anonymous.status, `${r.method} ${r.path}`).not.toBe(401);
      else expect(anonymous.status, `${r.method} ${r.path}`).toBe(401);
      if (r.access === 'admin') {
        const operator = await h.request(r.method, fullPath(r), { body, token: tokens.operator });
        expect(operator.status, `${r.method} ${r.path} as operator`).toBe(403);
        const admin = await h.request(r.method, fullPath(r), { body, token: tokens.admin });
        expect(admin.status, `${r.method} ${r.path} as admin`).not.toBe(403);
      }
    }
  });
});
