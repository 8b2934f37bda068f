import { asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contracts } from '../db/schema/contracts';
import { rfidTags } from '../db/schema/rfid';
import { createHarness, type Harness } from '../test/harness';
import { changedTables, fingerprint } from '../test/route-matrix';
import { rfidConflicts } from './handlers';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = (await h.login('admin')).access_token;
});
afterAll(() => h?.close());

const save = (body: unknown, token = admin) => h.request('POST', '/contract-management/auth/save-rfid-tags', { token, body });
const list = (query = 'page=0&size=10', token = admin) => h.request('GET', `/contract-management/auth/get-rfid-tags?${query}`, { token });

describe('RFID cards', () => {
  it('admins only: operators and partners get 403, anonymous callers 401, on both calls', async () => {
    const before = await fingerprint(h.db);
    for (const role of ['operator', 'partner'] as const) {
      const token = (await h.login(role)).access_token;
      for (const res of [await list(undefined, token), await save([{ serialNumber: 'SN-X', rfidTag: 'TAG-X' }], token)]) {
        expect(res.status).toBe(403);
        expect(res.body.errorCodeResponse).toBe('FORBIDDEN');
      }
    }
    expect((await h.request('GET', '/contract-management/auth/get-rfid-tags')).status).toBe(401);
    expect((await h.request('POST', '/contract-management/auth/save-rfid-tags', { body: [] })).status).toBe(401);
    expect(changedTables(before, await fingerprint(h.db)).filter((t) => !['refresh_tokens', 'throttles'].includes(t))).toEqual([]);
  });

  it('saves cards trimmed and lists them first, with the total', async () => {
    const before = (await list()).body.data.totalNumberOfRecords;
    const res = await save([
      { serialNumber: '  SN-2026-0001 ', rfidTag: ' 04A1B2C3D4E5F6 ' },
      { serialNumber: 'SN-2026-0002', rfidTag: '04A1B2C3D4E5F7' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ saved: 2 });
    const page = await list();
    expect(page.body.data.totalNumberOfRecords).toBe(before + 2);
    expect(page.body.data.response.slice(0, 2)).toEqual([
      { serialId: 'SN-2026-0002', rfidTag: '04A1B2C3D4E5F7' },
      { serialId: 'SN-2026-0001', rfidTag: '04A1B2C3D4E5F6' },
    ]);
    const second = await list('page=1&size=1');
    expect(second.body.data.response).toEqual([{ serialId: 'SN-2026-0001', rfidTag: '04A1B2C3D4E5F6' }]);
  });

  it('refuses the whole request when a serial or tag appears twice in it, naming the values', async () => {
    const before = await fingerprint(h.db);
    const res = await save([
      { serialNumber: 'SN-DUP-1', rfidTag: 'TAG-DUP-1' },
      { serialNumber: 'SN-DUP-1', rfidTag: 'TAG-DUP-2' },
      { serialNumber: 'SN-DUP-3', rfidTag: ' TAG-DUP-2' },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.errorCodeResponse).toBe('ERR_RFID_ID_EXISTS');
    expect(res.body.errorDetail).toEqual([
      { field: 'serialNumber', value: 'SN-DUP-1', endCustomerId: null },
      { field: 'rfidTag', value: 'TAG-DUP-2', endCustomerId: null },
    ]);
    expect(changedTables(before, await fingerprint(h.db))).toEqual([]);
  });

  it('refuses the whole request when a serial or tag exists, naming it and the end customer whose contract holds it', async () => {
    const [held] = await h.db
      .select({ serialId: rfidTags.serialId, rfidTag: rfidTags.rfidTag, endCustomerId: contracts.endCustomerId })
      .from(rfidTags)
      .innerJoin(contracts, eq(contracts.contractKey, rfidTags.contractKey))
      .where(isNotNull(rfidTags.contractKey))
      .orderBy(asc(rfidTags.id))
      .limit(1);
    const before = await fingerprint(h.db);
    const bySerial = await save([
      { serialNumber: 'SN-FRESH-1', rfidTag: 'TAG-FRESH-1' },
      { serialNumber: held.serialId, rfidTag: 'TAG-FRESH-2' },
    ]);
    expect(bySerial.status).toBe(409);
    expect(bySerial.body.errorCodeResponse).toBe('ERR_RFID_ID_EXISTS');
    expect(bySerial.body.errorDetail).toEqual([{ field: 'serialNumber', value: held.serialId, endCustomerId: held.endCustomerId }]);
    const byTag = await save([{ serialNumber: 'SN-FRESH-3', rfidTag: held.rfidTag }]);
    expect(byTag.body.errorDetail).toEqual([{ field: 'rfidTag', value: held.rfidTag, endCustomerId: held.endCustomerId }]);
    const saved = await save([{ serialNumber: 'SN-STOCK-9', rfidTag: 'TAG-STOCK-9' }]);
    expect(saved.status).toBe(200);
    const after = await fingerprint(h.db);
    expect(changedTables(before, after)).toEqual(['rfid_tags']);
    const stock = await save([{ serialNumber: 'SN-STOCK-10', rfidTag: 'TAG-STOCK-9' }]);
    expect(stock.body.errorDetail).toEqual([{ field: 'rfidTag', value: 'TAG-STOCK-9', endCustomerId: null }]);
    expect(await rfidConflicts(h.db, [{ serialNumber: 'SN-UNUSED', rfidTag: 'TAG-UNUSED' }])).toEqual([]);
  });

  it('refuses blank values and an empty list with 400', async () => {
    for (const body of [[], [{ serialNumber: ' ', rfidTag: 'T1' }], [{ serialNumber: 'S1' }], {}]) {
      const res = await save(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    }
  });
});
