import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../test/harness';
import { refuseUnstorableJson, unstorable } from './request';

/**
 * Issue 34: a lone surrogate (`"\ud800"`) in an OCPP operation's key or value answered 500
 * (PostgreSQL 22P02 from the operation's jsonb). Every body is checked once, in `readJson`, before
 * any route's schema: 400 VALIDATION_ERROR naming the field. (fuzz.test.ts sends such strings to
 * every route.)
 */

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = (await h.login('admin')).access_token;
});
afterAll(() => h?.close());

const issuesOf = (err: unknown) => (err as { issues?: { path: string; message: string }[] }).issues;
const refused = (value: unknown) => {
  try {
    refuseUnstorableJson(value);
    return undefined;
  } catch (err) {
    return issuesOf(err);
  }
};

describe('unstorable strings', () => {
  it('are lone surrogates and NUL, not well-formed pairs or other text', () => {
    for (const s of ['\ud800', '\udfff', 'a\ud83dz', '\ude00x', '\u0000', 'x\udc00\ud800'])
      expect(unstorable(s), JSON.stringify(s)).toBe(true);
    for (const s of ['', 'abc', '😀', '𝕏🙂', '\uFEFF', '\uFFFD', 'ü']) expect(unstorable(s), JSON.stringify(s)).toBe(false);
  });

  it('are refused with the field that holds them, keys too', () => {
    expect(refused({ a: { b: ['ok', '\ud800'] } })).toEqual([{ path: 'a.b.1', message: 'invalidCharacter' }]);
    expect(refused({ a: { ['k\udc00']: 1 } })).toEqual([{ path: 'a.k\ufffd', message: 'invalidCharacter' }]);
    expect(refused('\ud800')).toEqual([{ path: 'body', message: 'invalidCharacter' }]);
    expect(refused({ a: '😀', b: ['𝕏'] })).toBeUndefined();
  });

  it('in an OCPP operation’s key or value: 400 naming the field, nothing recorded', async () => {
    const rows = (await h.db.execute(sql`
      select connector_id, cp_id from connectors
      where status not in ('OFFLINE', 'INACTIVE') and removed = false order by connector_id limit 1`)) as unknown as {
      rows: { connector_id: string; cp_id: string }[];
    };
    const [connector] = rows.rows;
    expect(connector).toBeDefined();
    const count = async () =>
      ((await h.db.execute(sql`select count(*)::int as n from ocpp_operations`)) as unknown as { rows: { n: number }[] }).rows[0].n;
    const before = await count();
    const send = (fields: Record<string, string>) =>
      h.request('POST', '/bff/ocpp-client/change-configuration', {
        token: admin,
        body: {
          connectorOperationType: 'CHANGE_CONFIGURATION',
          cpId: connector.cp_id,
          connectorId: connector.connector_id,
          key: 'HeartbeatInterval',
          value: '60',
          ...fields,
        },
      });
    for (const [field, fields] of [
      ['key', { key: 'Heart\ud800beat' }],
      ['value', { value: '\udfff' }],
      ['value', { value: '6\ud83d0' }],
    ] as const) {
      const res = await send(fields);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
      expect(res.body.issues).toEqual([{ path: field, message: 'invalidCharacter' }]);
    }
    expect(await count()).toBe(before);
  });
});
