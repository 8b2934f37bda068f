import type { Handler, Hono, MiddlewareHandler } from 'hono';
import type { AppBindings } from './types';

/**
 * The server's route tables. Every area declares its routes as data in its `routes.ts`: service,
 * method, path, who may call it, and the handler (which validates with the contract and calls the
 * area's handlers/queries). app.ts mounts them all; a test checks that every mounted route is
 * declared, and the access matrix test calls each one as every kind of caller.
 */

/** The service base a route lives under (contract/config.ts), or `root` for the app's own files. */
export type Service = 'root' | 'userService' | 'bff' | 'contractManagement' | 'bookingService';

/**
 * Who may call a route: `public` anyone; `user` any signed-in user, the handler scoping every read
 * and write to the caller's operators; `admin` platform admins only (others get 403).
 */
export type Access = 'public' | 'user' | 'admin';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  service: Service;
  method: Method;
  path: string;
  access: Access;
  /** Runs before the access check, e.g. a body limit or the transaction of a GET that writes. */
  before?: MiddlewareHandler<AppBindings>[];
  handler: Handler<AppBindings>;
}

/** The routes of one area under one service. */
export const routeTable = (service: Service, routes: Omit<Route, 'service'>[]): Route[] => routes.map((r) => ({ service, ...r }));

const segments = (path: string) => path.split('/').filter(Boolean);

/**
 * Fixed segments before parameters, segment by segment, so `/locations/get-by-cpo-for-dropdown`
 * is never shadowed by `/locations/:id` whatever order the tables are listed in.
 */
export function routeOrder(a: Pick<Route, 'path'>, b: Pick<Route, 'path'>): number {
  const sa = segments(a.path);
  const sb = segments(b.path);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = sa[i]!.startsWith(':') ? 1 : 0;
    const pb = sb[i]!.startsWith(':') ? 1 : 0;
    if (pa !== pb) return pa - pb;
  }
  return 0;
}

export function mountRoutes(
  targets: Record<Service, Hono<AppBindings>>,
  routes: readonly Route[],
  guards: Record<Access, MiddlewareHandler<AppBindings>[]>,
): void {
  for (const r of [...routes].sort(routeOrder)) {
    const chain: MiddlewareHandler<AppBindings>[] = [...(r.before ?? []), ...guards[r.access]];
    targets[r.service].on(r.method, [r.path], ...chain, r.handler);
  }
}

/** `METHOD /base/path` of each route, as Hono lists what is mounted (`app.routes`). */
export function routeKeys(routes: readonly Route[], bases: Record<Exclude<Service, 'root'>, string>): string[] {
  return routes.map((r) => `${r.method} ${r.service === 'root' ? '' : bases[r.service]}${r.path}`);
}
