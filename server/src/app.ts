import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { defaultRuntimeConfig } from '../../contract/config';
import { userServiceRoutes } from './auth/routes';
import { registerCockpitBffRoutes, registerCockpitBookingRoutes } from './cockpit/routes';
import { registerConfigRoute } from './config/routes';
import type { Db } from './db/client';
import { registerDropdownRoutes } from './dropdown/routes';
import type { Env } from './env';
import { ApiError } from './http/errors';
import { transactionalWrites } from './http/transaction';
import type { AppBindings } from './http/types';
import { registerLocationBffRoutes, registerLocationContractRoutes } from './locations/routes';
import { registerMailRoutes } from './mail/routes';
import { registerOperatorRoutes } from './operators/routes';
import { registerStationBffRoutes } from './stations/routes';

export const serviceBases = Object.values(defaultRuntimeConfig.services);

const isApiPath = (p: string) => serviceBases.some((base) => p === base || p.startsWith(`${base}/`));

export interface AppOptions {
  db: Db;
  env: Env;
  log?: (msg: string, err?: unknown) => void;
  /** Adds routes to the service routers before they are mounted (tests, extensions). */
  extend?: (routers: ServiceRouters) => void;
}

/** One service router per base; other areas add their routes to these (see DESIGN.md "Server"). */
export interface ServiceRouters {
  userService: Hono<AppBindings>;
  bff: Hono<AppBindings>;
  contractManagement: Hono<AppBindings>;
  bookingService: Hono<AppBindings>;
}

export function createApp({ db, env, log = (m, e) => console.error(m, e), extend }: AppOptions) {
  const app = new Hono<AppBindings>();

  app.use('*', async (c, next) => {
    c.set('db', db);
    c.set('env', env);
    c.set('commitOnError', false);
    await next();
  });
  app.use('*', transactionalWrites);

  const routers: ServiceRouters = {
    userService: userServiceRoutes(),
    bff: new Hono<AppBindings>(),
    contractManagement: new Hono<AppBindings>(),
    bookingService: new Hono<AppBindings>(),
  };
  registerOperatorRoutes(routers.bff);
  registerMailRoutes(routers.bff, env.BODY_LIMIT_BYTES);
  registerDropdownRoutes(routers.bff);
  registerCockpitBffRoutes(routers.bff);
  // After the cockpit's /locations/get-by-cpo-for-dropdown, which /locations/:id would shadow.
  registerLocationBffRoutes(routers.bff);
  registerStationBffRoutes(routers.bff);
  registerLocationContractRoutes(routers.contractManagement);
  registerCockpitBookingRoutes(routers.bookingService);
  extend?.(routers);

  const bases = defaultRuntimeConfig.services;
  app.route(bases.userService, routers.userService);
  app.route(bases.bff, routers.bff);
  app.route(bases.contractManagement, routers.contractManagement);
  app.route(bases.bookingService, routers.bookingService);

  registerConfigRoute(app, env);
  registerStatic(app, env);

  app.notFound((c) => {
    if (isApiPath(c.req.path)) {
      return c.json({ errorCodeResponse: 'NOT_FOUND', errorMessage: `No route for ${c.req.method} ${c.req.path}` }, 404);
    }
    return c.text('Not Found', 404);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toBody(), err.status);
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 401 ? 'UNAUTHORIZED' : 'VALIDATION_ERROR';
      return c.json({ errorCodeResponse: code, errorMessage: err.message || 'Request refused' }, status);
    }
    log(`Unhandled error on ${c.req.method} ${c.req.path}`, err);
    return c.json({ errorCodeResponse: 'INTERNAL_ERROR', errorMessage: 'Something went wrong' }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

/** The built PWA, with the shell answering every navigation outside the service bases. */
function registerStatic(app: Hono<AppBindings>, env: Env) {
  const root = path.resolve(env.STATIC_DIR);
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) return;

  const noCache = new Set(['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/config.json']);
  app.use('*', async (c, next) => {
    await next();
    if (isApiPath(c.req.path) || c.res.status >= 400) return;
    if (noCache.has(c.req.path)) c.res.headers.set('Cache-Control', 'no-cache');
    else if (c.req.path.startsWith('/assets/')) c.res.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
  });
  const files = serveStatic({ root });
  app.use('*', async (c, next) => {
    if (isApiPath(c.req.path) || (c.req.method !== 'GET' && c.req.method !== 'HEAD')) return next();
    return files(c, next);
  });
  app.get('*', (c, next) => {
    if (isApiPath(c.req.path) || !isNavigation(c.req.path, c.req.header('accept'))) return next();
    c.header('Cache-Control', 'no-cache');
    // Read per request: a redeploy that replaces dist/ is picked up without a restart.
    return c.html(readFileSync(indexFile, 'utf8'));
  });
}

/** A navigation asks for HTML, or has no file extension (a client route); a missing /assets/x.js stays 404. */
function isNavigation(p: string, accept: string | undefined) {
  if (p.startsWith('/assets/')) return false;
  if (accept?.includes('text/html')) return true;
  return !path.posix.basename(p).includes('.');
}
