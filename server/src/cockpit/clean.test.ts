import { asc, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanChargingRequestsAnswerSchema } from '../../../contract/cockpit';
import { chargingRequests } from '../db/schema/cockpit';
import { connectors } from '../db/schema/stations';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let tokens: Record<'admin' | 'operator' | 'partner', string>;

beforeAll(async () => {
  h = await createHarness();
  tokens = {
    admin: (await h.login('admin')).access_token,
    operator: (await h.login('operator')).access_token,
    partner: (await h.login('partner')).access_token,
  };
});
afterAll(() => h?.close());

const MIN = 60_000;
const snapshot = async () => h.db.select().from(chargingRequests).orderBy(asc(chargingRequests.transactionId));

/** Own rows with known timestamps around a 60-minute threshold. */
async function insertFixtures(now: number) {
  const [connector] = await h.db
    .select()
    .from(connectors)
    .where(inArray(connectors.removed, [false]))
    .limit(1);
  const base = {
    cpoId: connector.cpoId,
    locationId: connector.locationId!,
    connectorId: connector.connectorId,
    authType: 'APP' as const,
    startDate: new Date(now - 400 * MIN),
  };
  const fixtures = [
    { transactionId: 'FX-STUCK-PROCESSING', status: 'processing' as const, lastUpdateTimestamp: new Date(now - 120 * MIN) },
    { transactionId: 'FX-STUCK-ACCEPTED', status: 'accepted' as const, lastUpdateTimestamp: new Date(now - 62 * MIN) },
    { transactionId: 'FX-STUCK-CONNECTED', status: 'connected' as const, lastUpdateTimestamp: new Date(now - 300 * MIN) },
    { transactionId: 'FX-FRESH-CONNECTED', status: 'connected' as const, lastUpdateTimestamp: new Date(now - 50 * MIN) },
    { transactionId: 'FX-FRESH-PROCESSING', status: 'processing' as const, lastUpdateTimestamp: new Date(now - 5 * MIN) },
    { transactionId: 'FX-OLD-CHARGING', status: 'charging' as const, lastUpdateTimestamp: new Date(now - 300 * MIN) },
    { transactionId: 'FX-OLD-PAUSED', status: 'paused' as const, lastUpdateTimestamp: new Date(now - 300 * MIN) },
    {
      transactionId: 'FX-OLD-FINISHED',
      status: 'finished' as const,
      lastUpdateTimestamp: new Date(now - 300 * MIN),
      endDate: new Date(now - 300 * MIN),
    },
  ];
  await h.db.insert(chargingRequests).values(fixtures.map((f) => ({ ...base, ...f })));
}

const clean = (token: string, body: unknown) => h.request('PUT', '/bff/charging-requests/clean', { token, body });

describe('PUT /bff/charging-requests/clean', () => {
  it('is admin only: operator and partner get 403 and nothing changes', async () => {
    const before = await snapshot();
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await clean(token, { minutesThreshold: 1 });
      expect(res.status).toBe(403);
      expect(res.body.errorCodeResponse).toBe('FORBIDDEN');
    }
    expect(await snapshot()).toEqual(before);
    expect((await h.request('PUT', '/bff/charging-requests/clean', { body: { minutesThreshold: 1 } })).status).toBe(401);
  });

  it('refuses a threshold that is not a positive integer with 400', async () => {
    const before = await snapshot();
    for (const body of [
      { minutesThreshold: 0 },
      { minutesThreshold: -5 },
      { minutesThreshold: 1.5 },
      { minutesThreshold: 'abc' },
      { minutesThreshold: true },
      { minutesThreshold: '' },
      {},
      [],
    ]) {
      const res = await clean(tokens.admin, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    }
    const malformed = await h.request('PUT', '/bff/charging-requests/clean', { token: tokens.admin, raw: '{"minutesThreshold":' });
    expect(malformed.status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('closes exactly the early requests older than the threshold, and nothing else', async () => {
    const now = Date.now();
    await insertFixtures(now);
    const before = await snapshot();
    const cutoff = now - 60 * MIN;
    const stuck = new Set(
      before
        .filter((r) => ['processing', 'accepted', 'connected'].includes(r.status) && r.lastUpdateTimestamp.getTime() < cutoff)
        .map((r) => r.transactionId),
    );
    for (const id of ['FX-STUCK-PROCESSING', 'FX-STUCK-ACCEPTED', 'FX-STUCK-CONNECTED']) expect(stuck.has(id)).toBe(true);
    for (const id of ['FX-FRESH-CONNECTED', 'FX-FRESH-PROCESSING', 'FX-OLD-CHARGING']) expect(stuck.has(id)).toBe(false);

    const res = await clean(tokens.admin, { minutesThreshold: 60 });
    expect(res.status).toBe(200);
    const { changed } = cleanChargingRequestsAnswerSchema.parse(res.body.data);
    expect(changed).toBe(stuck.size);
    const after = await snapshot();
    const finishedAt = Date.now();
    expect(after).toHaveLength(before.length);
    after.forEach((row, i) => {
      const old = before[i];
      expect(row.transactionId).toBe(old.transactionId);
      if (stuck.has(row.transactionId)) {
        expect(row.status).toBe('terminated_not_started');
        expect(row.endDate!.getTime()).toBeGreaterThanOrEqual(now);
        expect(row.endDate!.getTime()).toBeLessThanOrEqual(finishedAt);
        expect(row.lastUpdateTimestamp.getTime()).toBe(row.endDate!.getTime());
        expect({ ...row, status: old.status, endDate: old.endDate, lastUpdateTimestamp: old.lastUpdateTimestamp }).toEqual(old);
      } else {
        expect(row, row.transactionId).toEqual(old);
      }
    });

    // Running it again finds nothing left to close.
    const again = await clean(tokens.admin, { minutesThreshold: 60 });
    expect(again.body.data).toEqual({ changed: 0 });
  });

  it('accepts the threshold as a query parameter too, and a large threshold leaves fresh requests', async () => {
    const before = await snapshot();
    const res = await h.request('PUT', '/bff/charging-requests/clean?minutesThreshold=1', { token: tokens.admin });
    expect(res.status).toBe(200);
    // FX-FRESH-CONNECTED (50 min) and FX-FRESH-PROCESSING (5 min) are older than 1 minute.
    expect(res.body.data.changed).toBe(2);
    const after = await snapshot();
    const changedIds = after.filter((r, i) => r.status !== before[i].status).map((r) => r.transactionId);
    expect(changedIds.sort()).toEqual(['FX-FRESH-CONNECTED', 'FX-FRESH-PROCESSING']);
  });
});
