import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../db/client';
import { createEmptyTestDb } from '../test/databases';
import { writeTransaction } from './transaction';
import type { AppBindings } from './types';

/** Answers that are not JSON under an Idempotency-Key: a 204 is given again, a file runs again. */

let handle: DbHandle;
const runs = { empty: 0, file: 0 };

const app = new Hono<AppBindings>();
app.use(async (c, next) => {
  c.set('db', handle.db);
  (c as unknown as { set: (k: string, v: unknown) => void }).set('auth', { user: { id: 'user-1' } });
  await next();
});
app.post('/empty', writeTransaction, (c) => {
  runs.empty++;
  return c.body(null, 204);
});
app.post('/file', writeTransaction, (c) => {
  runs.file++;
  return c.body('<Document/>', 200, { 'content-type': 'application/xml' });
});

beforeAll(async () => {
  handle = await createEmptyTestDb();
});
afterAll(() => handle?.close());

const send = (path: string) => app.request(path, { method: 'POST', headers: { 'idempotency-key': `k-${path}` } });

describe('an Idempotency-Key on answers without JSON', () => {
  it('replays a 204 as a 204, applying nothing twice', async () => {
    expect((await send('/empty')).status).toBe(204);
    const again = await send('/empty');
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(runs.empty).toBe(1);
  });

  it('runs a file answer again rather than replaying it as null', async () => {
    expect(await (await send('/file')).text()).toBe('<Document/>');
    const again = await send('/file');
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('<Document/>');
    expect(runs.file).toBe(2);
  });
});
