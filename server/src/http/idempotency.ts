import { and, eq, lt, sql } from 'drizzle-orm';
import type { Context, Next } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { sha256 } from '../auth/tokens';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { ApiError } from './errors';
import type { AppBindings } from './types';

/** Keys are kept at least this long: offline tablets replay their outbox after days. */
export const IDEMPOTENCY_RETENTION_DAYS = 9;

/**
 * Runs inside the request's transaction, after authentication. The key row is inserted with the
 * write and rolled back with it on an error answer, so a refused request can be retried under the
 * same key. A repeat of a finished request gets the stored answer; another payload under the same
 * key is refused with 422; on PostgreSQL a concurrent duplicate waits on the primary key and then
 * sees the finished row.
 */
export async function withIdempotency(c: Context<AppBindings>, next: Next, userId: string, key: string) {
  if (key.length > 200) throw new ApiError(400, 'VALIDATION_ERROR', 'Idempotency-Key too long');
  const db = c.var.db;
  const url = new URL(c.req.url);
  const fingerprint = sha256(`${c.req.method} ${url.pathname}${url.search}\n${await c.req.text()}`);
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ userId, key, fingerprint, status: 'in_progress' })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length === 0) {
    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!existing || existing.fingerprint !== fingerprint) {
      throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was used for another request');
    }
    if (existing.status !== 'done') {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is in progress');
    }
    c.header('Idempotency-Replayed', 'true');
    return c.json(existing.responseBody ?? null, (existing.responseStatus ?? 200) as ContentfulStatusCode);
  }
  await next();
  if (c.res.status < 400) {
    const isJson = (c.res.headers.get('content-type') ?? '').includes('application/json');
    const body = isJson ? await c.res.clone().json() : null;
    await db
      .update(idempotencyKeys)
      .set({ status: 'done', responseStatus: c.res.status, responseBody: body })
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  }
}

export async function pruneIdempotencyKeys(db: Db) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(days => ${IDEMPOTENCY_RETENTION_DAYS})`));
}
