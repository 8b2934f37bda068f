import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../http/errors';
import { withIdempotency } from '../http/idempotency';
import type { AppBindings } from '../http/types';
import { loadAuthUser, scopeFor } from './scope';
import { verifyAccessToken } from './tokens';

/**
 * Bearer authentication: verifies the JWT, loads the caller and computes its tenancy scope from the
 * database. Authenticated writes carrying an Idempotency-Key are deduplicated here, per user.
 */
export const requireAuth: MiddlewareHandler<AppBindings> = async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError(401, 'UNAUTHORIZED', 'Bearer token required');
  const { sub, sid } = await verifyAccessToken(c.var.env, match[1]);
  const db = c.var.db;
  const user = await loadAuthUser(db, sub);
  if (!user || !user.verified) throw new ApiError(401, 'TOKEN_INVALID', 'Unknown or inactive user');
  c.set('auth', { user, isAdmin: user.isAdmin, scope: await scopeFor(db, user), sessionFamilyId: sid });
  const key = c.req.header('idempotency-key');
  if (key && !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method)) {
    const replay = await withIdempotency(c, next, user.id, key);
    if (replay) return replay;
    return;
  }
  await next();
};

/** Platform admins only: any other signed-in caller gets 403 FORBIDDEN. */
export const requireAdmin: MiddlewareHandler<AppBindings> = async (c, next) => {
  if (!c.var.auth.isAdmin) throw new ApiError(403, 'FORBIDDEN', 'Only platform admins may do this');
  await next();
};
