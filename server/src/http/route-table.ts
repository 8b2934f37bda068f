import { Hono, type Handler, type MiddlewareHandler } from 'hono';
import { readBodyFirst, type BodyLimit } from './request';
import { writeTransaction } from './transaction';
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
  /** The body limit of a POST/PUT/DELETE: `json` (JSON_BODY_LIMIT_BYTES, the default) or `upload`. */
  bodyLimit?: BodyLimit;
  /**
   * Whether the handler runs in one transaction opened after the body is read and the caller is
   * checked (with the Idempotency-Key claimed first): the default for POST/PUT/DELETE, and for a GET
   * that writes. `false` for a handler that does slow work first (hashing a password) and opens its
   * own short transaction, so no lock is held meanwhile.
   */
  transaction?: boolean;
  /**
   * The answer is a file (a PDF, a CSV) with its own content type, or 204 when there is nothing to
   * download; errors are JSON like everywhere else.
   */
  download?: boolean;
  /**
   * A `user` read whose statement checks the caller itself (`callerGuard` in auth/scope.ts, with
   * the values of `c.get('callerCheck')`): mounted behind `readAsCaller` instead of `requireAuth`,
   * so a request usually needs one statement, not two. Only a GET without a transaction.
   */
  callerInStatement?: boolean;
  /**
   * The check of a file the body carries (`mail/upload-gate.ts`): `quota` runs after the access check
   * and before the body is read (a caller whose refused uploads are spent gets 429 without sending
   * megabytes for it), `check` after the body is read and before the transaction, so parsing a file
   * holds no lock.
   */
  checkUpload?: { quota: MiddlewareHandler<AppBindings>; check: MiddlewareHandler<AppBindings> };
  /** Runs after the access check and the body is read, before an upload's check and the transaction. */
  before?: MiddlewareHandler<AppBindings>[];
  handler: Handler<AppBindings>;
}

const hasBody = (method: Method) => method !== 'GET';

/** The routes of one area under one service. */
export const routeTable = (service: Service, routes: Omit<Route, 'service'>[]): Route[] => routes.map((r) => ({ service, ...r }));

const segments = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => segment.startsWith(':');
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order routes are mounted in, a total order whatever order the tables are listed in: segment
 * by segment, fixed text before a parameter (so `/locations/get-by-cpo-for-dropdown` is never
 * answered by `/locations/:id`), fixed texts alphabetically, a path before its longer
 * continuations; then path, method and service break the remaining ties. Hono runs the first route
 * mounted that matches, so a fixed path must come before every parameter path that also matches it.
 */
export function routeOrder(a: Pick<Route, 'path' | 'method' | 'service'>, b: Pick<Route, 'path' | 'method' | 'service'>): number {
  const sa = segments(a.path);
  const sb = segments(b.path);
  for (let i = 0; i < Math.min(sa.length, sb.length); i++) {
    const pa = isParam(sa[i]!);
    if (pa !== isParam(sb[i]!)) return pa ? 1 : -1;
    if (!pa && sa[i] !== sb[i]) return compareText(sa[i]!, sb[i]!);
  }
  return sa.length - sb.length || compareText(a.path, b.path) || compareText(a.method, b.method) || compareText(a.service, b.service);
}

/** What app.ts runs for each access level before a handler, and around a `callerInStatement` one. */
export interface Guards {
  access: Record<Access, MiddlewareHandler<AppBindings>[]>;
  callerInStatement: (handler: Handler<AppBindings>) => Handler<AppBindings>;
}

function mountRoutes(targets: Record<Service, Hono<AppBindings>>, routes: readonly Route[], guards: Guards): void {
  for (const r of [...routes].sort(routeOrder)) {
    const transaction = r.transaction ?? hasBody(r.method);
    if (r.callerInStatement && (r.method !== 'GET' || r.access !== 'user' || transaction)) {
      throw new Error(`${r.method} ${r.path}: only a user's GET without a transaction checks its caller in its statement`);
    }
    // Who may call first (a statement of its own, no lock: an anonymous 25 MB upload is answered
    // 401 without being read), then the body (size-checked and read whole), then the transaction:
    // no lock is ever held while a client is still sending.
    const chain: MiddlewareHandler<AppBindings>[] = [
      ...(r.callerInStatement ? [] : guards.access[r.access]),
      ...(r.checkUpload ? [r.checkUpload.quota] : []),
      ...(hasBody(r.method) ? [readBodyFirst(r.bodyLimit ?? 'json')] : []),
      ...(r.before ?? []),
      ...(r.checkUpload ? [r.checkUpload.check] : []),
      ...(transaction ? [writeTransaction] : []),
    ];
    targets[r.service].on(r.method, [r.path], ...chain, r.callerInStatement ? guards.callerInStatement(r.handler) : r.handler);
  }
}

/**
 * Mounts the route tables on `app` in `routeOrder`: the root's routes on it, each service's on a
 * router of its own under the service's base (Hono copies a router's routes when it is mounted, so
 * the tables go in first).
 */
export function mountServices(
  app: Hono<AppBindings>,
  routes: readonly Route[],
  guards: Guards,
  bases: Record<Exclude<Service, 'root'>, string>,
): void {
  const services = Object.keys(bases) as Exclude<Service, 'root'>[];
  const targets = { root: app } as Record<Service, Hono<AppBindings>>;
  for (const service of services) targets[service] = new Hono<AppBindings>();
  mountRoutes(targets, routes, guards);
  for (const service of services) app.route(bases[service], targets[service]);
}

/** `METHOD /base/path` of each route, as Hono lists what is mounted (`app.routes`). */
export function routeKeys(routes: readonly Route[], bases: Record<Exclude<Service, 'root'>, string>): string[] {
  return routes.map((r) => `${r.method} ${r.service === 'root' ? '' : bases[r.service]}${r.path}`);
}
