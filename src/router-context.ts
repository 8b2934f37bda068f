import type { SessionStore } from './auth/session';

/**
 * Route context, a module of its own because the root route (in the generated route tree, which
 * router.ts imports) types itself with it. The query client is not in it: it loads with the
 * signed-in layout (src/offline/query-runtime.tsx).
 */
export interface RouterContext {
  session: SessionStore;
}
