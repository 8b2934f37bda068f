import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, paged } from '../../../contract/common';
import {
  createLocationAnswerSchema,
  locationContractRowSchema,
  locationDropdownAnswerSchema,
  locationDetailSchema,
  locationListRowSchema,
  parkingInfoSchema,
  wallboxTypesAnswerSchema,
} from '../../../contract/locations';
import { operatorListRowSchema } from '../../../contract/operators';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { locationInfrastructure, locations } from '../db/schema/locations';
import { rfidTags } from '../db/schema/rfid';
import { connectors } from '../db/schema/stations';
import { createHarness, type Harness } from '../test/harness';

type Account = 'admin' | 'operator' | 'partner';
let h: Harness;
let tokens: Record<Account, string>;
let own: Record<'operator' | 'partner', Set<string>>;
let allLocations: (typeof locations.$inferSelect)[];

const locOf = (acc: 'operator' | 'partner') => allLocations.filter((l) => own[acc].has(l.cpoId));
/** A location neither the operator nor the partner account may see. */
const foreignLocation = () => allLocations.find((l) => !own.operator.has(l.cpoId) && !own.partner.has(l.cpoId))!;

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
  allLocations = await h.db.select().from(locations);
  expect(locOf('operator').length).toBeGreaterThan(0);
  expect(locOf('partner').length).toBeGreaterThan(0);
  expect(foreignLocation()).toBeDefined();
});
afterAll(() => h?.close());

const validCreate = (cpoId: string) => ({
  locationName: 'Tiefgarage Testweg',
  locationAddress: { street: 'Testweg 1', zipCode: '10115', city: 'Berlin-Mitte', careOf: '' },
  cpoId,
  cpoName: 'whatever',
  wallBoxesData: [
    { numOfChargingStations: 3, chargingStationModel: 'ABL eMH1' },
    { numOfChargingStations: 100, chargingStationModel: 'Webasto Unite' },
  ],
  isEmsConnected: true,
  emsModel: 'Smart1 EMS',
  emsId: 'EMS-1',
});

describe('GET /bff/locations/get-by-cpo', () => {
  it('lists only the caller’s locations with counts from the database', async () => {
    const res = await h.request('GET', '/bff/locations/get-by-cpo?page=0&size=100', { token: tokens.operator });
    expect(res.status).toBe(200);
    const data = envelope(paged(locationListRowSchema)).parse(res.body).data;
    const mine = locOf('operator');
    expect(data.totalNumberOfRecords).toBe(mine.length);
    expect(new Set(data.response.map((r) => r.locationId))).toEqual(new Set(mine.map((l) => l.locationId)));
    const allConnectors = await h.db.select().from(connectors);
    const allContracts = await h.db.select().from(contracts);
    for (const row of data.response) {
      const cons = allConnectors.filter((c) => c.locationId === row.locationId);
      // Stations are distinct cpIds, Ladepunkte their connectors (issue 23: a double station is 1 and 2).
      const stations = new Set(cons.map((c) => c.cpId));
      const live = new Set(cons.filter((c) => !c.removed).map((c) => c.cpId));
      expect(row.numOfChargingStations).toEqual({
        totalNrChargingStation: stations.size,
        removedNrChargingStation: stations.size - live.size,
        totalNrChargePoints: cons.length,
        removedNrChargePoints: cons.filter((c) => c.removed).length,
      });
      expect(row.numEndCustomers).toBe(allContracts.filter((c) => c.locationId === row.locationId).length);
      expect(row.locationIdName).toBe(`${row.locationId}: ${row.locationName}`);
    }
  });

  it('filters by name (contains, case-insensitive) and address, and pages', async () => {
    const target = locOf('partner')[0];
    const part = target.locationName.slice(2, 7).toUpperCase();
    const res = await h.request('GET', `/bff/locations/get-by-cpo?locationName=${encodeURIComponent(part)}`, {
      token: tokens.partner,
    });
    expect(res.status).toBe(200);
    const expected = locOf('partner').filter((l) => l.locationName.toLowerCase().includes(part.toLowerCase()));
    expect(res.body.data.totalNumberOfRecords).toBe(expected.length);
    expect(res.body.data.response.map((r: { locationId: string }) => r.locationId)).toContain(target.locationId);

    const byZip = await h.request('GET', `/bff/locations/get-by-cpo?address=${target.zipCode}`, { token: tokens.partner });
    const hay = (r: { locationAddress: { street: string; zipCode: string; city: string; careOf?: string | null } }) =>
      [r.locationAddress.street, r.locationAddress.zipCode, r.locationAddress.city, r.locationAddress.careOf ?? ''].join('|');
    expect(byZip.body.data.response.length).toBeGreaterThan(0);
    for (const r of byZip.body.data.response) expect(hay(r)).toContain(target.zipCode);
    expect(byZip.body.data.response.map((r: { locationId: string }) => r.locationId)).toContain(target.locationId);

    const none = await h.request('GET', '/bff/locations/get-by-cpo?locationName=%25zzqq', { token: tokens.admin });
    expect(none.body.data).toEqual({ totalNumberOfRecords: 0, response: [] });

    const page = await h.request('GET', '/bff/locations/get-by-cpo?page=1&size=2', { token: tokens.admin });
    expect(page.body.data.totalNumberOfRecords).toBe(allLocations.length);
    expect(page.body.data.response).toHaveLength(Math.min(2, allLocations.length - 2));
  });

  it('refuses a foreign cpoId with 404 and bad paging with 400', async () => {
    const foreign = foreignLocation().cpoId;
    const res = await h.request('GET', `/bff/locations/get-by-cpo?cpoId=${foreign}`, { token: tokens.operator });
    expect(res.status).toBe(404);
    expect(res.body.errorCodeResponse).toBe('OPERATOR_NOT_FOUND');
    expect((await h.request('GET', '/bff/locations/get-by-cpo?page=-1', { token: tokens.operator })).status).toBe(400);
    expect((await h.request('GET', '/bff/locations/get-by-cpo')).status).toBe(401);
  });

  it('answers 404 OPERATOR_NOT_FOUND for an operator that does not exist, for admins too (never an empty list)', async () => {
    for (const who of ['admin', 'partner'] as const) {
      const res = await h.request('GET', '/bff/locations/get-by-cpo?cpoId=CPO9999', { token: tokens[who] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ errorCodeResponse: 'OPERATOR_NOT_FOUND', errorDetail: { cpoId: 'CPO9999' } });
      expect(res.body.data).toBeUndefined();
    }
  });
});

describe('GET /bff/locations/get-by-cpo-for-dropdown', () => {
  const visible = (who: Account, cpoId: string) => who === 'admin' || own[who].has(cpoId);
  const list = async (who: Account, qs = '') => {
    const res = await h.request('GET', `/bff/locations/get-by-cpo-for-dropdown${qs}`, { token: tokens[who] });
    expect(res.status).toBe(200);
    return locationDropdownAnswerSchema.parse(res.body.data);
  };

  it('lists the scoped locations sorted by name, with parking lots and id: name', async () => {
    const locationRows = await h.db.select().from(locations);
    const connectorRows = await h.db.select().from(connectors);
    for (const who of ['admin', 'operator', 'partner'] as const) {
      const rows = await list(who);
      const expected = locationRows.filter((l) => visible(who, l.cpoId));
      expect(rows.map((r) => r.locationId).sort()).toEqual(expected.map((l) => l.locationId).sort());
      const names = rows.map((r) => r.locationName);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      for (const r of rows) {
        expect(r.locationIdName).toBe(`${r.locationId}: ${r.locationName}`);
        const lots = [
          ...new Set(connectorRows.filter((c) => c.locationId === r.locationId && !c.removed && c.parkingLot).map((c) => c.parkingLot!)),
        ].sort();
        expect([...r.parkingLots].sort()).toEqual(lots);
        expect(r.cpoName).toBeTruthy();
      }
    }
    expect((await list('operator')).length).toBeLessThan((await list('admin')).length);
  });

  it('lists parking lots in natural order (P2 before P10), not as text', async () => {
    const connectorRows = (await h.db.select().from(connectors)).filter((c) => !c.removed && c.locationId && own.operator.has(c.cpoId));
    const a = connectorRows.find((c) => connectorRows.some((o) => o !== c && o.locationId === c.locationId))!;
    const b = connectorRows.find((o) => o !== a && o.locationId === a.locationId)!;
    const locationId = a.locationId!;
    const setLot = (id: string, lot: string | null) =>
      h.db.update(connectors).set({ parkingLot: lot }).where(eq(connectors.connectorId, id));
    try {
      await setLot(a.connectorId, 'Q10');
      await setLot(b.connectorId, 'Q2');
      const lots = (await list('operator')).find((r) => r.locationId === locationId)!.parkingLots.filter((l) => l.startsWith('Q'));
      expect(lots).toEqual(['Q2', 'Q10']);
    } finally {
      await setLot(a.connectorId, a.parkingLot);
      await setLot(b.connectorId, b.parkingLot);
    }
  });

  it('narrows to one operator in scope; a foreign operator answers 404', async () => {
    const [cpoId] = [...own.partner].filter((id) => !own.operator.has(id));
    const rows = await list('partner', `?cpoId=${cpoId}`);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.cpoId === cpoId)).toBe(true);
    const res = await h.request('GET', `/bff/locations/get-by-cpo-for-dropdown?cpoId=${cpoId}`, { token: tokens.operator });
    expect(res.status).toBe(404);
  });

  it('answers 404 OPERATOR_NOT_FOUND for an operator that does not exist, for admins too (never an empty list)', async () => {
    for (const who of ['admin', 'operator'] as const) {
      const res = await h.request('GET', '/bff/locations/get-by-cpo-for-dropdown?cpoId=CPO9999', { token: tokens[who] });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ errorCodeResponse: 'OPERATOR_NOT_FOUND', errorDetail: { cpoId: 'CPO9999' } });
    }
  });
});

describe('GET /bff/locations/wallboxTypes', () => {
  it('lists the models', async () => {
    const res = await h.request('GET', '/bff/locations/wallboxTypes', { token: tokens.operator });
    expect(res.status).toBe(200);
    const list = envelope(wallboxTypesAnswerSchema).parse(res.body).data;
    expect(list.map((m) => m.name)).toContain('ABL eMH1');
    expect(list.find((m) => m.name === 'Webasto Unite')?.connectorsPerStation).toBe(2);
  });
});

describe('POST /bff/locations/location', () => {
  it('creates a location with its infrastructure', async () => {
    const cpoId = [...own.operator][0];
    const res = await h.request('POST', '/bff/locations/location', { token: tokens.operator, body: validCreate(cpoId) });
    expect(res.status).toBe(200);
    const { locationId, locationName } = envelope(createLocationAnswerSchema).parse(res.body).data;
    expect(locationName).toBe('Tiefgarage Testweg');
    const [row] = await h.db.select().from(locations).where(eq(locations.locationId, locationId));
    expect(row).toMatchObject({ cpoId, city: 'Berlin-Mitte', careOf: null, isEmsConnected: true, emsModel: 'Smart1 EMS' });
    const infra = await h.db.select().from(locationInfrastructure).where(eq(locationInfrastructure.locationId, locationId));
    expect(infra.map((i) => [i.chargingStationModel, i.numOfChargingStations]).sort()).toEqual([
      ['ABL eMH1', 3],
      ['Webasto Unite', 100],
    ]);
    // The detail shows what was asked for, in the wizard's order (issue 23), and the EMS.
    const detail = await h.request('GET', `/bff/locations/${locationId}`, { token: tokens.operator });
    expect(envelope(locationDetailSchema).parse(detail.body).data).toMatchObject({
      requestedInfrastructure: [
        { chargingStationModel: 'ABL eMH1', numOfChargingStations: 3 },
        { chargingStationModel: 'Webasto Unite', numOfChargingStations: 100 },
      ],
      isEmsConnected: true,
      emsModel: 'Smart1 EMS',
      emsId: 'EMS-1',
    });
    // A second one gets another id.
    const again = await h.request('POST', '/bff/locations/location', { token: tokens.operator, body: validCreate(cpoId) });
    expect(again.body.data.locationId).not.toBe(locationId);
  });

  it('stores the EMS as not connected without infrastructure', async () => {
    const cpoId = [...own.partner][0];
    const body = { ...validCreate(cpoId), wallBoxesData: [], emsModel: undefined };
    const res = await h.request('POST', '/bff/locations/location', { token: tokens.partner, body });
    expect(res.status).toBe(200);
    const [row] = await h.db.select().from(locations).where(eq(locations.locationId, res.body.data.locationId));
    expect(row.isEmsConnected).toBe(false);
    expect(row.emsModel).toBeNull();
  });

  it.each([
    ['no name', (b: ReturnType<typeof validCreate>) => ({ ...b, locationName: ' ' })],
    ['no street', (b: ReturnType<typeof validCreate>) => ({ ...b, locationAddress: { ...b.locationAddress, street: '' } })],
    ['city with digits', (b: ReturnType<typeof validCreate>) => ({ ...b, locationAddress: { ...b.locationAddress, city: 'Berlin 1' } })],
    ['zip with letters', (b: ReturnType<typeof validCreate>) => ({ ...b, locationAddress: { ...b.locationAddress, zipCode: '10A15' } })],
    [
      'five rows',
      (b: ReturnType<typeof validCreate>) => ({
        ...b,
        wallBoxesData: ['ABL eMH1', 'ABL eMH3 Twin', 'KEBA KeContact P30', 'Webasto Unite', 'Wallbe Eco 2.0s'].map((m) => ({
          numOfChargingStations: 1,
          chargingStationModel: m,
        })),
      }),
    ],
    [
      'count 0',
      (b: ReturnType<typeof validCreate>) => ({ ...b, wallBoxesData: [{ numOfChargingStations: 0, chargingStationModel: 'ABL eMH1' }] }),
    ],
    [
      'count 101',
      (b: ReturnType<typeof validCreate>) => ({ ...b, wallBoxesData: [{ numOfChargingStations: 101, chargingStationModel: 'ABL eMH1' }] }),
    ],
    [
      'same model twice',
      (b: ReturnType<typeof validCreate>) => ({
        ...b,
        wallBoxesData: [
          { numOfChargingStations: 1, chargingStationModel: 'ABL eMH1' },
          { numOfChargingStations: 2, chargingStationModel: 'ABL eMH1' },
        ],
      }),
    ],
    [
      'unknown model',
      (b: ReturnType<typeof validCreate>) => ({
        ...b,
        wallBoxesData: [{ numOfChargingStations: 1, chargingStationModel: 'Tesla Wall Connector' }],
      }),
    ],
    ['EMS connected without model', (b: ReturnType<typeof validCreate>) => ({ ...b, emsModel: undefined })],
    ['unknown EMS model', (b: ReturnType<typeof validCreate>) => ({ ...b, emsModel: 'Some EMS' })],
  ])('refuses %s with 400 and writes nothing', async (_name, mutate) => {
    const before = (await h.db.select().from(locations)).length;
    const res = await h.request('POST', '/bff/locations/location', {
      token: tokens.operator,
      body: mutate(validCreate([...own.operator][0])),
    });
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    expect((await h.db.select().from(locations)).length).toBe(before);
  });

  it('answers 404 OPERATOR_NOT_FOUND with the cpoId for a foreign or unknown operator', async () => {
    const foreign = foreignLocation().cpoId;
    for (const [token, cpoId] of [
      [tokens.operator, foreign],
      [tokens.partner, foreign],
      [tokens.operator, [...own.partner][0]],
      [tokens.admin, 'NOPE-1'],
    ] as const) {
      const res = await h.request('POST', '/bff/locations/location', { token, body: validCreate(cpoId) });
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('OPERATOR_NOT_FOUND');
      expect(res.body.errorMessage).toContain(cpoId);
    }
  });
});

describe('GET /bff/locations/:id', () => {
  it('answers the detail with metrics and an ETag', async () => {
    const loc = locOf('operator')[0];
    const res = await h.request('GET', `/bff/locations/${loc.locationId}`, { token: tokens.operator });
    expect(res.status).toBe(200);
    const d = envelope(locationDetailSchema).parse(res.body).data;
    expect(res.headers.get('etag')).toBe(`"v${d.version}"`);
    expect(d.operatorDetail.cpoId).toBe(loc.cpoId);
    const cons = await h.db.select().from(connectors).where(eq(connectors.locationId, loc.locationId));
    const stations = new Set(cons.map((c) => c.cpId));
    expect(d.chargingInfrastructureMetrics.totalChargingStations).toBe(stations.size);
    expect(d.chargingInfrastructureMetrics.removedChargingStations).toBe(
      stations.size - new Set(cons.filter((c) => !c.removed).map((c) => c.cpId)).size,
    );
    expect(d.chargingInfrastructureMetrics.totalChargePoints).toBe(cons.length);
    expect(d.chargingInfrastructureMetrics.removedChargePoints).toBe(cons.filter((c) => c.removed).length);
    const summed = Object.values(d.chargingInfrastructureMetrics.statusesSummary).reduce((s, e) => s + e.number, 0);
    expect(summed).toBe(cons.filter((c) => !c.removed).length);
    const needLot = cons.filter((c) => !c.removed && c.status === 'CONNECTED_UNAVAILABLE' && !c.parkingLot).length;
    expect(d.chargingInfrastructureMetrics.statusesSummary.CONNECTED_NEEDS_PARKING_LOT?.number ?? 0).toBe(needLot);
    const cts = await h.db.select().from(contracts).where(eq(contracts.locationId, loc.locationId));
    expect(d.contractMetrics.totalContractStatuses).toBe(cts.length);
    expect(d.parkingLots).toEqual(
      [...new Set(cons.filter((c) => !c.removed && c.parkingLot).map((c) => c.parkingLot!))].sort((a, b) =>
        a.localeCompare(b, 'de', { numeric: true }),
      ),
    );
  });

  it('answers 404 for foreign and unknown locations, and leaves the dropdown route alone', async () => {
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await h.request('GET', `/bff/locations/${foreignLocation().locationId}`, { token });
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('LOCATION_NOT_FOUND');
      expect(res.body.data).toBeUndefined();
    }
    expect((await h.request('GET', '/bff/locations/L99999', { token: tokens.admin })).status).toBe(404);
    const dd = await h.request('GET', '/bff/locations/get-by-cpo-for-dropdown', { token: tokens.operator });
    expect(dd.status).toBe(200);
    expect(Array.isArray(dd.body.data)).toBe(true);
  });
});

describe('PUT /bff/locations/update-location', () => {
  const body = (locationId: string, extra: object = {}) => ({
    locationId,
    locationName: 'Neuer Name',
    locationAddress: { street: 'Neue Straße 5', city: 'Köln', zipCode: '50667', countryCode: 'DE', careOf: 'c/o Test' },
    ...extra,
  });

  it('updates and bumps the version; a stale version is a conflict that changes nothing', async () => {
    const loc = locOf('partner')[0];
    const res = await h.request('PUT', '/bff/locations/update-location', {
      token: tokens.partner,
      body: body(loc.locationId),
      headers: { 'if-match': `"v${loc.version}"` },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ locationId: loc.locationId, locationName: 'Neuer Name', version: loc.version + 1 });
    const [row] = await h.db.select().from(locations).where(eq(locations.locationId, loc.locationId));
    expect(row).toMatchObject({ locationName: 'Neuer Name', street: 'Neue Straße 5', city: 'Köln', careOf: 'c/o Test' });

    const stale = await h.request('PUT', '/bff/locations/update-location', {
      token: tokens.partner,
      body: body(loc.locationId, { locationName: 'Zu spät', version: loc.version }),
    });
    expect(stale.status).toBe(409);
    expect(stale.body.errorCodeResponse).toBe('CONFLICT');
    expect(stale.body.errorDetail).toMatchObject({
      locationId: loc.locationId,
      currentVersion: loc.version + 1,
      current: { locationName: 'Neuer Name' },
    });
    const [after] = await h.db.select().from(locations).where(eq(locations.locationId, loc.locationId));
    expect(after.locationName).toBe('Neuer Name');
  });

  it('clears the c/o when an edit leaves it out (clients drop empty values)', async () => {
    const loc = locOf('partner')[1];
    const withCareOf = await h.request('PUT', '/bff/locations/update-location', { token: tokens.partner, body: body(loc.locationId) });
    expect(withCareOf.status).toBe(200);
    const { careOf: _dropped, ...addressWithout } = body(loc.locationId).locationAddress;
    const res = await h.request('PUT', '/bff/locations/update-location', {
      token: tokens.partner,
      body: { ...body(loc.locationId), locationAddress: addressWithout },
    });
    expect(res.status).toBe(200);
    const [row] = await h.db.select().from(locations).where(eq(locations.locationId, loc.locationId));
    expect(row.careOf).toBeNull();
  });

  it('refuses missing fields, a bad If-Match and foreign locations', async () => {
    const loc = locOf('operator')[0];
    for (const bad of [
      body(loc.locationId, { locationName: '' }),
      { ...body(loc.locationId), locationAddress: { street: 'x', city: '', zipCode: '1' } },
      { ...body(loc.locationId), locationAddress: { street: 'x', city: 'y', zipCode: '' } },
    ]) {
      const res = await h.request('PUT', '/bff/locations/update-location', { token: tokens.operator, body: bad });
      expect(res.status).toBe(400);
    }
    const badHeader = await h.request('PUT', '/bff/locations/update-location', {
      token: tokens.operator,
      body: body(loc.locationId),
      headers: { 'if-match': 'garbage' },
    });
    expect(badHeader.status).toBe(400);
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await h.request('PUT', '/bff/locations/update-location', { token, body: body(foreignLocation().locationId) });
      expect(res.status).toBe(404);
    }
    const [untouched] = await h.db.select().from(locations).where(eq(locations.locationId, foreignLocation().locationId));
    expect(untouched.locationName).toBe(foreignLocation().locationName);
  });
});

describe('GET /bff/locations/parking-info', () => {
  it('lists the lots in use, 404 for foreign, 400 without id', async () => {
    const loc = locOf('operator')[0];
    const res = await h.request('GET', `/bff/locations/parking-info?locationId=${loc.locationId}`, { token: tokens.operator });
    expect(res.status).toBe(200);
    const info = envelope(parkingInfoSchema).parse(res.body).data;
    const lots = await h.db
      .select()
      .from(connectors)
      .where(and(eq(connectors.locationId, loc.locationId), eq(connectors.removed, false)));
    expect(new Set(info.parkingLots)).toEqual(new Set(lots.filter((c) => c.parkingLot).map((c) => c.parkingLot)));
    expect(
      (await h.request('GET', `/bff/locations/parking-info?locationId=${foreignLocation().locationId}`, { token: tokens.partner })).status,
    ).toBe(404);
    expect((await h.request('GET', '/bff/locations/parking-info', { token: tokens.partner })).status).toBe(400);
  });
});

describe('GET /contract-management/location/:id/contracts', () => {
  it('pages the contracts of the location with the /nutzer row shape and filters', async () => {
    const all = await h.db.select().from(contracts);
    const loc = locOf('operator')
      .map((l) => ({ l, n: all.filter((c) => c.locationId === l.locationId).length }))
      .sort((a, b) => b.n - a.n)[0].l;
    const mine = all.filter((c) => c.locationId === loc.locationId);
    expect(mine.length).toBeGreaterThan(0);
    const res = await h.request('GET', `/contract-management/location/${loc.locationId}/contracts?page=0&size=1000`, {
      token: tokens.operator,
    });
    expect(res.status).toBe(200);
    const data = envelope(paged(locationContractRowSchema)).parse(res.body).data;
    expect(data.totalNumberOfRecords).toBe(mine.length);
    expect(new Set(data.response.map((r) => r.endCustomerId))).toEqual(new Set(mine.map((c) => c.endCustomerId)));
    expect(data.response[0].location).toBe(`${loc.locationId}: ${loc.locationName}`);

    const type = mine[0].userType;
    const filtered = await h.request('GET', `/contract-management/location/${loc.locationId}/contracts?userTypes=${type}&size=1000`, {
      token: tokens.operator,
    });
    expect(filtered.body.data.totalNumberOfRecords).toBe(mine.filter((c) => c.userType === type).length);
    const byName = await h.request(
      'GET',
      `/contract-management/location/${loc.locationId}/contracts?name=${encodeURIComponent(mine[0].lastName.toLowerCase())}`,
      { token: tokens.operator },
    );
    expect(byName.body.data.response.map((r: { endCustomerId: string }) => r.endCustomerId)).toContain(mine[0].endCustomerId);
  });

  it("shows each contract's own RFID tags and latest bill status, and filters by a tag of that contract only", async () => {
    const tags = await h.db.select().from(rfidTags);
    const allBills = await h.db.select().from(bills);
    const all = await h.db.select().from(contracts);
    const loc = locOf('operator')
      .map((l) => ({ l, n: all.filter((c) => c.locationId === l.locationId && tags.some((t) => t.contractKey === c.contractKey)).length }))
      .sort((a, b) => b.n - a.n)[0].l;
    const res = await h.request('GET', `/contract-management/location/${loc.locationId}/contracts?size=1000`, { token: tokens.operator });
    const rows = envelope(paged(locationContractRowSchema)).parse(res.body).data.response;
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      const own = tags
        .filter((t) => t.contractKey === row.contractKey)
        .map((t) => t.rfidTag)
        .sort();
      expect(row.rfId, row.contractKey).toBe(own.length > 0 ? own.join(',') : null);
      const latest = allBills
        .filter((b) => b.contractKey === row.contractKey)
        .sort((a, b) => b.billGenerationDate.getTime() - a.billGenerationDate.getTime())[0];
      expect(row.billingStatus, row.contractKey).toBe(latest?.billingStatus ?? null);
    }
    const tagged = rows.find((r) => r.rfId)!;
    const byTag = await h.request(
      'GET',
      `/contract-management/location/${loc.locationId}/contracts?rfId=${encodeURIComponent(tagged.rfId!.split(',')[0]!)}&size=1000`,
      { token: tokens.operator },
    );
    expect(byTag.body.data.response.map((r: { contractKey: string }) => r.contractKey)).toEqual([tagged.contractKey]);
  });

  it('refuses bad filters, foreign locations, and is not on the BFF', async () => {
    const loc = locOf('operator')[0];
    expect(
      (await h.request('GET', `/contract-management/location/${loc.locationId}/contracts?userTypes=BOSS`, { token: tokens.operator }))
        .status,
    ).toBe(400);
    for (const token of [tokens.operator, tokens.partner]) {
      const res = await h.request('GET', `/contract-management/location/${foreignLocation().locationId}/contracts`, { token });
      expect(res.status).toBe(404);
    }
    expect((await h.request('GET', `/bff/location/${loc.locationId}/contracts`, { token: tokens.operator })).status).toBe(404);
  });
});
