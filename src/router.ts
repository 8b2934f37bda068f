import { createRouter } from '@tanstack/react-router';
import { routeTree } from './route-tree.gen';
import type { RouterContext } from './router-context';
import { GatedRouteError } from './layout/admin-gate';

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // Loaders read through the query cache, which owns freshness; the router must not cache on its own.
    defaultPreloadStaleTime: 0,
    scrollRestoration: true,
    // RouteError, or the admin-only screen for a route gated by adminOnly (layout/admin-gate.tsx).
    defaultErrorComponent: GatedRouteError,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
