import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../http/errors';
import type { AppBindings } from '../http/types';
import { loadSessionCaller } from './scope';
import { verifyAccessToken } from './tokens';

/**
 * Bearer authentication: verifies the JWT (signature, issuer, expiry, session id), then in one
 * statement loads the caller, whether its session is still alive (so a token stops working at once
 * after logout or a password change, on every instance) and the operator ids it may see: the
 * tenancy scope comes from the database on every request, never from the token, and lives on this
 * request's context only.
 */
export const requireAuth: MiddlewareHandler<AppBindings> = async (c, next) => {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError(401, 'UNAUTHORIZED', 'Bearer token required');
  const { sub, sid } = await verifyAccessToken(c.get('env'), match[1]);
  const db = c.get('db');
  const caller = await loadSessionCaller(db, sub, sid);
  if (!caller || !caller.verified) throw new ApiError(401, 'TOKEN_INVALID', 'Unknown or inactive user');
  if (!caller.sessionAlive) throw new ApiError(401, 'TOKEN_INVALID', 'Session ended');
  const { scope, ...user } = caller;
  c.set('auth', { user, isAdmin: user.isAdmin, scope, sessionFamilyId: sid });
  await next();
};

/** Platform admins only: any other signed-in caller gets 403 FORBIDDEN. */
export const requireAdmin: MiddlewareHandler<AppBindings> = async (c, next) => {
  if (!c.get('auth').isAdmin) throw new ApiError(403, 'FORBIDDEN', 'Only platform admins may do this');
  await next();
};
