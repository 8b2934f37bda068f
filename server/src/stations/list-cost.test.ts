import { asc, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billListQuerySchema } from '../../../contract/bills';
import { makeScope, type Scope } from '../auth/scope';
import { listBills } from '../bills/queries';
import { getGraph } from '../cockpit/queries';
import { bills } from '../db/schema/bookings';
import { locations } from '../db/schema/locations';
import { connectors } from '../db/schema/stations';
import { listLocations } from '../locations/queries';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';
import { planNodes, plansOf, rowsRead, totalRowsRead } from '../test/plan-rows';
import { DEEP_PAGE_ROWS, listStations } from './queries';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * Issue 34: a tenant's list page costs what its own rows cost. The rows each statement reads (its
 * plan under EXPLAIN ANALYZE: rows passed on and rows filtered away, times loops) are counted
 * before and after 10,000 connectors arrive at another operator's location; and the admins' bill
 * list over 12 months walks an index and stops at its page.
 */
let h: Harness;
let own: Scope;
const admin = makeScope('all');
const today = TEST_NOW.toISOString().slice(0, 10);

beforeAll(async () => {
  h = await createHarness();
  const [first] = await h.db.selectDistinct({ cpoId: connectors.cpoId }).from(connectors).orderBy(connectors.cpoId).limit(1);
  own = makeScope([first.cpoId]);
}, 120_000);
afterAll(() => h?.close());

const stationQuery = (page: number, size: number) => ({
  page,
  size,
  cpId: undefined,
  addressParkingLot: undefined,
  locationIds: [],
  wallboxModels: [],
  locationId: undefined,
});
const locationQuery = { page: 0, size: 10, locationName: undefined, address: undefined, cpoId: undefined };
/** Fresh statistics, so the plans before and after a change are both made on what the tables hold. */
const analyze = async () => {
  for (const table of ['connectors', 'connector_counts', 'connector_station_counts', 'locations'])
    await h.db.execute(sql.raw(`analyze ${table}`));
};

/** The list calls of one caller whose cost is compared. */
const calls = (scope: Scope) => ({
  'connector list page 0': () => listStations(h.db, scope, stationQuery(0, 10)),
  'connector list page 2 size 10': () => listStations(h.db, scope, stationQuery(2, 10)),
  'connector list page 3 size 25': () => listStations(h.db, scope, stationQuery(3, 25)),
  'location list page 0': () => listLocations(h.db, scope, locationQuery),
  kpis: () =>
    getGraph(h.db, scope, { graphType: 'TOTAL_ENERGY', unit: 'DAYS', startDate: '2026-03-09', endDate: today, locations: [] }, today),
});

async function costs(scope: Scope): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, run] of Object.entries(calls(scope))) out[name] = await totalRowsRead(h.db, run);
  return out;
}

describe("another tenant's rows", () => {
  it("leave a tenant's connector list, location list and KPIs reading the same rows; the admin's page reads the page", async () => {
    // Another operator's location, the one first by name, holds 10,000 connectors (so the planner
    // walks indexes, as it does at any real size, not the few rows of the test data) ...
    const [foreign] = await h.db
      .select()
      .from(locations)
      .where(ne(locations.cpoId, own.operatorIds[0]))
      .orderBy(asc(locations.locationName))
      .limit(1);
    const importAt = (prefix: string) =>
      h.db.execute(sql`insert into ${connectors} (connector_id, cp_id, connector_number, cpo_id, location_id, wallbox_model)
        select ${prefix} || g || '_1', ${prefix} || g, 1, ${foreign.cpoId}, ${foreign.locationId}, (select name from wallbox_models order by name limit 1)
        from generate_series(1, 10000) g`);
    await importAt('AAA');
    await analyze();
    const ownBefore = await costs(own);
    const adminBefore = await costs(admin);
    const ownAnswer = await listStations(h.db, own, stationQuery(0, 10));

    // ... and 10,000 more are imported there.
    await importAt('AAB');
    await analyze();

    expect(await listStations(h.db, own, stationQuery(0, 10))).toEqual(ownAnswer);
    // Not more rows than before (the planner may pick a cheaper plan on the new statistics; without
    // the walk's scoped locations and the roll-ups the page read the other location's connectors).
    const ownAfter = await costs(own);
    for (const name of Object.keys(ownBefore)) expect(ownAfter[name], name).toBeLessThanOrEqual(ownBefore[name]);
    // The admin sees the new connectors, but a page reads only what it shows of them.
    const adminAfter = await costs(admin);
    for (const name of Object.keys(adminBefore)) expect(adminAfter[name] - adminBefore[name], name).toBeLessThan(100);
    const adminPage = await listStations(h.db, admin, stationQuery(0, 10));
    expect(adminPage.rows.map((r) => r.locationId)).toContain(foreign.locationId);
    // A deep page (past DEEP_PAGE_ROWS) beside the 20,000 skips them by the roll-up's counts: it
    // reads the connectors of the location names it overlaps, not every visible one.
    const names = rowsOf<{ name: string; n: number; before: number }>(
      await h.db.execute(sql`select name, n, (sum(n) over (order by name) - n)::int as before from (
        select l.location_name as name, count(*)::int as n from connectors c join locations l on l.location_id = c.location_id
        where not c.removed group by 1) x order by name`),
    );
    const block = names.find((r) => r.name === foreign.locationName)!;
    const start = block.before >= DEEP_PAGE_ROWS + 25 ? DEEP_PAGE_ROWS : block.before + block.n;
    const deep = stationQuery(Math.ceil(start / 25), 25);
    expect((deep.page + 1) * deep.size).toBeGreaterThan(DEEP_PAGE_ROWS);
    const plans = await plansOf(h.db, () => listStations(h.db, admin, deep));
    const read = plans
      .flatMap((p) => planNodes(p.plan))
      .filter((n) => n['Relation Name'] === 'connectors')
      .reduce((sum, n) => sum + rowsRead(n), 0);
    const biggestOther = Math.max(...names.filter((r) => r.name !== block.name).map((r) => r.n));
    expect(read).toBeLessThanOrEqual(2 * (deep.size + biggestOther));
    expect((await listStations(h.db, admin, deep)).rows.length).toBeGreaterThan(0);
  }, 60_000);
});

describe("the admins' bill list at 12 months", () => {
  const query = billListQuerySchema.parse({ page: '0', size: '10', startDate: '2025-04-01', endDate: today });

  it('walks an index and stops at the page, with its total from the roll-ups, exact', async () => {
    // A year of bills: 10,000 over 365 days, every operator, status, method and user type.
    await h.db.execute(sql`with ks as (select array_agg(contract_key order by contract_key) as keys from contracts)
      insert into ${bills} (bill_id, bill_number, contract_key, cpo_id, end_customer_id, end_customer_first_name, end_customer_last_name,
        user_type, start_date, end_date, billing_status, payment_method, bill_generation_date, month_number, year_number, charging_request_id)
      select 'LC-' || g, 'LC-' || lpad(g::text, 6, '0'), c.contract_key, c.cpo_id, 'LC', 'Erika', 'Muster',
        (array['REGULAR', 'AD_HOC'])[1 + g % 2], '2026-01-01', '2026-01-31',
        (array['GENERATED', 'SENT', 'PAID', null])[1 + g % 4], (array['SEPA', 'STRIPE_SEPA', null])[1 + g % 3],
        ${TEST_NOW.toISOString()}::timestamptz - (g % 365) * interval '1 day' - (g % 24) * interval '1 hour', 1, 2026, 'lc-' || g
      from generate_series(1, 10000) g cross join ks join contracts c on c.contract_key = ks.keys[1 + g % cardinality(ks.keys)]`);
    await h.db.execute(sql`analyze bills`);
    await h.db.execute(sql`analyze bill_days`);
    await h.db.execute(sql`analyze bill_months`);

    for (const scope of [admin, own]) {
      const plans = await plansOf(h.db, () => listBills(h.db, scope, query));
      const nodes = plans.flatMap((p) => planNodes(p.plan));
      const onBills = nodes.filter((n) => n['Relation Name'] === 'bills');
      expect(onBills.length).toBeGreaterThan(0);
      // No sequential scan, no sort of the range, no count over it: an index walk that stops at the page.
      for (const n of onBills) {
        expect(n['Node Type']).toMatch(/Index/);
        expect(rowsRead(n)).toBeLessThanOrEqual(query.size);
      }
      expect(nodes.some((n) => n['Node Type'] === 'Sort' || n['Node Type'] === 'Incremental Sort')).toBe(false);
      const answer = await listBills(h.db, scope, query);
      const [fresh] = (
        (await h.db.execute(sql`select count(*)::int as n from ${bills}
          where ${scope.where(bills.cpoId) ?? sql`true`}
            and bill_generation_date >= ('2025-04-01'::date)::timestamp at time zone 'Europe/Berlin'
            and bill_generation_date < (${today}::date + 1)::timestamp at time zone 'Europe/Berlin'`)) as unknown as {
          rows: { n: number }[];
        }
      ).rows;
      expect(answer.total).toBe(fresh.n);
      expect(answer.rows).toHaveLength(10);
    }
  }, 60_000);
});
