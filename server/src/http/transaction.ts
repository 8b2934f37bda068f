import type { MiddlewareHandler } from 'hono';
import type { AppBindings } from './types';

class Rollback extends Error {}

/**
 * One request, one transaction: the handler sees the transaction as `c.var.db`, and any error
 * answer rolls everything back, so nothing is half-written. A handler may set `commitOnError`
 * when its refusal itself must persist (token family revocation).
 */
export const transactional: MiddlewareHandler<AppBindings> = async (c, next) => {
  const root = c.var.db;
  try {
    await root.transaction(async (tx) => {
      c.set('db', tx);
      await next();
      if ((c.error || c.res.status >= 400) && !c.var.commitOnError) throw new Rollback();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
  } finally {
    c.set('db', root);
  }
};

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Writes (POST, PUT, PATCH, DELETE) always run in a transaction. */
export const transactionalWrites: MiddlewareHandler<AppBindings> = async (c, next) => {
  if (readMethods.has(c.req.method)) return next();
  return transactional(c, next);
};
