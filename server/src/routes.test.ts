import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRuntimeConfig } from '../../contract/config';
import { routes } from './app';
import { routeKeys, routeOrder } from './http/route-table';
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
});
