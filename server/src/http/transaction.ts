import type { MiddlewareHandler, Next } from 'hono';
import { claimIdempotencyKey, isReplayable, recordIdempotentAnswer, releaseIdempotencyKey } from './idempotency';
import { logFault } from './faults';
import type { AppBindings } from './types';

class Rollback extends Error {}

/**
 * One request, one transaction: the handler sees the transaction as `c.get('db')`, and any error
 * answer rolls everything back, so nothing is half-written. A handler may set `commitOnError`
 * when its refusal itself must persist (token family revocation). `inside` runs in the
 * transaction after a successful handler; a handler's `afterCommit` runs once the transaction
 * committed, before the answer leaves.
 */
async function inTransaction(c: Parameters<MiddlewareHandler<AppBindings>>[0], next: Next, inside?: () => Promise<void>) {
  const root = c.get('db');
  let failed = false;
  try {
    await root.transaction(async (tx) => {
      c.set('db', tx);
      await next();
      failed = !!c.error || c.res.status >= 400;
      if (failed && !c.get('commitOnError')) throw new Rollback();
      if (!failed) await inside?.();
    });
  } catch (err) {
    if (!(err instanceof Rollback)) throw err;
    return;
  } finally {
    c.set('db', root);
  }
  if (!failed)
    await c
      .get('afterCommit')?.()
      .catch((err: unknown) => logFault(c.get('log'), `after commit of ${c.req.method} ${c.req.routePath}`, err));
}

/**
 * The transaction of a write route (mounted by the route table after the body is read and the
 * caller checked). A signed-in write with an Idempotency-Key claims the key first, in a statement
 * of its own, so a second request with the key sees the claim at once (409) instead of waiting
 * on it; the answer is recorded in the write's transaction, and a failed request, or one answered
 * with a file, gives the key back so it can be sent again.
 */
export const writeTransaction: MiddlewareHandler<AppBindings> = async (c, next) => {
  const key = c.req.header('idempotency-key');
  const userId = c.get('auth')?.user.id;
  if (!key || !userId) return inTransaction(c, next);

  const claim = await claimIdempotencyKey(c, userId, key);
  if (claim.replay) return claim.replay;
  let recorded = false;
  try {
    await inTransaction(c, next, async () => {
      if (!isReplayable(c.res)) return; // a file is made again for a repeat: the key is given back
      await recordIdempotentAnswer(c, userId, key);
      recorded = true;
    });
  } finally {
    if (!recorded) await releaseIdempotencyKey(c.get('db'), userId, key);
  }
};
