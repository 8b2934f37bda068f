import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { defaultRuntimeConfig } from '../../contract/config';
import { readAsCaller, requireAdmin, requireAuth } from './auth/middleware';
import { authRoutes } from './auth/routes';
import { cockpitRoutes } from './cockpit/routes';
import { customerRoutes } from './customers/routes';
import { billRoutes } from './bills/routes';
import { bookingRoutes } from './bookings/routes';
import { configRoutes } from './config/routes';
import { contractRoutes } from './contracts/routes';
import type { Db } from './db/client';
import { downloadRoutes } from './downloads/routes';
import { dropdownRoutes } from './dropdown/routes';
import type { Env } from './env';
import { ApiError } from './http/errors';
import { mountServices, type Guards, type Route } from './http/route-table';
import { compressAnswers } from './http/compress';
import { setHeaders } from './http/plain-answer';
import { refuseUnstorableUrl } from './http/request';
import { hstsHeader, requestIsHttps } from './http/transport-security';
import type { AppBindings } from './http/types';
import { locationRoutes } from './locations/routes';
import { mailRoutes } from './mail/routes';
import { operatorRoutes } from './operators/routes';
import { rfidRoutes } from './rfid/routes';
import { stationImportRoutes } from './stations/import/routes';
import { stationRoutes } from './stations/routes';
import { ocppRoutes } from './ocpp/routes';
import { paymentRoutes } from './payments/routes';
import { describeError } from './http/faults';

export const serviceBases = Object.values(defaultRuntimeConfig.services);

/** Under a service base, in any case: `/BFF/x` is an API path too (a JSON 404, never the app's HTML). */
const isApiPath = (p: string) => {
  const lower = p.toLowerCase();
  return serviceBases.some((base) => lower === base || lower.startsWith(`${base}/`));
};

/**
 * The two `<style>` elements react-aria adds at run time, allowed by their hashes and nothing else:
 * usePress's `touch-action` rule and usePreventScroll's `overscroll-behavior` (iPad). A react-aria
 * update that changes them shows as a violation in tests/e2e/hardening.spec.ts.
 */
const reactAriaStyleHashes = [
  "'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='",
  "'sha256-gYiS/BvZvRcK27JIXTuwhZ3hs2+VJ1X+2gUlE+farlg='",
];

/**
 * The app's Content-Security-Policy: its own scripts, styles, workers and API only; no inline
 * script (the theme is applied by /boot.js), no eval, no framing.
 */
const appCsp = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", ...reactAriaStyleHashes],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};
/**
 * API answers are data, never a document. `sandbox`: should one be shown as a page all the same
 * (a stored contract PDF opened in a tab, a PDF+HTML polyglot), it runs in an opaque origin, with no
 * scripts, forms or plugins, and never reaches the app's storage or tokens.
 */
const apiCsp = { defaultSrc: ["'none'"], frameAncestors: ["'none'"], sandbox: [] };
const headerOptions = {
  // Set per request: over HTTPS only (http/transport-security.ts).
  strictTransportSecurity: false,
  xFrameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  crossOriginEmbedderPolicy: false,
} as const;
const appHeaders = secureHeaders({ ...headerOptions, contentSecurityPolicy: appCsp });
/**
 * The headers of every API answer: those `secureHeaders` sets with the API's policy (asked once,
 * then set as one record: `http/plain-answer.ts`), and no-store: API answers carry personal data,
 * no cache, shared or private, keeps them.
 */
const apiHeaders: Promise<Record<string, string>> = (async () => {
  const probe = new Hono().use(secureHeaders({ ...headerOptions, contentSecurityPolicy: apiCsp })).get('/', (c) => c.body(null));
  return { ...Object.fromEntries((await probe.request('/')).headers), 'cache-control': 'no-store' };
})();

/** Every route of the server, area by area (ARCHITECTURE.md, "Server"); a new area adds its table here. */
export const routes: readonly Route[] = [
  ...configRoutes,
  ...authRoutes,
  ...operatorRoutes,
  ...mailRoutes,
  ...dropdownRoutes,
  ...cockpitRoutes,
  ...locationRoutes,
  ...stationRoutes,
  ...stationImportRoutes,
  ...ocppRoutes,
  ...customerRoutes,
  ...rfidRoutes,
  ...contractRoutes,
  ...bookingRoutes,
  ...billRoutes,
  ...downloadRoutes,
  ...paymentRoutes,
];

/** What each access level of a route table runs before the handler. */
const guards: Guards = {
  access: {
    public: [],
    user: [requireAuth],
    admin: [requireAuth, requireAdmin],
  },
  callerInStatement: readAsCaller,
};

export interface AppOptions {
  db: Db;
  env: Env;
  /** Where unexpected errors are reported (without parameters or personal data). */
  log?: (msg: string) => void;
  /** Routes beyond the app's own (tests); mounted the same way. */
  extraRoutes?: readonly Route[];
}

export function createApp({ db, env, log = (m) => console.error(m), extraRoutes = [] }: AppOptions) {
  const app = new Hono<AppBindings>();

  // Outermost: compresses whatever the rest answers.
  app.use('*', compressAnswers);
  app.use('*', async (c, next) => {
    c.set('db', db);
    c.set('env', env);
    c.set('log', log);
    c.set('commitOnError', false);
    await next();
  });
  app.use('*', async (c, next) => {
    const https = requestIsHttps(c);
    if (!isApiPath(c.req.path)) {
      await appHeaders(c, next);
      if (https) setHeaders(c, hstsHeader);
      return;
    }
    await next();
    setHeaders(c, https ? { ...(await apiHeaders), ...hstsHeader } : await apiHeaders);
  });
  // Inside the headers' middleware, so its refusal (an answer of onError) gets them too.
  app.use('*', (c, next) => (isApiPath(c.req.path) ? refuseUnstorableUrl(c, next) : next()));

  mountServices(app, [...routes, ...extraRoutes], guards, defaultRuntimeConfig.services);

  registerStatic(app, env);

  app.notFound((c) => {
    if (isApiPath(c.req.path)) {
      return c.json({ errorCodeResponse: 'NOT_FOUND', errorMessage: `No route for ${c.req.method} ${c.req.path}` }, 404);
    }
    return c.text('Not Found', 404);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toBody(), err.status, { ...err.headers, ...closeIfRefusedUnread(err, c.req.raw) });
    if (err instanceof HTTPException) {
      const status = err.status;
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 401 ? 'UNAUTHORIZED' : 'VALIDATION_ERROR';
      return c.json({ errorCodeResponse: code, errorMessage: err.message || 'Request refused' }, status);
    }
    // The route's pattern, not the path: a path may hold an e-mail address.
    log(`Unhandled error on ${c.req.method} ${c.req.routePath}: ${describeError(err)}`);
    return c.json({ errorCodeResponse: 'INTERNAL_ERROR', errorMessage: 'Something went wrong' }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;

/**
 * A 429 given before the request's body was read (an upload of a caller whose refused uploads are
 * spent) ends the connection, so the server does not receive and drop the megabytes still coming.
 * A 401 does not: Node drains that body without keeping it, and the app's client, whose expired
 * token it reports, must see the answer to refresh the token, where a closed socket could show it a
 * network error instead.
 */
function closeIfRefusedUnread(err: ApiError, req: Request): Record<string, string> {
  return err.status === 429 && req.body !== null && !req.bodyUsed ? { Connection: 'close' } : {};
}

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
  // Text files were compressed at build time (vite.config.ts, precompress): .br, else .gz, else as is.
  const files = serveStatic({ root, precompressed: true });
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
