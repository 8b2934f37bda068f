import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { sha256 } from '../db/stored-hash';
import type { Db } from '../db/client';
import { idempotencyKeys } from '../db/schema/http';
import { ApiError } from './errors';
import { isMultipart, readFormData } from './multipart';
import type { AppBindings } from './types';

/** Keys are kept at least this long: offline tablets replay their outbox after days. */
export const IDEMPOTENCY_RETENTION_DAYS = 9;
/** A claim this old belongs to a request that died (the server stops a request long before); it is taken again. */
export const IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS = 120;

/** The same JSON with other whitespace or key order is the same request; a body that is not JSON counts as its text. */
function canonicalBody(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), (_k, v: unknown) =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
        : v,
    );
  } catch {
    return text;
  }
}

/** What identifies a request under its key: method, path with query, and the body as parsed JSON. */
export const requestFingerprint = (method: string, pathWithQuery: string, body: string) =>
  sha256(`${method} ${pathWithQuery}\n${canonicalBody(body)}`);

/**
 * A multipart form as its fields in order, each file by its bytes' hash: the same file sent again
 * comes with another random boundary, which must not make it another request.
 */
async function formIdentity(c: Context<AppBindings>): Promise<string | undefined> {
  const form = await readFormData(c);
  if (!form) return undefined;
  const fields: [string, string][] = [];
  for (const [name, value] of form) {
    fields.push([
      name,
      typeof value === 'string'
        ? value
        : `file:${createHash('sha256')
            .update(new Uint8Array(await value.arrayBuffer()))
            .digest('hex')}`,
    ]);
  }
  return JSON.stringify(fields);
}

async function fingerprintOf(c: Context<AppBindings>) {
  const url = new URL(c.req.url);
  const body = (isMultipart(c) && (await formIdentity(c))) || (await c.req.text());
  return requestFingerprint(c.req.method, `${url.pathname}${url.search}`, body);
}

const where = (userId: string, key: string) => and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

/**
 * Takes the key for this request, committed at once (outside the write's transaction). A repeat of
 * a finished request gets the stored answer; one whose original is still running gets 409
 * IDEMPOTENCY_KEY_IN_PROGRESS; another payload under the same key 422.
 */
export async function claimIdempotencyKey(c: Context<AppBindings>, userId: string, key: string): Promise<{ replay?: Response }> {
  if (key.length > 200) throw new ApiError(400, 'VALIDATION_ERROR', 'Idempotency-Key too long');
  const db = c.get('db');
  const fingerprint = await fingerprintOf(c);
  const inserted = await db
    .insert(idempotencyKeys)
    .values({ userId, key, fingerprint, status: 'in_progress' })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return {};

  const [existing] = await db.select().from(idempotencyKeys).where(where(userId, key));
  if (!existing) return claimIdempotencyKey(c, userId, key); // released meanwhile
  if (existing.fingerprint !== fingerprint) {
    throw new ApiError(422, 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key was used for another request');
  }
  if (existing.status === 'done') {
    c.header('Idempotency-Replayed', 'true');
    if (existing.responseStatus === 204) return { replay: c.body(null, 204) };
    return { replay: c.json(existing.responseBody ?? null, (existing.responseStatus ?? 200) as ContentfulStatusCode) };
  }
  const retaken = await db
    .update(idempotencyKeys)
    .set({ claimedAt: sql`now()` })
    .where(
      and(
        where(userId, key),
        eq(idempotencyKeys.status, 'in_progress'),
        lt(idempotencyKeys.claimedAt, sql`now() - make_interval(secs => ${IDEMPOTENCY_CLAIM_TIMEOUT_SECONDS})`),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  if (retaken.length > 0) return {};
  throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_PROGRESS', 'A request with this Idempotency-Key is in progress');
}

/**
 * Whether a repeat can be given this answer from the record: a JSON answer or one without a body.
 * A file (a zip, a PDF, an XML download) is not kept; its repeat is made again.
 */
export const isReplayable = (res: Response) => res.status === 204 || (res.headers.get('content-type') ?? '').includes('application/json');

/** In the write's transaction: the answer to give a repeat of this request (only a replayable one). */
export async function recordIdempotentAnswer(c: Context<AppBindings>, userId: string, key: string) {
  const body: unknown = c.res.status === 204 ? null : await c.res.clone().json();
  await c
    .get('db')
    .update(idempotencyKeys)
    .set({ status: 'done', responseStatus: c.res.status, responseBody: body })
    .where(where(userId, key));
}

/** A request that failed gives its key back, so the same write can be sent again. */
export async function releaseIdempotencyKey(db: Db, userId: string, key: string) {
  await db.delete(idempotencyKeys).where(and(where(userId, key), eq(idempotencyKeys.status, 'in_progress')));
}

export async function pruneIdempotencyKeys(db: Db) {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(days => ${IDEMPOTENCY_RETENTION_DAYS})`));
}
