import type { Context, Handler, MiddlewareHandler } from 'hono';
import { ApiError } from '../http/errors';
import type { AppBindings } from '../http/types';
import { loadSessionCaller, type CallerCheck, type SessionCaller } from './scope';
import { verifyAccessToken } from './tokens';

/** The token's subject and session, or 401. */
async function verifyBearer(c: Context<AppBindings>) {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  if (!match) throw new ApiError(401, 'UNAUTHORIZED', 'Bearer token required');
  return verifyAccessToken(c.get('env'), match[1]);
}

/**
 * The caller this process loaded last per session id, for `readAsCaller` to assume (never trusted
 * without its statement's check); a session that got a 401 is forgotten. Past this many the oldest go first.
 */
const CALLERS_MAX = 5000;
const lastCallers = new Map<string, SessionCaller>();

function setCaller(c: Context<AppBindings>, caller: SessionCaller, sid: string) {
  const { scope, sessionAlive: _alive, verified: _verified, print: _print, ...user } = caller;
  c.set('auth', { user, isAdmin: user.isAdmin, scope, sessionFamilyId: sid });
}

/** Loads the caller in its own statement (401 when unknown, unverified or signed out) and sets it on the request. */
async function loadCaller(c: Context<AppBindings>, sub: string, sid: string) {
  const caller = await loadSessionCaller(c.get('db'), sub, sid);
  lastCallers.delete(sid);
  if (!caller || !caller.verified) throw new ApiError(401, 'TOKEN_INVALID', 'Unknown or inactive user');
  if (!caller.sessionAlive) throw new ApiError(401, 'TOKEN_INVALID', 'Session ended');
  if (lastCallers.size >= CALLERS_MAX) lastCallers.delete(lastCallers.keys().next().value!);
  lastCallers.set(sid, caller);
  setCaller(c, caller, sid);
}

/**
 * Bearer authentication: verifies the JWT (signature, issuer, expiry, session id), then in one
 * statement loads the caller, whether its session is still alive (so a token stops working at once
 * after logout or a password change, on every instance) and the operator ids it may see: the
 * tenancy scope comes from the database on every request, never from the token, and is set on
 * this request's context (and kept per session only as `readAsCaller`'s assumption).
 */
export const requireAuth: MiddlewareHandler<AppBindings> = async (c, next) => {
  const { sub, sid } = await verifyBearer(c);
  await loadCaller(c, sub, sid);
  await next();
};

/**
 * The handler of a read whose statement checks its caller itself (a route with `callerInStatement`,
 * ARCHITECTURE.md "Who is calling"): with the caller this process loaded last for the token's
 * session as the assumption, the handler runs at once and its statement's `callerGuard` column
 * confirms in the same snapshot that the caller is still exactly that one (same user, verified,
 * session alive, same operators). One statement per request instead of two. Unconfirmed (no
 * assumption, another caller, a refusal) the handler's answer is dropped unseen and the request runs
 * as any other: caller first (401 when it must), then the handler. An unexpected error is not
 * retried but thrown once the caller is known (so a 401 still comes first and the error is logged).
 * The handler only reads, and sets nothing on the context before its statement.
 */
export const readAsCaller =
  (handler: Handler<AppBindings>): Handler<AppBindings> =>
  async (c, next) => {
    const { sub, sid } = await verifyBearer(c);
    const assumed = lastCallers.get(sid);
    if (assumed && assumed.id === sub) {
      const check: CallerCheck = { values: { callerId: sub, callerFamily: sid, callerPrint: assumed.print }, confirmed: false };
      setCaller(c, assumed, sid);
      c.set('callerCheck', check);
      let failure: unknown;
      try {
        const answer = await handler(c, next);
        if (check.confirmed) return answer;
      } catch (err) {
        if (check.confirmed) throw err;
        failure = err;
      } finally {
        c.set('callerCheck', undefined);
      }
      if (failure !== undefined && !(failure instanceof ApiError)) {
        await loadCaller(c, sub, sid);
        throw failure;
      }
    }
    await loadCaller(c, sub, sid);
    return handler(c, next);
  };

/** Platform admins only: any other signed-in caller gets 403 FORBIDDEN. */
export const requireAdmin: MiddlewareHandler<AppBindings> = async (c, next) => {
  if (!c.get('auth').isAdmin) throw new ApiError(403, 'FORBIDDEN', 'Only platform admins may do this');
  await next();
};
