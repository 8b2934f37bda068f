import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billListQuerySchema } from '../../../contract/bills';
import { makeScope, type Scope } from '../auth/scope';
import { bills } from '../db/schema/bookings';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';
import { planNodes, plansOf, rowsRead } from '../test/plan-rows';
import { listBills } from './queries';

/**
 * Issue 34, second round: the bill list's total over 12 months without a status, method or user type
 * filter reads one roll-up row per operator and month (bill_operator_months, and bill_operator_days
 * for the month-to-date), not one per operator, month, status, method and user type; with such a
 * filter it reads the detailed roll-ups. Both totals equal a fresh count.
 */
let h: Harness;
let own: Scope;
const admin = makeScope('all');
const today = TEST_NOW.toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 7)}-01`;
const rollupTables = /^bill_(operator_)?(days|months)$/;

const rows = async <T>(query: ReturnType<typeof sql>) => ((await h.db.execute(query)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  h = await createHarness();
  // A year of bills: 10,000 over 365 days, every operator, status, method and user type.
  await h.db.execute(sql`with ks as (select array_agg(contract_key order by contract_key) as keys from contracts)
    insert into ${bills} (bill_id, bill_number, contract_key, cpo_id, end_customer_id, end_customer_first_name, end_customer_last_name,
      user_type, start_date, end_date, billing_status, payment_method, bill_generation_date, month_number, year_number, charging_request_id)
    select 'LT-' || g, 'LT-' || lpad(g::text, 6, '0'), c.contract_key, c.cpo_id, 'LT', 'Erika', 'Muster',
      (array['REGULAR', 'AD_HOC'])[1 + g % 2], '2026-01-01', '2026-01-31',
      (array['GENERATED', 'SENT', 'PAID', null])[1 + g % 4], (array['SEPA', 'STRIPE_SEPA', null])[1 + g % 3],
      ${TEST_NOW.toISOString()}::timestamptz - (g % 365) * interval '1 day' - (g % 24) * interval '1 hour', 1, 2026, 'lt-' || g
    from generate_series(1, 10000) g cross join ks join contracts c on c.contract_key = ks.keys[1 + g % cardinality(ks.keys)]`);
  for (const table of ['bills', 'bill_days', 'bill_months', 'bill_operator_days', 'bill_operator_months'])
    await h.db.execute(sql.raw(`analyze ${table}`));
  const [first] = await rows<{ cpo_id: string }>(sql`select cpo_id from bills group by 1 order by count(*) desc limit 1`);
  own = makeScope([first.cpo_id]);
}, 120_000);
afterAll(() => h?.close());

const berlinDay = sql`(bill_generation_date at time zone 'Europe/Berlin')::date`;

/** Fresh counts of the range's bills, of its (operator, whole month) and of its (operator, day of the month to date) groups. */
async function fresh(scope: Scope, startDate: string, status?: string) {
  const [r] = await rows<{ bills: number; months: number; days: number }>(sql`
    select count(*)::int as bills,
      count(distinct (cpo_id, date_trunc('month', ${berlinDay}))) filter (where ${berlinDay} < ${monthStart}::date)::int as months,
      count(distinct (cpo_id, ${berlinDay})) filter (where ${berlinDay} >= ${monthStart}::date)::int as days
    from ${bills}
    where ${scope.where(bills.cpoId) ?? sql`true`}
      and ${berlinDay} >= ${startDate}::date and ${berlinDay} <= ${today}::date
      ${status ? sql`and billing_status = ${status}` : sql``}`);
  return r;
}

describe('the bill list total at 12 months', () => {
  const startDate = '2025-04-01';

  it('without filters reads a roll-up row per operator and month (and day of the month to date), exact', async () => {
    const query = billListQuerySchema.parse({ page: '0', size: '10', startDate, endDate: today });
    for (const scope of [admin, own]) {
      const plans = await plansOf(h.db, () => listBills(h.db, scope, query));
      const onRollups = plans.flatMap((p) => planNodes(p.plan)).filter((n) => rollupTables.test(n['Relation Name'] ?? ''));
      expect(onRollups.length).toBeGreaterThan(0);
      expect(new Set(onRollups.map((n) => n['Relation Name']))).toEqual(new Set(['bill_operator_months', 'bill_operator_days']));
      const read = onRollups.reduce((sum, n) => sum + rowsRead(n), 0);
      const expected = await fresh(scope, startDate);
      // No status, method or user type rows: about a row per group of the range (a small table's scan may pass a few others).
      const [held] = await rows<{ n: number }>(sql`select ((select count(*) from bill_operator_months)
        + (select count(*) from bill_operator_days where day >= ${monthStart}::date))::int as n`);
      expect(read).toBeGreaterThanOrEqual(expected.months + expected.days);
      expect(read).toBeLessThanOrEqual(held.n);
      expect((await listBills(h.db, scope, query)).total).toBe(expected.bills);
    }
  }, 60_000);

  it('with a status filter counts from the detailed roll-ups, exact', async () => {
    const query = billListQuerySchema.parse({ page: '0', size: '10', startDate, endDate: today, billingStatuses: 'PAID' });
    for (const scope of [admin, own]) {
      const plans = await plansOf(h.db, () => listBills(h.db, scope, query));
      const relations = new Set(plans.flatMap((p) => planNodes(p.plan)).map((n) => n['Relation Name']));
      expect(relations.has('bill_months')).toBe(true);
      expect((await listBills(h.db, scope, query)).total).toBe((await fresh(scope, startDate, 'PAID')).bills);
    }
  }, 60_000);
});
