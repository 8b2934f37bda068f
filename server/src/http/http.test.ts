import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema/mail';
import { enqueueMail } from '../db/mail-outbox';
import { createHarness, type Harness } from '../test/harness';
import { ApiError } from './errors';
import { ok } from './respond';
import { readJson } from './validate';
import { routeTable } from './route-table';

let h: Harness;
let app: ReturnType<typeof createApp>;
let token: string;
const outboxCount = async (db: Db) => (await db.select({ n: count() }).from(mailOutbox))[0].n;

beforeAll(async () => {
  h = await createHarness();
  token = (await h.login('operator')).access_token;
  // A write route that writes first and may fail afterwards.
  app = createApp({
    db: h.db,
    env: h.env,
    log: () => {},
    extraRoutes: routeTable('bff', [
      {
        method: 'POST',
        path: '/test-write',
        access: 'user',
        handler: async (c) => {
          const body = (await readJson(c)) as { fail?: boolean; n?: number };
          const id = await enqueueMail(c.get('db'), { to: 'x@example.de', from: 'y@example.de', subject: 's', text: 't' });
          if (body.fail) throw new ApiError(400, 'VALIDATION_ERROR', 'refused after writing');
          return ok(c, { id, n: body.n });
        },
      },
    ]),
  });
});
afterAll(() => h?.close());

const post = (body: object, key?: string) =>
  app.request('/bff/test-write', {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(key ? { 'idempotency-key': key } : {}),
    },
    body: JSON.stringify(body),
  });

describe('one request, one transaction', () => {
  it('rolls back writes of a request that answers an error', async () => {
    const before = await outboxCount(h.db);
    expect((await post({ fail: true })).status).toBe(400);
    expect(await outboxCount(h.db)).toBe(before);
    expect((await post({})).status).toBe(200);
    expect(await outboxCount(h.db)).toBe(before + 1);
  });
});

describe('Idempotency-Key', () => {
  it('replays the stored answer for a repeat and refuses another payload under the same key', async () => {
    const before = await outboxCount(h.db);
    const first = await post({ n: 1 }, 'key-1');
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const again = await post({ n: 1 }, 'key-1');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(await outboxCount(h.db)).toBe(before + 1);

    const other = await post({ n: 2 }, 'key-1');
    expect(other.status).toBe(422);
    expect((await other.json()).errorCodeResponse).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('does not record a key whose request failed, so it can be retried', async () => {
    expect((await post({ fail: true }, 'key-2')).status).toBe(400);
    expect((await post({ fail: true }, 'key-2')).status).toBe(400);
  });
});
