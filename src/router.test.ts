import { createMemoryHistory, createRouter } from '@tanstack/react-router';
import { describe, expect, it } from 'vitest';
import { AdminOnlyError } from './layout/admin-gate';
import { routeTree } from './route-tree.gen';

describe('the route tree', () => {
  it("gates the app's admin routes (customers, RFID) in their beforeLoad", () => {
    const app = createRouter({ routeTree, history: createMemoryHistory() });
    const routes = Object.values(app.routesById) as Array<{ id: string; options: { beforeLoad?: (ctx: unknown) => unknown } }>;
    const gated = routes.filter((r) => {
      try {
        r.options.beforeLoad?.({ context: { session: { isAdmin: false } } });
        return false;
      } catch (error) {
        return error instanceof AdminOnlyError;
      }
    });
    expect(gated.map((r) => r.id).sort()).toEqual(['/_app/customers/', '/_app/customers/$customerId', '/_app/rfid']);
    for (const route of gated) expect(() => route.options.beforeLoad?.({ context: { session: { isAdmin: true } } })).not.toThrow();
  });
});
