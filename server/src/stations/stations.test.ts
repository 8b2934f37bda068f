import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, paged } from '../../../contract/common';
import type { ConnectorStatus } from '../../../contract/enums';
import { operatorListRowSchema } from '../../../contract/operators';
import {
  connectorConflictDetailSchema,
  connectorWriteAnswerSchema,
  createStationsAnswerSchema,
  stationDetailSchema,
  stationListRowSchema,
} from '../../../contract/stations';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { connectors } from '../db/schema/stations';
import { createHarness, type Harness } from '../test/harness';

type Account = 'admin' | 'operator' | 'partner';
type Connector = typeof connectors.$inferSelect;
let h: Harness;
let tokens: Record<Account, string>;
let own: Record<'operator' | 'partner', Set<string>>;

const reload = async (id: string) => (await h.db.select().from(connectors).where(eq(connectors.connectorId, id)))[0];
const allConnectors = () => h.db.select().from(connectors);

/** Connectors of the account (not removed) matching `pred`, excluding those already used by a test. */
const used = new Set<string>();
async function pick(acc: 'operator' | 'partner' | 'any', pred: (c: Connector) => boolean, n = 1): Promise<Connector[]> {
  const rows = (await allConnectors())
    .filter((c) => !c.removed && !used.has(c.connectorId) && (acc === 'any' || own[acc].has(c.cpoId)) && pred(c))
    .sort((a, b) => a.connectorId.localeCompare(b.connectorId));
  if (rows.length < n) throw new Error(`fixture: not enough connectors for ${acc}`);
  rows.slice(0, n).forEach((r) => used.add(r.connectorId));
  return rows.slice(0, n);
}
const is = (status: ConnectorStatus, lot?: boolean) => (c: Connector) =>
  c.status === status && (lot === undefined || !!c.parkingLot === lot);
const foreign = (c: Connector) => !own.operator.has(c.cpoId) && !own.partner.has(c.cpoId);

const putLots = (token: string, body: unknown, headers: Record<string, string> = {}) =>
  h.request('PUT', '/bff/connectors/update-parking-lots', { token, body, headers });
const lotItem = (c: Connector, parkingLotNumber: string, version?: number) => ({
  connectorId: c.connectorId,
  cpId: c.cpId,
  locationId: c.locationId,
  parkingLotNumber,
  ...(version !== undefined ? { version } : {}),
});
const putAvailability = (token: string, items: unknown[], headers: Record<string, string> = {}) =>
  h.request('PUT', '/bff/ocpp-client/change-availability', { token, body: { changeAvailabilityRequest: items }, headers });

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
  own = { operator: await ops(tokens.operator), partner: await ops(tokens.partner) };
  // The small seed gives the operator account only a handful of connectors: add enough of each kind.
  const all = await allConnectors();
  const fixtures: (typeof connectors.$inferInsert)[] = [];
  for (const acc of ['operator', 'partner'] as const) {
    const home = all.find((c) => own[acc].has(c.cpoId) && c.locationId)!;
    // The inactive one elsewhere, so a request can mix it with a good connector of another location.
    const away = all.find((c) => c.cpoId === home.cpoId && c.locationId && c.locationId !== home.locationId) ?? home;
    const kinds: [ConnectorStatus, boolean][] = [
      ...Array.from({ length: 16 }, () => ['IDLE', true] as [ConnectorStatus, boolean]),
      ['CONNECTED_UNAVAILABLE', true],
      ['CONNECTED_UNAVAILABLE', true],
      ['OCCUPIED_CHARGING', true],
      ['OCCUPIED_UNCHARGED', true],
      ['INACTIVE', false],
    ];
    kinds.forEach(([status, lot], i) => {
      const cpId = `TST${acc === 'operator' ? 'O' : 'P'}${String(i).padStart(3, '0')}`;
      fixtures.push({
        connectorId: `${cpId}_1`,
        cpId,
        connectorNumber: 1,
        cpoId: home.cpoId,
        locationId: status === 'INACTIVE' ? away.locationId : home.locationId,
        parkingLot: lot ? `T${i}` : null,
        wallboxModel: 'ABL eMH1',
        status,
      });
    });
  }
  await h.db.insert(connectors).values(fixtures);
});
afterAll(() => h?.close());

describe('GET /bff/connectors/get-by-cpo', () => {
  it('lists the caller’s connectors without removed ones, with status mapping', async () => {
    const res = await h.request('GET', '/bff/connectors/get-by-cpo?page=0&size=10000', { token: tokens.partner });
    expect(res.status).toBe(200);
    const data = envelope(paged(stationListRowSchema)).parse(res.body).data;
    const expected = (await allConnectors()).filter((c) => !c.removed && own.partner.has(c.cpoId));
    expect(data.totalNumberOfRecords).toBe(expected.length);
    expect(new Set(data.response.map((r) => r.connectorId))).toEqual(new Set(expected.map((c) => c.connectorId)));
    for (const r of data.response) {
      const needsLot = r.connectorStatus === 'CONNECTED_UNAVAILABLE' && !r.address.parkingLot;
      expect(r.connectorStatusMapping.enumName).toBe(needsLot ? 'CONNECTED_NEEDS_PARKING_LOT' : r.connectorStatus);
      expect(r.connectorStatusMapping.colourCode).toMatch(/^#[0-9A-F]{6}$/);
    }
    const admin = await h.request('GET', '/bff/connectors/get-by-cpo?size=1', { token: tokens.admin });
    expect(admin.body.data.totalNumberOfRecords).toBe((await allConnectors()).filter((c) => !c.removed).length);
  });

  it('filters by cpId, parking lot, locations, models and location', async () => {
    const mine = (await allConnectors()).filter((c) => !c.removed && own.operator.has(c.cpoId));
    const sample = mine.find((c) => c.parkingLot)!;
    const q = async (qs: string) => {
      const res = await h.request('GET', `/bff/connectors/get-by-cpo?size=10000&${qs}`, { token: tokens.operator });
      expect(res.status).toBe(200);
      return res.body.data.response as { connectorId: string }[];
    };
    const byCp = await q(`cpId=${sample.cpId.toLowerCase()}`);
    expect(byCp.map((r) => r.connectorId)).toEqual(
      expect.arrayContaining(mine.filter((c) => c.cpId === sample.cpId).map((c) => c.connectorId)),
    );
    const byLoc = await q(`locationIds=${sample.locationId}`);
    expect(byLoc).toHaveLength(mine.filter((c) => c.locationId === sample.locationId).length);
    const byOneLoc = await q(`locationId=${sample.locationId}`);
    expect(byOneLoc).toHaveLength(byLoc.length);
    const byModel = await q(`wallboxModels=${encodeURIComponent(sample.wallboxModel)}`);
    expect(byModel).toHaveLength(mine.filter((c) => c.wallboxModel === sample.wallboxModel).length);
    const byLot = await q(`addressParkingLot=${encodeURIComponent(sample.parkingLot!)}&locationId=${sample.locationId}`);
    expect(byLot.map((r) => r.connectorId)).toContain(sample.connectorId);
    expect((await h.request('GET', '/bff/connectors/get-by-cpo?size=0', { token: tokens.operator })).status).toBe(400);
  });

  it('answers 404 LOCATION_NOT_FOUND for a foreign or unknown location filter, for admins too (never an empty list)', async () => {
    const mine = (await allConnectors()).find((c) => !c.removed && own.operator.has(c.cpoId) && c.locationId)!;
    const foreignLoc = (await allConnectors()).find(foreign)!.locationId!;
    const cases: [Account, string, string[]][] = [
      ['operator', `locationId=${foreignLoc}`, [foreignLoc]],
      ['operator', `locationIds=${foreignLoc}`, [foreignLoc]],
      ['operator', `locationIds=${mine.locationId},${foreignLoc},NOPE`, [foreignLoc, 'NOPE']],
      ['admin', 'locationId=NOPE', ['NOPE']],
      ['admin', `locationIds=${foreignLoc},NOPE`, ['NOPE']],
    ];
    for (const [who, qs, missing] of cases) {
      const res = await h.request('GET', `/bff/connectors/get-by-cpo?${qs}`, { token: tokens[who] });
      expect(res.status, `${who} ${qs}`).toBe(404);
      expect(res.body).toMatchObject({ errorCodeResponse: 'LOCATION_NOT_FOUND', errorDetail: { locationIds: missing } });
      expect(res.body.data).toBeUndefined();
    }
  });
});

describe('GET /bff/connectors/:id', () => {
  it('answers the station with finished totals and an ETag', async () => {
    const reqs = await h.db.select().from(chargingRequests);
    const [c] = await pick('operator', (x) => reqs.some((r) => r.connectorId === x.connectorId && r.status === 'finished'));
    const res = await h.request('GET', `/bff/connectors/${c.connectorId}`, { token: tokens.operator });
    expect(res.status).toBe(200);
    const d = envelope(stationDetailSchema).parse(res.body).data;
    expect(res.headers.get('etag')).toBe(`"v${c.version}"`);
    const finished = reqs.filter((r) => r.connectorId === c.connectorId && r.status === 'finished');
    expect(d.totalEnergy).toBeCloseTo(
      finished.reduce((s, r) => s + Number(r.energyKwh), 0),
      2,
    );
    expect(d.totalRevenue).toBeCloseTo(
      finished.reduce((s, r) => s + Number(r.cost), 0),
      2,
    );
    expect(d.totalEnergy).toBeGreaterThan(0);
  });

  it('answers 404 for foreign, removed and unknown connectors', async () => {
    const all = await allConnectors();
    const f = all.find(foreign)!;
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await h.request('GET', `/bff/connectors/${f.connectorId}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('CONNECTOR_NOT_FOUND');
    }
    const removed = all.find((c) => c.removed)!;
    expect((await h.request('GET', `/bff/connectors/${removed.connectorId}`, { token: tokens.admin })).status).toBe(404);
    expect((await h.request('GET', '/bff/connectors/NOPE_1', { token: tokens.admin })).status).toBe(404);
  });
});

describe('POST /bff/connectors/create-cp', () => {
  it('creates stations with INACTIVE connectors per model', async () => {
    const [c] = await pick('partner', () => true);
    const res = await h.request('POST', '/bff/connectors/create-cp', {
      token: tokens.partner,
      body: { locationName: 'x', locationId: c.locationId, numOfChargingStations: 3, chargingStationModel: 'Webasto Unite' },
    });
    expect(res.status).toBe(200);
    const d = envelope(createStationsAnswerSchema).parse(res.body).data;
    expect(d.id).toBe(c.locationId);
    expect(d.cpIds).toHaveLength(3);
    expect(new Set(d.cpIds).size).toBe(3);
    const rows = await h.db.select().from(connectors).where(inArray(connectors.cpId, d.cpIds));
    expect(rows).toHaveLength(6);
    expect(
      rows.every((r) => r.status === 'INACTIVE' && r.parkingLot === null && r.cpoId === c.cpoId && r.locationId === c.locationId),
    ).toBe(true);
  });

  it('refuses bad input and foreign locations', async () => {
    const [c] = await pick('operator', () => true);
    const base = { locationId: c.locationId, numOfChargingStations: 1, chargingStationModel: 'ABL eMH1' };
    for (const bad of [
      { ...base, numOfChargingStations: 0 },
      { ...base, numOfChargingStations: 101 },
      { ...base, numOfChargingStations: 'many' },
      { ...base, chargingStationModel: '' },
      { ...base, chargingStationModel: 'Unknown Box' },
      { ...base, locationId: '' },
    ]) {
      const res = await h.request('POST', '/bff/connectors/create-cp', { token: tokens.operator, body: bad });
      expect(res.status).toBe(400);
    }
    const f = (await allConnectors()).find(foreign)!;
    const before = (await allConnectors()).length;
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await h.request('POST', '/bff/connectors/create-cp', { token, body: { ...base, locationId: f.locationId } });
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('LOCATION_NOT_FOUND');
    }
    expect((await allConnectors()).length).toBe(before);
  });
});

describe('PUT /bff/connectors/update-parking-lots', () => {
  it('sets lots, bumps versions and answers the new state', async () => {
    const [a, b] = await pick('operator', (c) => c.status === 'IDLE', 2);
    const res = await putLots(tokens.operator, [lotItem(a, 'Z1', a.version), lotItem(b, 'Z2')]);
    expect(res.status).toBe(200);
    const out = envelope(connectorWriteAnswerSchema).parse(res.body).data;
    expect(out.map((o) => [o.connectorId, o.parkingLot, o.version])).toEqual([
      [a.connectorId, 'Z1', a.version + 1],
      [b.connectorId, 'Z2', b.version + 1],
    ]);
    expect((await reload(a.connectorId)).parkingLot).toBe('Z1');
  });

  it('swaps two lots at the same location in one request', async () => {
    const all = await allConnectors();
    const loc = all.find(
      (c) =>
        own.operator.has(c.cpoId) &&
        all.filter(
          (x) => x.locationId === c.locationId && !x.removed && x.parkingLot && x.status !== 'INACTIVE' && !used.has(x.connectorId),
        ).length >= 2,
    )!.locationId;
    const [a, b] = await pick('operator', (c) => c.locationId === loc && !!c.parkingLot && c.status !== 'INACTIVE', 2);
    const res = await putLots(tokens.operator, [lotItem(a, b.parkingLot!), lotItem(b, a.parkingLot!)]);
    expect(res.status).toBe(200);
    expect((await reload(a.connectorId)).parkingLot).toBe(b.parkingLot);
    expect((await reload(b.connectorId)).parkingLot).toBe(a.parkingLot);
  });

  it('a renamed lot is renamed in the contracts of its location, in the same write (also a swap)', async () => {
    const all = await allConnectors();
    const loc = all.find(
      (c) =>
        own.operator.has(c.cpoId) &&
        all.filter((x) => x.locationId === c.locationId && !x.removed && x.parkingLot && x.status === 'IDLE' && !used.has(x.connectorId))
          .length >= 2,
    )!.locationId;
    const [a, b] = await pick('operator', (c) => c.locationId === loc && !!c.parkingLot && c.status === 'IDLE', 2);
    const [contract] = await h.db.select().from(contracts).where(eq(contracts.cpoId, a.cpoId)).limit(1);
    const setLots = (lots: string[]) =>
      h.db.update(contracts).set({ locationId: loc, parkingLotNumbers: lots }).where(eq(contracts.contractKey, contract.contractKey));
    const lotsNow = async () => (await h.db.select().from(contracts).where(eq(contracts.contractKey, contract.contractKey)))[0];
    await setLots([a.parkingLot!, 'GONE']);
    const before = await lotsNow();

    expect((await putLots(tokens.operator, [lotItem(a, 'RN1')])).status).toBe(200);
    const renamed = await lotsNow();
    expect(renamed.parkingLotNumbers).toEqual(['RN1', 'GONE']);
    expect(renamed.version).toBe(before.version + 1);

    // A swap follows both connectors at once: the contract keeps the connector it had.
    await setLots(['RN1']);
    expect((await putLots(tokens.operator, [lotItem(await reload(a.connectorId), b.parkingLot!), lotItem(b, 'RN1')])).status).toBe(200);
    expect((await lotsNow()).parkingLotNumbers).toEqual([b.parkingLot]);
  });

  it('refuses empty, too long and unchanged lots (fildnchange)', async () => {
    const [c] = await pick('operator', is('IDLE', true));
    for (const lot of ['', '   ', '123456']) {
      const res = await putLots(tokens.operator, [lotItem(c, lot)]);
      expect(res.status).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    }
    const same = await putLots(tokens.operator, [lotItem(c, c.parkingLot!)]);
    expect(same.status).toBe(400);
    expect(same.body.errorMessage).toBe('fildnchange');
    expect((await putLots(tokens.operator, [])).status).toBe(400);
    expect((await putLots(tokens.operator, { connectorId: c.connectorId })).status).toBe(400);
    expect((await putLots(tokens.operator, [lotItem(c, 'Q1'), lotItem(c, 'Q2')])).status).toBe(400);
    expect(await reload(c.connectorId)).toEqual(c);
  });

  it('refuses INACTIVE connectors even inside an otherwise good request, changing nothing', async () => {
    const [inactive] = await pick('operator', (c) => c.status === 'INACTIVE' && c.cpId.startsWith('TST'));
    const [good] = await pick('operator', (c) => c.status === 'IDLE' && c.locationId !== inactive.locationId);
    const res = await putLots(tokens.operator, [lotItem(good, 'N1'), lotItem(inactive, 'N2')]);
    expect(res.status).toBe(409);
    expect(res.body.errorCodeResponse).toBe('CONNECTOR_INACTIVE');
    expect(res.body.errorDetail.cpIds).toEqual([inactive.cpId]);
    expect(await reload(good.connectorId)).toEqual(good);
    expect(await reload(inactive.connectorId)).toEqual(inactive);
  });

  it('refuses a lot already used at the location, or twice in the request, with DATA_INCONSISTENCY', async () => {
    const all = await allConnectors();
    const [c] = await pick(
      'operator',
      (x) =>
        x.status === 'IDLE' &&
        all.some((o) => o.locationId === x.locationId && o.connectorId !== x.connectorId && !o.removed && o.parkingLot),
    );
    const taken = all.find((o) => o.locationId === c.locationId && o.connectorId !== c.connectorId && !o.removed && o.parkingLot)!;
    const res = await putLots(tokens.operator, [lotItem(c, taken.parkingLot!)]);
    expect(res.status).toBe(409);
    expect(res.body.errorCodeResponse).toBe('DATA_INCONSISTENCY');
    expect(res.body.errorMessage).toContain(taken.parkingLot);
    expect(await reload(c.connectorId)).toEqual(c);

    const [d] = await pick('operator', (x) => x.locationId === c.locationId && x.status !== 'INACTIVE');
    const twice = await putLots(tokens.operator, [lotItem(c, 'DUP9'), lotItem(d, 'DUP9')]);
    expect(twice.status).toBe(409);
    expect(twice.body.errorCodeResponse).toBe('DATA_INCONSISTENCY');
    expect(twice.body.errorMessage).toContain('DUP9');
    expect(await reload(d.connectorId)).toEqual(d);
  });

  it('refuses a mismatching cpId or locationId', async () => {
    const [c] = await pick('operator', is('IDLE'));
    const res = await putLots(tokens.operator, [{ ...lotItem(c, 'M1'), cpId: 'OLI999999' }]);
    expect(res.status).toBe(400);
    expect(await reload(c.connectorId)).toEqual(c);
  });

  it('answers a stale version (body or If-Match) with CONFLICT and what changed, changing nothing', async () => {
    const [c] = await pick('operator', is('IDLE'));
    const first = await putLots(tokens.operator, [lotItem(c, 'S1', c.version)]);
    expect(first.status).toBe(200);
    const stale = await putLots(tokens.operator, [lotItem(c, 'S2', c.version)]);
    expect(stale.status).toBe(409);
    expect(stale.body.errorCodeResponse).toBe('CONFLICT');
    const detail = connectorConflictDetailSchema.parse(stale.body.errorDetail);
    expect(detail).toMatchObject({
      connectorId: c.connectorId,
      currentVersion: c.version + 1,
      current: { parkingLot: 'S1', connectorStatus: 'IDLE' },
    });
    const viaHeader = await putLots(tokens.operator, [lotItem(c, 'S3')], { 'if-match': `"v${c.version}"` });
    expect(viaHeader.status).toBe(409);
    expect((await reload(c.connectorId)).parkingLot).toBe('S1');
    const fresh = await putLots(tokens.operator, [lotItem(c, 'S4')], { 'if-match': `"v${c.version + 1}"` });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('etag')).toBe(`"v${c.version + 2}"`);
  });

  it('deduplicates through Idempotency-Key: a repeat gets the stored answer, another payload 422', async () => {
    const [c] = await pick('operator', is('IDLE'));
    const key = { 'idempotency-key': 'lots-1' };
    const first = await putLots(tokens.operator, [lotItem(c, 'K1', c.version)], key);
    expect(first.status).toBe(200);
    const again = await putLots(tokens.operator, [lotItem(c, 'K1', c.version)], key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await reload(c.connectorId)).version).toBe(c.version + 1);
    const other = await putLots(tokens.operator, [lotItem(c, 'K2', c.version + 1)], key);
    expect(other.status).toBe(422);
    expect(other.body.errorCodeResponse).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await reload(c.connectorId)).parkingLot).toBe('K1');
  });

  it('answers 404 for foreign connectors (operator and partner) and writes nothing', async () => {
    const [f] = await pick('any', (c) => foreign(c) && c.status === 'IDLE');
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await putLots(token, [lotItem(f, 'F1')]);
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('CONNECTOR_NOT_FOUND');
    }
    expect(await reload(f.connectorId)).toEqual(f);
  });
});

describe('PUT /bff/ocpp-client/change-availability', () => {
  it('switches IDLE and Standby connectors and bumps versions', async () => {
    const [idle] = await pick('partner', is('IDLE', true));
    const [standby] = await pick('partner', is('CONNECTED_UNAVAILABLE', true));
    const res = await putAvailability(tokens.partner, [
      { connectorId: idle.connectorId, connectorStatus: 'CONNECTED_UNAVAILABLE', version: idle.version },
      { connectorId: standby.connectorId, connectorStatus: 'IDLE' },
    ]);
    expect(res.status).toBe(200);
    expect(await reload(idle.connectorId)).toMatchObject({ status: 'CONNECTED_UNAVAILABLE', version: idle.version + 1 });
    expect(await reload(standby.connectorId)).toMatchObject({ status: 'IDLE', version: standby.version + 1 });
  });

  it('bumps the version also when the connector already has the target status, so a lot queued after it is no conflict', async () => {
    const [idle] = await pick('operator', is('IDLE', true));
    const same = await putAvailability(tokens.operator, [
      { connectorId: idle.connectorId, connectorStatus: 'IDLE', version: idle.version },
    ]);
    expect(same.status).toBe(200);
    expect(await reload(idle.connectorId)).toMatchObject({ status: 'IDLE', version: idle.version + 1 });
    // The offline client expected exactly that version for its next write (one per queued write).
    const lot = await putLots(tokens.operator, [lotItem(idle, 'Q9', idle.version + 1)]);
    expect(lot.status).toBe(200);
    expect(await reload(idle.connectorId)).toMatchObject({ parkingLot: 'Q9', version: idle.version + 2 });
  });

  it('refuses targets other than IDLE / CONNECTED_UNAVAILABLE', async () => {
    const [c] = await pick('operator', is('IDLE'));
    for (const target of ['OFFLINE', 'INACTIVE', 'OCCUPIED_CHARGING', 'idle']) {
      const res = await putAvailability(tokens.operator, [{ connectorId: c.connectorId, connectorStatus: target }]);
      expect(res.status).toBe(400);
    }
    expect(await reload(c.connectorId)).toEqual(c);
  });

  it('refuses connectors in operation, listing their cpIds, and changes nothing else', async () => {
    const [good] = await pick('operator', is('IDLE'));
    const [busy] = await pick('operator', (c) => c.status === 'OCCUPIED_CHARGING' || c.status === 'OCCUPIED_UNCHARGED');
    const res = await putAvailability(tokens.operator, [
      { connectorId: good.connectorId, connectorStatus: 'CONNECTED_UNAVAILABLE' },
      { connectorId: busy.connectorId, connectorStatus: 'IDLE' },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.errorCodeResponse).toBe('CONNECTOR_IN_OPERATION');
    expect(res.body.errorDetail.cpIds).toEqual([busy.cpId]);
    expect(await reload(good.connectorId)).toEqual(good);
    expect(await reload(busy.connectorId)).toEqual(busy);
  });

  it.each([
    ['OFFLINE', is('OFFLINE')],
    ['INACTIVE', is('INACTIVE')],
    ['Standby without parking lot', is('CONNECTED_UNAVAILABLE', false)],
  ])('refuses %s connectors: they must be Standby or Active', async (_n, pred) => {
    const [c] = await pick('any', (x) => !foreign(x) && pred(x));
    const res = await putAvailability(tokens.admin, [{ connectorId: c.connectorId, connectorStatus: 'IDLE' }]);
    expect(res.status).toBe(409);
    expect(res.body.errorCodeResponse).toBe('CONNECTOR_STATUS_NOT_CHANGEABLE');
    expect(await reload(c.connectorId)).toEqual(c);
  });

  it('takes If-Match only for a single connector', async () => {
    const [a, b] = await pick('operator', is('IDLE', true), 2);
    const items = [a, b].map((c) => ({ connectorId: c.connectorId, connectorStatus: 'CONNECTED_UNAVAILABLE' }));
    expect((await putAvailability(tokens.operator, items, { 'if-match': `"v${a.version}"` })).status).toBe(400);
    const stale = await putAvailability(tokens.operator, items.slice(0, 1), { 'if-match': `"v${a.version + 5}"` });
    expect(stale.status).toBe(409);
    expect(stale.body.errorCodeResponse).toBe('CONFLICT');
    expect(await reload(a.connectorId)).toEqual(a);
    expect(await reload(b.connectorId)).toEqual(b);
  });

  it('answers a stale version with CONFLICT and changes nothing', async () => {
    const [c] = await pick('operator', is('IDLE', true));
    await h.db
      .update(connectors)
      .set({ version: c.version + 1, parkingLot: 'X9' })
      .where(eq(connectors.connectorId, c.connectorId));
    const res = await putAvailability(tokens.operator, [
      { connectorId: c.connectorId, connectorStatus: 'CONNECTED_UNAVAILABLE', version: c.version },
    ]);
    expect(res.status).toBe(409);
    expect(res.body.errorCodeResponse).toBe('CONFLICT');
    expect(res.body.errorDetail).toMatchObject({
      connectorId: c.connectorId,
      currentVersion: c.version + 1,
      current: { parkingLot: 'X9', connectorStatus: 'IDLE' },
    });
    expect((await reload(c.connectorId)).status).toBe('IDLE');
  });

  it('answers 404 for foreign connectors', async () => {
    const [f] = await pick('any', (c) => foreign(c) && c.status === 'IDLE');
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await putAvailability(token, [{ connectorId: f.connectorId, connectorStatus: 'CONNECTED_UNAVAILABLE' }]);
      expect(res.status).toBe(404);
    }
    const [after] = await h.db
      .select()
      .from(connectors)
      .where(and(eq(connectors.connectorId, f.connectorId)));
    expect(after).toEqual(f);
  });
});

describe('charging history of a connector', () => {
  it('is served by the booking service, scoped', async () => {
    const [c] = await pick('operator', () => true);
    const ok = await h.request('GET', `/booking-service/bookings/get-charging-history?connectorId=${c.connectorId}&size=5`, {
      token: tokens.operator,
    });
    expect(ok.status).toBe(200);
    const [f] = await pick('any', foreign);
    const no = await h.request('GET', `/booking-service/bookings/get-charging-history?connectorId=${f.connectorId}`, {
      token: tokens.operator,
    });
    expect(no.status).toBe(404);
  });
});
