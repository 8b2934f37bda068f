import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartRangeQuery } from '../../../contract/cockpit';
import { makeScope, type Scope } from '../auth/scope';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';
import { planNodes, plansOf } from '../test/plan-rows';
import { getGraph } from './queries';

/**
 * Issue 34, second round: the cockpit's end-user count (contracts not expired, ending today or
 * later) sums contract_end_counts (migration 0019_operator_rollups: per operator, location and end date) instead of
 * reading every contract of the scope on each KPI call; the roll-up equals a fresh count after the
 * seed and every kind of write to contracts.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(() => h?.close());

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const today = TEST_NOW.toISOString().slice(0, 10);

async function disagreements() {
  return rowsOf(
    await h.db.execute(sql`
      with raw as (
        select cpo_id, coalesce(location_id, '') as location_key, coalesce(end_date, 'infinity'::date) as end_date, count(*)::int as n
        from contracts where contract_status not in ('EXPIRED', 'UNSIGNED_EXPIRED') group by 1, 2, 3
      ),
      rolled as (select cpo_id, location_key, end_date, contracts as n from contract_end_counts where contracts <> 0)
      select cpo_id, location_key, end_date::text, raw.n as raw_n, rolled.n as rolled_n
      from raw full join rolled using (cpo_id, location_key, end_date)
      where raw.n is distinct from rolled.n`),
  );
}

const freshUsers = async (scope: Scope, locations: string[]) =>
  rowsOf<{ n: number }>(
    await h.db.execute(sql`select count(*)::int as n from contracts
      where contract_status not in ('EXPIRED', 'UNSIGNED_EXPIRED') and (end_date is null or end_date >= ${today}::date)
        and ${scope.where(sql.raw('cpo_id')) ?? sql`true`}
        ${
          locations.length
            ? sql`and location_id in (${sql.join(
                locations.map((l) => sql`${l}`),
                sql`, `,
              )})`
            : sql``
        }`),
  )[0].n;

describe('contract_end_counts', () => {
  it('equals a fresh count after the seed and after inserts, status, end date, location and operator changes and deletes', async () => {
    const [{ n }] = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from contract_end_counts`));
    expect(n).toBeGreaterThan(0);
    expect(await disagreements()).toEqual([]);
    // A copy of a contract under new keys (every column copied).
    await h.db.execute(sql`insert into contracts
      select (jsonb_populate_record(null::contracts, to_jsonb(c) || jsonb_build_object('contract_key', 'CEC-1', 'contract_id', 'CEC-1',
        'contract_number', 'CEC-1', 'end_customer_id', 'CEC-1', 'email', 'cec-1@example.test', 'end_date', null))).*
      from contracts c where contract_status = 'ACTIVE' order by contract_key limit 1`);
    expect(await disagreements()).toEqual([]);
    await h.db.execute(
      sql`update contracts set end_date = ${today}::date where contract_key in (select contract_key from contracts order by contract_key limit 7)`,
    );
    await h.db.execute(
      sql`update contracts set contract_status = 'EXPIRED' where contract_key in (select contract_key from contracts order by contract_key desc limit 5)`,
    );
    await h.db.execute(
      sql`update contracts set location_id = null where contract_key in (select contract_key from contracts order by contract_key limit 3)`,
    );
    await h.db.execute(sql`update contracts set cpo_id = (select max(cpo_id) from operators) where contract_key = 'CEC-1'`);
    await h.db.execute(
      sql`update contracts set first_name = first_name || 'x' where contract_key in (select contract_key from contracts limit 20)`,
    );
    expect(await disagreements()).toEqual([]);
    await h.db.execute(sql`delete from contracts where contract_key = 'CEC-1'`);
    expect(await disagreements()).toEqual([]);
  });

  it('the KPIs count end users from it, never reading the contracts, exact', async () => {
    const range = chartRangeQuery('DAYS_7', today);
    const [{ cpo_id: own, location_id: location }] = rowsOf<{ cpo_id: string; location_id: string }>(
      await h.db.execute(
        sql`select cpo_id, location_id from contracts where location_id is not null group by 1, 2 order by count(*) desc limit 1`,
      ),
    );
    for (const [scope, locations] of [
      [makeScope('all'), []],
      [makeScope([own]), []],
      [makeScope([own]), [location]],
    ] as [Scope, string[]][]) {
      const params = {
        graphType: 'TOTAL_ENERGY' as const,
        unit: range.unit,
        startDate: range.startDate,
        endDate: range.endDate,
        locations,
      };
      const plans = await plansOf(h.db, () => getGraph(h.db, scope, params, today));
      const relations = new Set(plans.flatMap((p) => planNodes(p.plan)).map((n) => n['Relation Name']));
      expect(relations.has('contracts')).toBe(false);
      expect(relations.has('contract_end_counts')).toBe(true);
      const answer = await getGraph(h.db, scope, params, today);
      expect(answer.kpiInformation.totalEndUsers).toBe(await freshUsers(scope, locations));
    }
  }, 60_000);
});
