import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartRangeQuery, graphAnswerSchema, type ChartRange, type GraphAnswer } from '../../../contract/cockpit';
import { envelope, paged } from '../../../contract/common';
import { operatorListRowSchema } from '../../../contract/operators';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { locations } from '../db/schema/locations';
import { connectors } from '../db/schema/stations';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';

/*
 * The expected numbers are computed here in plain JS from the seeded rows, independently of the
 * server's SQL (own time-zone conversion, own bucketing, own status list).
 */
type Account = 'admin' | 'operator' | 'partner';
let h: Harness;
let tokens: Record<Account, string>;
let scopes: Record<Account, Set<string> | 'all'>;
let requests: (typeof chargingRequests.$inferSelect)[];
let connectorRows: (typeof connectors.$inferSelect)[];
let contractRows: (typeof contracts.$inferSelect)[];
let locationRows: (typeof locations.$inferSelect)[];

const TODAY = '2026-03-15'; // Berlin day of TEST_NOW
const REAL_TODAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
const berlinDayOf = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(d);
const ENERGY_STATUSES = new Set(['finished', 'broken', 'charging', 'paused', 'termination_requested', 'terminated_request']);

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
  // Energy on statuses that must not count (the seed gives them none): pins the KPI status list.
  const [own] = await h.db
    .select()
    .from(connectors)
    .where(inArray(connectors.cpoId, [...(scopes.operator as Set<string>)]))
    .limit(1);
  await h.db.insert(chargingRequests).values(
    (['denied', 'processing', 'terminated_rejected'] as const).map((status, i) => ({
      transactionId: `FX-KPI-${i}`,
      cpoId: own.cpoId,
      locationId: own.locationId!,
      connectorId: own.connectorId,
      endCustomerId: '999-99999-99' + i,
      authType: 'APP' as const,
      status,
      startDate: new Date(TEST_NOW.getTime() - (i + 1) * 86_400_000),
      lastUpdateTimestamp: new Date(TEST_NOW.getTime() - (i + 1) * 86_400_000),
      energyKwh: '50.000',
      cost: '20.00',
    })),
  );
  // Around the switch to summer time (2026-03-29 02:00 CET): Berlin days are 23 hours long there.
  await h.db.insert(chargingRequests).values(
    [
      { at: '2026-03-28T23:30:00Z', kwh: '7.000' }, // 00:30 CET on the 29th
      { at: '2026-03-29T21:59:00Z', kwh: '11.000' }, // 23:59 CEST on the 29th
      { at: '2026-03-29T22:00:00Z', kwh: '13.000' }, // 00:00 CEST on the 30th
    ].map(({ at, kwh }, i) => ({
      transactionId: `FX-DST-${i}`,
      cpoId: own.cpoId,
      locationId: own.locationId!,
      connectorId: own.connectorId,
      endCustomerId: '999-99999-98' + i,
      authType: 'APP' as const,
      status: 'finished' as const,
      startDate: new Date(at),
      endDate: new Date(at),
      lastUpdateTimestamp: new Date(at),
      energyKwh: kwh,
      cost: '1.00',
    })),
  );
  requests = await h.db.select().from(chargingRequests);
  connectorRows = await h.db.select().from(connectors);
  contractRows = await h.db.select().from(contracts);
  locationRows = await h.db.select().from(locations);
});
afterAll(() => h?.close());

const inScope = (who: Account, cpoId: string) => scopes[who] === 'all' || (scopes[who] as Set<string>).has(cpoId);

function expectedGraph(
  who: Account,
  q: { startDate: string; endDate: string; unit: 'DAYS' | 'MONTHS'; graphType: 'TOTAL_ENERGY' | 'ACTIVE_USERS' },
  locs: string[] = [],
): GraphAnswer {
  const atLoc = (l: string | null) => locs.length === 0 || (l !== null && locs.includes(l));
  const inRange = requests
    .map((r) => ({ r, day: berlinDayOf(r.startDate) }))
    .filter(({ r, day }) => inScope(who, r.cpoId) && atLoc(r.locationId) && day >= q.startDate && day <= q.endDate);
  const energyRows = inRange.filter(({ r }) => ENERGY_STATUSES.has(r.status));
  const labels: string[] = [];
  if (q.unit === 'DAYS') {
    for (let d = new Date(`${q.startDate}T00:00:00Z`); d.toISOString().slice(0, 10) <= q.endDate; d = new Date(d.getTime() + 86_400_000))
      labels.push(d.toISOString().slice(0, 10));
  } else {
    let [y, m] = q.startDate.split('-').map(Number);
    const last = q.endDate.slice(0, 7);
    for (;;) {
      const label = `${y}-${String(m).padStart(2, '0')}`;
      labels.push(label);
      if (label >= last) break;
      m += 1;
      if (m > 12) {
        m = 1;
        y += 1;
      }
    }
  }
  const key = (day: string) => (q.unit === 'DAYS' ? day : day.slice(0, 7));
  const graphUnits = labels.map((label) => {
    const bucket = inRange.filter(({ day }) => key(day) === label);
    const value =
      q.graphType === 'TOTAL_ENERGY'
        ? bucket.filter(({ r }) => ENERGY_STATUSES.has(r.status)).reduce((s, { r }) => s + Number(r.energyKwh), 0)
        : new Set(bucket.map(({ r }) => r.endCustomerId).filter(Boolean)).size;
    return { label, value };
  });
  return {
    kpiInformation: {
      totalEnergyCharged: energyRows.reduce((s, { r }) => s + Number(r.energyKwh), 0),
      totalRevenue: energyRows.reduce((s, { r }) => s + Number(r.cost), 0),
      // One licence per station (distinct cpId): a double station is one (issue 23).
      totalWallboxLicenses: new Set(
        connectorRows.filter((c) => inScope(who, c.cpoId) && !c.removed && atLoc(c.locationId)).map((c) => c.cpId),
      ).size,
      totalEndUsers: contractRows.filter(
        (c) =>
          inScope(who, c.cpoId) &&
          atLoc(c.locationId) &&
          c.contractStatus !== 'EXPIRED' &&
          c.contractStatus !== 'UNSIGNED_EXPIRED' &&
          (c.endDate === null || c.endDate >= REAL_TODAY),
      ).length,
    },
    graphUnits,
  };
}

function expectClose(actual: GraphAnswer, expected: GraphAnswer) {
  const k = actual.kpiInformation;
  const e = expected.kpiInformation;
  expect(k.totalEnergyCharged).toBeCloseTo(e.totalEnergyCharged, 2);
  expect(k.totalRevenue).toBeCloseTo(e.totalRevenue, 2);
  expect(k.totalWallboxLicenses).toBe(e.totalWallboxLicenses);
  expect(k.totalEndUsers).toBe(e.totalEndUsers);
  expect(actual.graphUnits.map((p) => p.label)).toEqual(expected.graphUnits.map((p) => p.label));
  actual.graphUnits.forEach((p, i) => expect(p.value, p.label).toBeCloseTo(expected.graphUnits[i].value, 2));
}

async function graph(who: Account, params: Record<string, string>) {
  const qs = new URLSearchParams(params).toString();
  const res = await h.request('GET', `/bff/kpi/get-graph?${qs}`, { token: tokens[who] });
  return res;
}

const ranges: ChartRange[] = ['DAYS_7', 'DAYS_30', 'MONTHS_12'];
const types = ['TOTAL_ENERGY', 'ACTIVE_USERS'] as const;

describe('GET /bff/kpi/get-graph', () => {
  for (const range of ranges)
    for (const graphType of types)
      it(`matches independent sums for ${range} ${graphType} (admin)`, async () => {
        const q = { ...chartRangeQuery(range, TODAY), graphType };
        const res = await graph('admin', { ...q, timestamp: String(TEST_NOW.getTime()) });
        expect(res.status).toBe(200);
        const data = graphAnswerSchema.parse(res.body.data);
        const expected = expectedGraph('admin', q);
        expectClose(data, expected);
        expect(data.graphUnits).toHaveLength(range === 'DAYS_7' ? 7 : range === 'DAYS_30' ? 30 : 12);
        // The data set is non-trivial in every range.
        expect(data.kpiInformation.totalEnergyCharged).toBeGreaterThan(0);
        expect(data.graphUnits.some((p) => p.value > 0)).toBe(true);
      });

  it('includes zero buckets (12 months over 4 months of data; an empty future week)', async () => {
    const q = { ...chartRangeQuery('MONTHS_12', TODAY), graphType: 'TOTAL_ENERGY' as const };
    const data = graphAnswerSchema.parse((await graph('admin', q)).body.data);
    expect(data.graphUnits[0]).toEqual({ label: '2025-04', value: 0 });
    expect(data.graphUnits.at(-1)?.label).toBe('2026-03');
    expect(data.graphUnits.filter((p) => p.value === 0).length).toBeGreaterThanOrEqual(6);

    const empty = await graph('admin', { graphType: 'ACTIVE_USERS', startDate: '2026-06-01', endDate: '2026-06-07', unit: 'DAYS' });
    const e = graphAnswerSchema.parse(empty.body.data);
    expect(e.graphUnits).toEqual(['01', '02', '03', '04', '05', '06', '07'].map((d) => ({ label: `2026-06-${d}`, value: 0 })));
    expect(e.kpiInformation.totalEnergyCharged).toBe(0);
    expect(e.kpiInformation.totalRevenue).toBe(0);
  });

  it('monthly buckets over whole months and ragged ends (monthly and daily roll-ups together) match the raw sums', async () => {
    for (const [startDate, endDate] of [
      ['2025-12-17', '2026-03-09'],
      ['2026-01-01', '2026-02-28'],
      ['2026-01-31', '2026-02-01'],
      ['2026-01-01', '2026-02-10'],
      ['2026-01-05', '2026-02-28'],
    ])
      for (const who of ['admin', 'operator'] as const)
        for (const graphType of types) {
          // Active users: whole months from the customer roll-up, ragged ends from the requests.
          const q = { graphType, startDate, endDate, unit: 'MONTHS' as const };
          const data = graphAnswerSchema.parse((await graph(who, q)).body.data);
          expectClose(data, expectedGraph(who, q));
          expect(data.kpiInformation.totalEnergyCharged).toBeGreaterThan(0);
          expect(data.graphUnits.some((p) => p.value > 0)).toBe(true);
        }
    // At locations too (the customer roll-up keeps the location).
    const [loc] = requests.filter((r) => r.locationId !== null).map((r) => r.locationId!);
    const q = { graphType: 'ACTIVE_USERS' as const, startDate: '2025-12-17', endDate: '2026-03-09', unit: 'MONTHS' as const };
    const data = graphAnswerSchema.parse((await graph('admin', { ...q, locations: loc })).body.data);
    expectClose(data, expectedGraph('admin', q, [loc]));
  });

  it('buckets by the Berlin day, inclusive of both ends, across a month boundary', async () => {
    const q = { graphType: 'TOTAL_ENERGY' as const, startDate: '2026-01-28', endDate: '2026-02-03', unit: 'DAYS' as const };
    const data = graphAnswerSchema.parse((await graph('admin', q)).body.data);
    expectClose(data, expectedGraph('admin', q));
    const monthly = { ...q, unit: 'MONTHS' as const };
    const m = graphAnswerSchema.parse((await graph('admin', monthly)).body.data);
    expect(m.graphUnits.map((p) => p.label)).toEqual(['2026-01', '2026-02']);
    expectClose(m, expectedGraph('admin', monthly));
    // A partial month only counts the days inside the range: both units add up to the same energy.
    const sum = (a: GraphAnswer) => a.graphUnits.reduce((s, p) => s + p.value, 0);
    expect(sum(m)).toBeCloseTo(sum(data), 2);
    expect(sum(data)).toBeCloseTo(data.kpiInformation.totalEnergyCharged, 2);
  });

  it('cuts Berlin days at local midnight across the daylight-saving switch', async () => {
    const q = { graphType: 'TOTAL_ENERGY' as const, startDate: '2026-03-28', endDate: '2026-03-31', unit: 'DAYS' as const };
    const data = graphAnswerSchema.parse((await graph('admin', q)).body.data);
    expect(data.graphUnits).toEqual([
      { label: '2026-03-28', value: 0 },
      { label: '2026-03-29', value: 18 },
      { label: '2026-03-30', value: 13 },
      { label: '2026-03-31', value: 0 },
    ]);
    expectClose(data, expectedGraph('admin', q));
    const users = graphAnswerSchema.parse((await graph('admin', { ...q, graphType: 'ACTIVE_USERS' })).body.data);
    expect(users.graphUnits.map((p) => p.value)).toEqual([0, 2, 1, 0]);
  });

  it('scopes to the operator account: only its operator, and different from the admin', async () => {
    for (const graphType of types) {
      const q = { ...chartRangeQuery('DAYS_30', TODAY), graphType };
      const own = graphAnswerSchema.parse((await graph('operator', q)).body.data);
      expectClose(own, expectedGraph('operator', q));
      const all = graphAnswerSchema.parse((await graph('admin', q)).body.data);
      expect(own.kpiInformation.totalEnergyCharged).toBeLessThan(all.kpiInformation.totalEnergyCharged);
      expect(own.kpiInformation.totalWallboxLicenses).toBeLessThan(all.kpiInformation.totalWallboxLicenses);
      expect(own.kpiInformation.totalEndUsers).toBeLessThan(all.kpiInformation.totalEndUsers);
      expect(own.kpiInformation.totalEnergyCharged).toBeGreaterThan(0);
    }
  });

  it("scopes the partner to its customer's operators", async () => {
    const partnerOps = scopes.partner as Set<string>;
    expect(partnerOps.size).toBeGreaterThan(1);
    for (const graphType of types) {
      const q = { ...chartRangeQuery('MONTHS_12', TODAY), graphType };
      const data = graphAnswerSchema.parse((await graph('partner', q)).body.data);
      expectClose(data, expectedGraph('partner', q));
    }
    const q = { ...chartRangeQuery('DAYS_30', TODAY), graphType: 'TOTAL_ENERGY' as const };
    const partner = graphAnswerSchema.parse((await graph('partner', q)).body.data);
    const operator = graphAnswerSchema.parse((await graph('operator', q)).body.data);
    expect(partner.kpiInformation).not.toEqual(operator.kpiInformation);
  });

  it('restricts to the given locations', async () => {
    const own = locationRows.filter((l) => inScope('partner', l.cpoId)).map((l) => l.locationId);
    expect(own.length).toBeGreaterThan(1);
    const locs = own.slice(0, 2);
    for (const graphType of types) {
      const q = { ...chartRangeQuery('DAYS_30', TODAY), graphType };
      const res = await graph('partner', { ...q, locations: locs.join(',') });
      expect(res.status).toBe(200);
      const data = graphAnswerSchema.parse(res.body.data);
      expectClose(data, expectedGraph('partner', q, locs));
      const whole = graphAnswerSchema.parse((await graph('partner', q)).body.data);
      expect(data.kpiInformation.totalWallboxLicenses).toBeLessThanOrEqual(whole.kpiInformation.totalWallboxLicenses);
    }
  });

  it('answers 404 for a foreign or unknown location, never its data', async () => {
    const foreign = locationRows.find((l) => !inScope('operator', l.cpoId))!;
    const own = locationRows.find((l) => inScope('operator', l.cpoId))!;
    const q = { ...chartRangeQuery('DAYS_7', TODAY), graphType: 'TOTAL_ENERGY' };
    for (const locs of [foreign.locationId, `${own.locationId},${foreign.locationId}`, 'NO-SUCH-LOCATION']) {
      const res = await graph('operator', { ...q, locations: locs });
      expect(res.status).toBe(404);
      expect(res.body.errorCodeResponse).toBe('LOCATION_NOT_FOUND');
      expect(res.body.data).toBeUndefined();
    }
    expect((await graph('admin', { ...q, locations: foreign.locationId })).status).toBe(200);
  });

  it('refuses bad parameters with 400 VALIDATION_ERROR', async () => {
    const good = { graphType: 'TOTAL_ENERGY', startDate: '2026-03-01', endDate: '2026-03-15', unit: 'DAYS' };
    const bad: Record<string, string>[] = [
      { ...good, endDate: '2026-02-28' },
      { ...good, startDate: '2025-01-01', endDate: '2026-03-15' },
      { ...good, startDate: '2026-02-30' },
      { ...good, endDate: '15.03.2026' },
      { ...good, unit: 'WEEKS' },
      { ...good, graphType: 'REVENUE' },
      { startDate: good.startDate, endDate: good.endDate, unit: 'DAYS' },
      { ...good, startDate: '' },
    ];
    for (const params of bad) {
      const res = await graph('admin', params);
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    }
    // 400 days is the longest range.
    expect((await graph('admin', { ...good, startDate: '2025-02-09', endDate: '2026-03-15', unit: 'MONTHS' })).status).toBe(200);
    expect((await graph('admin', { ...good, startDate: '2025-02-08', endDate: '2026-03-15', unit: 'MONTHS' })).status).toBe(400);
  });

  it('requires sign-in', async () => {
    const res = await h.request('GET', '/bff/kpi/get-graph?graphType=TOTAL_ENERGY&startDate=2026-03-01&endDate=2026-03-02&unit=DAYS');
    expect(res.status).toBe(401);
  });
});
