import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartRangeQuery } from '../../../contract/cockpit';
import { makeScope } from '../auth/scope';
import { chargingRequests } from '../db/schema/cockpit';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';
import { planNodes, plansOf, rowsRead, type PlanNode } from '../test/plan-rows';
import { PER_CALL_PLANS } from '../db/client';
import { getChargingHistory, getGraph } from './queries';

/**
 * Issue 34, second round: charging_request_operator_days and _months (migration 0019_operator_rollups) equal the raw
 * sums per operator, status and Berlin day (month) after the seed and every kind of write; the
 * cockpit's 12-month energy KPIs without a location filter read them, a row per operator, status and
 * month, instead of the per-location roll-ups.
 */
let h: Harness;
let adminToken: string;
beforeAll(async () => {
  h = await createHarness();
  adminToken = (await h.login('admin')).access_token;
}, 120_000);
afterAll(() => h?.close());

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

async function disagreements() {
  const out: unknown[] = [];
  for (const [table, key, expr] of [
    ['charging_request_operator_days', 'day', sql`(start_date at time zone 'Europe/Berlin')::date`],
    ['charging_request_operator_months', 'month', sql`date_trunc('month', start_date at time zone 'Europe/Berlin')::date`],
  ] as const) {
    const result = await h.db.execute(sql`
      with raw as (
        select ${expr} as at, cpo_id, status, count(*)::int as requests, sum(energy_kwh) as energy_kwh, sum(cost) as cost
        from charging_requests group by 1, 2, 3
      ),
      rolled as (select ${sql.identifier(key)} as at, * from ${sql.identifier(table)} where requests <> 0)
      select ${table}::text as t, coalesce(raw.at, rolled.at)::text as at, raw.requests as raw_n, rolled.requests as rolled_n
      from raw full join rolled using (at, cpo_id, status)
      where raw.requests is distinct from rolled.requests
         or raw.energy_kwh is distinct from rolled.energy_kwh
         or raw.cost is distinct from rolled.cost`);
    out.push(...rowsOf(result));
  }
  return out;
}

describe('charging_request_operator_days and _months', () => {
  it('agree with the raw sums after the seed, inserts, updates, deletes and the clean route', async () => {
    const [{ n }] = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from charging_request_operator_months`));
    expect(n).toBeGreaterThan(0);
    expect(await disagreements()).toEqual([]);
    const [a, b] = await h.db.select().from(chargingRequests).orderBy(chargingRequests.transactionId).limit(2);
    await h.db.transaction(async (tx) => {
      await tx.insert(chargingRequests).values({ ...a, transactionId: 'OP-ROLLUP-1', startDate: new Date('2026-03-29T00:30:00Z') });
      await tx
        .update(chargingRequests)
        .set({ status: 'finished', energyKwh: '12.345', cost: '3.21', startDate: new Date('2025-12-31T23:30:00Z'), cpoId: b.cpoId })
        .where(sql`${chargingRequests.transactionId} = ${a.transactionId}`);
    });
    expect(await disagreements()).toEqual([]);
    await h.db.delete(chargingRequests).where(sql`${chargingRequests.transactionId} in ('OP-ROLLUP-1', ${b.transactionId})`);
    expect(await disagreements()).toEqual([]);
    const res = await h.request('PUT', '/bff/charging-requests/clean', { token: adminToken, body: { minutesThreshold: 1 } });
    expect(res.status).toBe(200);
    expect(await disagreements()).toEqual([]);
  });

  it("the admin's 12-month energy KPIs read a roll-up row per operator, status and month, not per location", async () => {
    const today = TEST_NOW.toISOString().slice(0, 10);
    const range = chartRangeQuery('MONTHS_12', today);
    const params = {
      graphType: 'TOTAL_ENERGY' as const,
      unit: range.unit,
      startDate: range.startDate,
      endDate: range.endDate,
      locations: [],
    };
    const plans = await plansOf(h.db, () => getGraph(h.db, makeScope('all'), params, today));
    const nodes = plans.flatMap((p) => planNodes(p.plan));
    const relations = new Set(nodes.map((n) => n['Relation Name']).filter((r) => r?.startsWith('charging_request')));
    expect(relations).toEqual(new Set(['charging_request_operator_months', 'charging_request_operator_days']));
    const read = nodes.filter((n) => n['Relation Name']?.startsWith('charging_request_operator')).reduce((s, n) => s + rowsRead(n), 0);
    const [held] = rowsOf<{ n: number }>(
      await h.db.execute(sql`select ((select count(*) from charging_request_operator_months)
        + (select count(*) from charging_request_operator_days where day >= ${`${today.slice(0, 7)}-01`}::date))::int as n`),
    );
    expect(read).toBeLessThanOrEqual(held.n);
    // One statement, over roll-ups only: PGlite's worker keeps its plan (PER_CALL_PLANS names only the requests' table).
    expect(plans).toHaveLength(1);
    expect(new RegExp(PER_CALL_PLANS).test(plans[0].sql)).toBe(false);
    const history = await plansOf(h.db, () =>
      getChargingHistory(h.db, makeScope('all'), { page: 0, size: 10, filters: [], startDate: range.startDate, endDate: range.endDate }),
    );
    expect(history.every((p) => new RegExp(PER_CALL_PLANS).test(p.sql))).toBe(true);
    // Its kept (generic) plan, the one PGlite's worker and a PostgreSQL named statement run, reads
    // only the month to date of the daily roll-up, not the year's days (monthsAndDays: each ragged
    // end a range of its own).
    const generic = await h.db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare kpi_generic as ${plans[0].sql}`));
      const args = plans[0].values.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`)).join(', ');
      const result = await tx.execute(sql.raw(`explain (analyze, format json) execute kpi_generic(${args})`));
      await tx.execute(sql`deallocate kpi_generic`);
      const cell = Object.values(rowsOf<Record<string, unknown>>(result)[0])[0];
      return ((typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[])[0].Plan;
    });
    const daysRead = planNodes(generic)
      .filter((n) => n['Relation Name'] === 'charging_request_operator_days')
      .reduce((s, n) => s + rowsRead(n), 0);
    const [monthToDate] = rowsOf<{ n: number }>(
      await h.db.execute(
        sql`select count(*)::int as n from charging_request_operator_days where day >= ${`${today.slice(0, 7)}-01`}::date`,
      ),
    );
    expect(daysRead).toBeLessThanOrEqual(monthToDate.n);
  }, 60_000);
});
