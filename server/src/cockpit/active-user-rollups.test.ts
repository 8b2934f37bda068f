import { and, eq, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartRangeQuery } from '../../../contract/cockpit';
import { makeScope, type Scope } from '../auth/scope';
import { chargingRequests } from '../db/schema/cockpit';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';
import { planNodes, plansOf, rowsRead } from '../test/plan-rows';
import { getGraph } from './queries';

/**
 * Issue 34, third round: the active-user roll-ups (migration 0024: requests per operator, Berlin
 * month and end customer; distinct customers per operator and month; operators per month and
 * customer) equal direct counts after the seed and every kind of write, and the 12-month
 * ACTIVE_USERS graph without a location filter reads them (a row per operator and month) instead of
 * the customer-month rows, exact also for a customer who charged at several operators in a month.
 */
let h: Harness;
let adminToken: string;
beforeAll(async () => {
  h = await createHarness();
  adminToken = (await h.login('admin')).access_token;
}, 120_000);
afterAll(() => h?.close());

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const MONTH = sql`date_trunc('month', start_date at time zone 'Europe/Berlin')::date`;

async function disagreements() {
  const result = await h.db.execute(sql`
    with raw as (
      select cpo_id, ${MONTH} as month, end_customer_id, count(*)::int as requests
      from charging_requests where end_customer_id is not null group by 1, 2, 3
    ),
    per_customer as (
      select 'requests' as t, coalesce(raw.cpo_id, r.cpo_id) as k, coalesce(raw.month, r.month)::text as month,
        raw.requests as raw_n, r.requests as rolled_n
      from raw full join (select * from charging_request_operator_customer_months where requests <> 0) r using (cpo_id, month, end_customer_id)
      where raw.requests is distinct from r.requests
    ),
    per_operator as (
      select 'customers' as t, coalesce(raw.cpo_id, r.cpo_id) as k, coalesce(raw.month, r.month)::text as month,
        raw.n as raw_n, r.customers as rolled_n
      from (select cpo_id, month, count(*)::int as n from raw group by 1, 2) raw
      full join (select * from active_user_months where customers <> 0) r using (cpo_id, month)
      where raw.n is distinct from r.customers
    ),
    per_month as (
      select 'operators' as t, coalesce(raw.end_customer_id, r.end_customer_id) as k, coalesce(raw.month, r.month)::text as month,
        raw.n as raw_n, r.operators as rolled_n
      from (select month, end_customer_id, count(*)::int as n from raw group by 1, 2) raw
      full join (select * from active_user_customer_months where operators <> 0) r using (month, end_customer_id)
      where raw.n is distinct from r.operators
    )
    select * from per_customer union all select * from per_operator union all select * from per_month`);
  return rowsOf(result);
}

const today = TEST_NOW.toISOString().slice(0, 10);
const range = chartRangeQuery('MONTHS_12', today);
const params = { graphType: 'ACTIVE_USERS' as const, unit: range.unit, startDate: range.startDate, endDate: range.endDate, locations: [] };

/** Distinct end customers per Berlin month of the range, counted from the requests. */
async function directCounts(scope: Scope) {
  const rows = rowsOf<{ label: string; n: number }>(
    await h.db.execute(sql`select to_char(${MONTH}, 'YYYY-MM') as label, count(distinct end_customer_id)::int as n
      from charging_requests
      where ${scope.where(chargingRequests.cpoId) ?? sql`true`}
        and (start_date at time zone 'Europe/Berlin')::date between ${range.startDate}::date and ${range.endDate}::date
      group by 1`),
  );
  return Object.fromEntries(rows.map((r) => [r.label, r.n]));
}

async function expectGraphExact(scopes: Scope[]) {
  for (const scope of scopes) {
    const answer = await getGraph(h.db, scope, params, today);
    const direct = await directCounts(scope);
    expect(answer.graphUnits).toHaveLength(12);
    for (const p of answer.graphUnits) expect(p.value, `${JSON.stringify(scope.operatorIds)} ${p.label}`).toBe(direct[p.label] ?? 0);
  }
}

describe('active-user roll-ups', () => {
  it('agree with direct counts after the seed, inserts, updates, deletes and the clean route; the graph stays exact', async () => {
    const [{ n }] = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from active_user_months where customers > 0`));
    expect(n).toBeGreaterThan(0);
    expect(await disagreements()).toEqual([]);
    const [a] = await h.db
      .select()
      .from(chargingRequests)
      .where(
        sql`${chargingRequests.endCustomerId} is not null and ${chargingRequests.startDate} >= ${new Date(`${range.startDate}T12:00:00Z`)}`,
      )
      .orderBy(chargingRequests.transactionId)
      .limit(1);
    const [b] = await h.db
      .select()
      .from(chargingRequests)
      .where(and(ne(chargingRequests.cpoId, a.cpoId), sql`${chargingRequests.endCustomerId} is not null`))
      .orderBy(chargingRequests.transactionId)
      .limit(1);
    const scopes = [makeScope('all'), makeScope([a.cpoId]), makeScope([a.cpoId, b.cpoId]), makeScope([b.cpoId])];
    // a's customer charges at b's operator in a's month too: counted once for whoever sees both operators.
    await h.db.insert(chargingRequests).values([
      { ...b, transactionId: 'AU-ROLLUP-1', endCustomerId: a.endCustomerId, startDate: a.startDate },
      { ...b, transactionId: 'AU-ROLLUP-2', endCustomerId: a.endCustomerId, startDate: a.startDate },
      { ...a, transactionId: 'AU-ROLLUP-3', endCustomerId: null },
    ]);
    expect(await disagreements()).toEqual([]);
    const [{ shared }] = rowsOf<{ shared: number }>(
      await h.db.execute(sql`select count(*)::int as shared from active_user_customer_months where operators > 1`),
    );
    expect(shared).toBeGreaterThan(0);
    await expectGraphExact(scopes);
    // A status change keeps (operator, month, customer): no roll-up row moves.
    // xmin: the writing transaction of each row's version, so a rewrite with the same values shows too.
    const versions = async () =>
      rowsOf(
        await h.db.execute(
          sql`select xmin::text as v, cpo_id, month::text, end_customer_id from charging_request_operator_customer_months order by 2, 3, 4`,
        ),
      );
    const before = await versions();
    await h.db.update(chargingRequests).set({ status: 'finished' }).where(eq(chargingRequests.transactionId, 'AU-ROLLUP-1'));
    expect(await versions()).toEqual(before);
    // One statement moving rows between months, customers and operators at once.
    await h.db.transaction(async (tx) => {
      await tx
        .update(chargingRequests)
        .set({ startDate: new Date('2025-12-31T23:30:00Z') })
        .where(eq(chargingRequests.transactionId, 'AU-ROLLUP-2'));
      await tx
        .update(chargingRequests)
        .set({ endCustomerId: sql`case when ${chargingRequests.transactionId} = 'AU-ROLLUP-3' then ${b.endCustomerId} else null end` })
        .where(sql`${chargingRequests.transactionId} in ('AU-ROLLUP-1', 'AU-ROLLUP-3')`);
    });
    expect(await disagreements()).toEqual([]);
    await expectGraphExact(scopes);
    await h.db
      .delete(chargingRequests)
      .where(sql`${chargingRequests.transactionId} like 'AU-ROLLUP-%' or ${chargingRequests.transactionId} = ${a.transactionId}`);
    expect(await disagreements()).toEqual([]);
    await expectGraphExact(scopes);
    const res = await h.request('PUT', '/bff/charging-requests/clean', { token: adminToken, body: { minutesThreshold: 1 } });
    expect(res.status).toBe(200);
    expect(await disagreements()).toEqual([]);
  }, 60_000);

  it('the 12-month graph reads a row per operator and month, never the customer-month rows, the month to date included', async () => {
    for (const scope of [makeScope('all'), makeScope(['CPO1001'])]) {
      const plans = await plansOf(h.db, () => getGraph(h.db, scope, params, today));
      const nodes = plans.flatMap((p) => planNodes(p.plan));
      const relations = new Set(nodes.map((n) => n['Relation Name']).filter((r) => r !== undefined));
      expect(relations.has('charging_request_customer_months')).toBe(false);
      // The month to date's requests are read only when the caller has some after today (never executed here).
      expect(nodes.filter((n) => n['Relation Name'] === 'charging_requests').reduce((s, n) => s + rowsRead(n), 0)).toBe(0);
      expect(relations.has('active_user_months')).toBe(true);
      const read = nodes.filter((n) => n['Relation Name']?.startsWith('active_user')).reduce((s, n) => s + rowsRead(n), 0);
      const [held] = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from active_user_months`));
      // Its rows at most twice (the whole months, the month to date), the test data's few shared customers besides.
      expect(read).toBeLessThanOrEqual(2 * held.n + 10);
    }
  }, 60_000);
});
