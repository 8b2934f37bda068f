import type { SessionStore } from './auth/session';
import { describe, expect, it } from 'vitest';
import { AdminOnlyError } from './layout/admin-gate';
import { createAppRouter } from './router';

describe('the route tree', () => {
  it("gates the app's admin routes (customers, RFID) in their beforeLoad", () => {
    const app = createAppRouter({ session: {} as SessionStore });
    const routes = Object.values(app.routesById) as Array<{ id: string; options: { beforeLoad?: (ctx: unknown) => unknown } }>;
    const gated = routes.filter((r) => {
      try {
        // The signed-in layout's own beforeLoad awaits a real session: not what is asked here.
        void Promise.resolve(r.options.beforeLoad?.({ context: { session: { isAdmin: false } } })).catch(() => undefined);
        return false;
      } catch (error) {
        return error instanceof AdminOnlyError;
      }
    });
    expect(gated.map((r) => r.id).sort()).toEqual(['/_app/customers/', '/_app/customers/$customerId', '/_app/rfid']);
    for (const route of gated) expect(() => route.options.beforeLoad?.({ context: { session: { isAdmin: true } } })).not.toThrow();
  });
});
