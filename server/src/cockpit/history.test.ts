import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargingHistoryAnswerSchema, historyCursor, type ChargingRequestRow } from '../../../contract/cockpit';
import { envelope, paged } from '../../../contract/common';
import { operatorListRowSchema } from '../../../contract/operators';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { connectors } from '../db/schema/stations';
import { createHarness, type Harness } from '../test/harness';

type Account = 'admin' | 'operator' | 'partner';
type Req = typeof chargingRequests.$inferSelect;
let h: Harness;
let tokens: Record<Account, string>;
let scopes: Record<Account, Set<string> | 'all'>;
let requests: Req[];

const berlinDayOf = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(d);
const inScope = (who: Account, cpoId: string) => scopes[who] === 'all' || (scopes[who] as Set<string>).has(cpoId);
/** Newest first, then transaction id descending: the order the server promises. */
const newestFirst = (a: Req, b: Req) =>
  b.startDate.getTime() - a.startDate.getTime() || (a.transactionId < b.transactionId ? 1 : a.transactionId > b.transactionId ? -1 : 0);

beforeAll(async () => {
  h = await createHarness();
  tokens = {
    admin: (await h.login('admin')).access_token,
    operator: (await h.login('operator')).access_token,
    partner: (await h.login('partner')).access_token,
  };
  const ops = async (token: string) => {
    const res = await h.request('GET', '/bff/cpos?page=0&size=10000', { token });
    return new Set(
      envelope(paged(operatorListRowSchema))
        .parse(res.body)
        .data.response.map((r) => r.cpoId),
    );
  };
  scopes = { admin: 'all', operator: await ops(tokens.operator), partner: await ops(tokens.partner) };
  requests = await h.db.select().from(chargingRequests);
});
afterAll(() => h?.close());

async function history(who: Account, params: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
  return h.request('GET', `/booking-service/bookings/get-charging-history?${qs}`, { token: tokens[who] });
}
async function historyOk(who: Account, params: Record<string, string | number>) {
  const res = await history(who, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return chargingHistoryAnswerSchema.parse(res.body.data);
}
const ids = (rows: { transactionId: string }[]) => rows.map((r) => r.transactionId);

describe('GET /booking-service/bookings/get-charging-history', () => {
  it('pages newest first with a total, for the first and a deep page', async () => {
    const all = [...requests].sort(newestFirst);
    const first = await historyOk('admin', { page: 0, size: 10 });
    expect(first.totalNumberOfRecords).toBe(requests.length);
    expect(ids(first.response)).toEqual(ids(all.slice(0, 10)));
    const deep = await historyOk('admin', { page: 37, size: 25 });
    expect(deep.totalNumberOfRecords).toBe(requests.length);
    expect(ids(deep.response)).toEqual(ids(all.slice(37 * 25, 38 * 25)));
    const past = await historyOk('admin', { page: 10_000, size: 25 });
    expect(past.response).toEqual([]);
    expect(past.totalNumberOfRecords).toBe(requests.length);
  });

  it('reads on from the last row of the page before (keyset paging): the same rows as the offset, also with filters and scope', async () => {
    const cases: [Account, Record<string, string | number>][] = [
      ['admin', {}],
      ['operator', { filters: 'Completed' }],
      ['partner', { startDate: berlinDayOf(requests[0].startDate), endDate: berlinDayOf(new Date()) }],
    ];
    for (const [who, filters] of cases) {
      let before: ChargingRequestRow[] | undefined;
      for (let page = 0; page < 4; page++) {
        const byOffset = await historyOk(who, { ...filters, page, size: 7 });
        if (before) {
          const last = before[before.length - 1];
          const byKey = await historyOk(who, { ...filters, page, size: 7, after: historyCursor(last) });
          expect(ids(byKey.response), `${who} page ${page}`).toEqual(ids(byOffset.response));
          expect(byKey.totalNumberOfRecords).toBe(byOffset.totalNumberOfRecords);
        }
        before = byOffset.response;
      }
    }
    // Rows in the same instant are ordered by transaction id: the cursor's id splits them.
    const all = [...requests].sort(newestFirst);
    const tie = all.findIndex((r, i) => i > 0 && r.startDate.getTime() === all[i - 1].startDate.getTime());
    if (tie > 0) {
      const after = historyCursor({ startDate: all[tie - 1].startDate.toISOString(), transactionId: all[tie - 1].transactionId });
      const next = await historyOk('admin', { page: 1, size: 3, after });
      expect(ids(next.response)).toEqual(ids(all.slice(tie, tie + 3)));
    }
    // A deep page from its cursor walks no offset: the rows follow the cursor whatever page it names.
    const k = Math.floor((all.length - 20) / 10) * 10;
    const deep = await historyOk('admin', {
      page: 1,
      size: 10,
      after: historyCursor({ startDate: all[k - 1].startDate.toISOString(), transactionId: all[k - 1].transactionId }),
    });
    expect(k).toBeGreaterThan(100);
    expect(ids(deep.response)).toEqual(ids(all.slice(k, k + 10)));
  });

  it('answers the spec row with address, numbers, ISO dates and the status mapping', async () => {
    const { response } = await historyOk('admin', { page: 0, size: 25, filters: 'Completed' });
    const row = response[0];
    const src = requests.find((r) => r.transactionId === row.transactionId)!;
    expect(row).toMatchObject<Partial<ChargingRequestRow>>({
      endCustomerId: src.endCustomerId,
      customerFullName: src.customerFullName,
      parkingLot: src.parkingLot,
      authType: src.authType,
      rfidTag: src.rfidTag,
      rfidSerialId: src.rfidSerialId,
      status: 'finished',
      startDate: src.startDate.toISOString(),
      endDate: src.endDate!.toISOString(),
      lastUpdateTimestamp: src.lastUpdateTimestamp.toISOString(),
      energyCharged: Number(src.energyKwh),
      sessionCost: Number(src.cost),
      chargingRequestStatusMapping: { enumName: 'Finished', colourCode: '#2E7D32' },
    });
    expect(row.locationAddress.street).toBeTruthy();
    expect(row.locationAddress.zipCode).toMatch(/^\d+$/);
  });

  it('filters by status groups (comma list)', async () => {
    const groups: Record<string, string[]> = {
      Pending: ['processing', 'accepted', 'connected'],
      InProgress: ['charging', 'paused', 'termination_requested', 'terminated_request'],
      Completed: ['finished'],
      Failed: ['denied', 'denied_parking_timer', 'terminated_not_started', 'terminated_rejected', 'broken'],
    };
    for (const filters of ['Pending', 'InProgress', 'Completed', 'Failed', 'Pending,Failed', 'InProgress,Completed']) {
      const wanted = new Set(filters.split(',').flatMap((f) => groups[f]));
      const expected = requests.filter((r) => wanted.has(r.status)).sort(newestFirst);
      expect(expected.length).toBeGreaterThan(0);
      const res = await historyOk('admin', { filters, page: 0, size: 25 });
      expect(res.totalNumberOfRecords, filters).toBe(expected.length);
      expect(ids(res.response)).toEqual(ids(expected.slice(0, 25)));
    }
    // Every status belongs to exactly one filter: all four together give everything.
    expect((await historyOk('admin', { filters: 'Pending,InProgress,Completed,Failed' })).totalNumberOfRecords).toBe(requests.length);
  });

  it('matches endCustomerId and transactionId exactly', async () => {
    const someone = requests.find((r) => r.endCustomerId && r.status === 'finished')!;
    const theirs = requests.filter((r) => r.endCustomerId === someone.endCustomerId).sort(newestFirst);
    const byCustomer = await historyOk('admin', { endCustomerId: someone.endCustomerId!, size: 1000 });
    expect(ids(byCustomer.response)).toEqual(ids(theirs));
    const prefix = someone.endCustomerId!.slice(0, 7);
    expect((await historyOk('admin', { endCustomerId: prefix })).totalNumberOfRecords).toBe(0);

    const byTx = await historyOk('admin', { transactionId: someone.transactionId });
    expect(ids(byTx.response)).toEqual([someone.transactionId]);
    expect((await historyOk('admin', { transactionId: someone.transactionId.slice(0, -1) })).totalNumberOfRecords).toBe(0);
  });

  it('filters on the start date by whole Berlin days, inclusive', async () => {
    const startDate = '2026-02-10';
    const endDate = '2026-02-14';
    const expected = requests.filter((r) => berlinDayOf(r.startDate) >= startDate && berlinDayOf(r.startDate) <= endDate).sort(newestFirst);
    expect(expected.length).toBeGreaterThan(10);
    const res = await historyOk('admin', { startDate, endDate, size: 1000 });
    expect(ids(res.response)).toEqual(ids(expected));
    const single = await historyOk('admin', { startDate, endDate: startDate, size: 1000 });
    expect(ids(single.response)).toEqual(ids(expected.filter((r) => berlinDayOf(r.startDate) === startDate)));
    // Open ends are allowed.
    const from = await historyOk('admin', { startDate: '2026-03-01' });
    expect(from.totalNumberOfRecords).toBe(requests.filter((r) => berlinDayOf(r.startDate) >= '2026-03-01').length);
  });

  it('filters by contractKey (user page) and connectorId (station page)', async () => {
    const r = requests.find((x) => x.contractKey)!;
    const byContract = await historyOk('admin', { contractKey: r.contractKey!, size: 1000 });
    expect(ids(byContract.response)).toEqual(ids(requests.filter((x) => x.contractKey === r.contractKey).sort(newestFirst)));
    const byConnector = await historyOk('admin', { connectorId: r.connectorId, size: 1000, chargingRequestHistory: 'true' });
    expect(ids(byConnector.response)).toEqual(ids(requests.filter((x) => x.connectorId === r.connectorId).sort(newestFirst)));
  });

  it("scopes rows to the caller's operators; foreign contract/connector ids answer 404", async () => {
    for (const who of ['operator', 'partner'] as const) {
      const expected = requests.filter((r) => inScope(who, r.cpoId)).sort(newestFirst);
      const res = await historyOk(who, { page: 0, size: 25 });
      expect(res.totalNumberOfRecords).toBe(expected.length);
      expect(res.totalNumberOfRecords).toBeLessThan(requests.length);
      expect(ids(res.response)).toEqual(ids(expected.slice(0, 25)));
      expect(res.response.every((row) => inScope(who, row.cpoId))).toBe(true);
    }
    const foreign = requests.find((r) => !inScope('operator', r.cpoId) && r.endCustomerId && r.contractKey)!;
    expect((await historyOk('operator', { endCustomerId: foreign.endCustomerId! })).totalNumberOfRecords).toBe(0);
    expect((await historyOk('operator', { transactionId: foreign.transactionId })).totalNumberOfRecords).toBe(0);
    const c = await history('operator', { contractKey: foreign.contractKey! });
    expect(c.status).toBe(404);
    expect(c.body.errorCodeResponse).toBe('CONTRACT_NOT_FOUND');
    const k = await history('operator', { connectorId: foreign.connectorId });
    expect(k.status).toBe(404);
    expect(k.body.errorCodeResponse).toBe('CONNECTOR_NOT_FOUND');
    expect((await history('operator', { contractKey: 'NOPE' })).status).toBe(404);
    // Sanity: the ids exist and are visible to the admin.
    const [contract] = await h.db.select().from(contracts).limit(1);
    const [connector] = await h.db.select().from(connectors).limit(1);
    expect((await history('admin', { contractKey: contract.contractKey })).status).toBe(200);
    expect((await history('admin', { connectorId: connector.connectorId })).status).toBe(200);
  });

  it('refuses bad parameters with 400 and an error code, never 500', async () => {
    const bad: Record<string, string>[] = [
      { filters: 'Done' },
      { filters: 'Pending,nope' },
      { transactionId: 'X'.repeat(23) },
      { endCustomerId: 'abc-12345-678' },
      { endCustomerId: '123-45678-9012' },
      { startDate: '2026-02-31' },
      { startDate: '2026-03-10', endDate: '2026-03-01' },
      { page: '-1' },
      { page: 'x' },
      { size: '0' },
      { size: '1001' },
      { after: 'yesterday|TX1' },
      { after: '2026-03-01T10:00:00.000Z' },
      { after: `2026-03-01T10:00:00.000Z|${'X'.repeat(23)}` },
    ];
    for (const params of bad) {
      const res = await history('admin', params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    }
    expect((await h.request('GET', '/booking-service/bookings/get-charging-history')).status).toBe(401);
  });
});
