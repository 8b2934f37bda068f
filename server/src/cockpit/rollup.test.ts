import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargingRequests } from '../db/schema/cockpit';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = (await h.login('admin')).access_token;
});
afterAll(() => h?.close());

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** Rows of the daily and monthly roll-ups that differ from the raw sums per Berlin day (month), operator, location and status. */
async function disagreements() {
  const out: unknown[] = [];
  for (const [table, key, expr] of [
    ['charging_request_days', 'day', sql`(start_date at time zone 'Europe/Berlin')::date`],
    ['charging_request_months', 'month', sql`date_trunc('month', start_date at time zone 'Europe/Berlin')::date`],
  ] as const) {
    const result = await h.db.execute(sql`
      with raw as (
        select ${expr} as at, cpo_id, location_id, status,
               count(*)::int as requests, sum(energy_kwh) as energy_kwh, sum(cost) as cost
        from charging_requests group by 1, 2, 3, 4
      ),
      rolled as (select ${sql.identifier(key)} as at, * from ${sql.identifier(table)} where requests <> 0)
      select ${table}::text as t, coalesce(raw.at, rolled.at)::text as at, raw.requests as raw_n, rolled.requests as rolled_n
      from raw full join rolled using (at, cpo_id, location_id, status)
      where raw.requests is distinct from rolled.requests
         or raw.energy_kwh is distinct from rolled.energy_kwh
         or raw.cost is distinct from rolled.cost`);
    out.push(...rowsOf(result));
  }
  // The customers per operator, location and Berlin month (the active-users graph).
  const customers = await h.db.execute(sql`
    with raw as (
      select date_trunc('month', start_date at time zone 'Europe/Berlin')::date as month, cpo_id, location_id, end_customer_id,
             count(*)::int as requests
      from charging_requests where end_customer_id is not null group by 1, 2, 3, 4
    ),
    rolled as (select * from charging_request_customer_months where requests <> 0)
    select 'charging_request_customer_months' as t, coalesce(raw.month, rolled.month)::text as at, raw.requests as raw_n, rolled.requests as rolled_n
    from raw full join rolled using (month, cpo_id, location_id, end_customer_id)
    where raw.requests is distinct from rolled.requests`);
  out.push(...rowsOf(customers));
  // All-time requests per operator and status (the charging history's total without dates).
  const totals = await h.db.execute(sql`
    with raw as (select cpo_id, status, count(*)::int as requests from charging_requests group by 1, 2),
    rolled as (select * from charging_request_totals where requests <> 0)
    select 'charging_request_totals' as t, coalesce(raw.status, rolled.status) as at, raw.requests as raw_n, rolled.requests as rolled_n
    from raw full join rolled using (cpo_id, status)
    where raw.requests is distinct from rolled.requests`);
  out.push(...rowsOf(totals));
  return out;
}

describe('charging_request_days and charging_request_months (roll-ups)', () => {
  it('agrees with the raw sums after the seed', async () => {
    for (const table of [
      'charging_request_days',
      'charging_request_months',
      'charging_request_customer_months',
      'charging_request_totals',
    ]) {
      const [{ n }] = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`));
      expect(n).toBeGreaterThan(0);
    }
    expect(await disagreements()).toEqual([]);
  });

  it('follows inserts, updates (status, energy, day, connector, end customer) and deletes', async () => {
    const [a, b] = await h.db.select().from(chargingRequests).orderBy(chargingRequests.transactionId).limit(2);
    await h.db.transaction(async (tx) => {
      await tx.insert(chargingRequests).values({ ...a, transactionId: 'ROLLUP-TEST-1', startDate: new Date('2026-03-29T00:30:00Z') });
      await tx
        .update(chargingRequests)
        .set({
          status: 'finished',
          energyKwh: '12.345',
          cost: '3.21',
          startDate: new Date('2025-12-31T23:30:00Z'),
          connectorId: b.connectorId,
          endCustomerId: b.endCustomerId === a.endCustomerId ? null : b.endCustomerId,
        })
        .where(sql`${chargingRequests.transactionId} = ${a.transactionId}`);
    });
    expect(await disagreements()).toEqual([]);
    await h.db.delete(chargingRequests).where(sql`${chargingRequests.transactionId} in ('ROLLUP-TEST-1', ${b.transactionId})`);
    expect(await disagreements()).toEqual([]);
  });

  it('follows the clean route', async () => {
    const res = await h.request('PUT', '/bff/charging-requests/clean', { token: admin, body: { minutesThreshold: 1 } });
    expect(res.status).toBe(200);
    expect(await disagreements()).toEqual([]);
  });
});

describe('list totals without counting every row per page', () => {
  const history = '/booking-service/bookings/get-charging-history';
  const count = async (where: ReturnType<typeof sql>) =>
    rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from charging_requests where ${where}`))[0].n;

  it('history: the total equals the raw count, on the first, the last and a page past the end', async () => {
    const cases: [Record<string, string>, ReturnType<typeof sql>][] = [
      [{}, sql`true`],
      [{ filters: 'Completed' }, sql`status = 'finished'`],
      [
        { filters: 'Failed,Pending' },
        sql`status in ('denied', 'denied_parking_timer', 'terminated_not_started', 'terminated_rejected', 'broken', 'processing', 'accepted', 'connected')`,
      ],
      [
        { startDate: '2026-01-01', endDate: '2026-03-31' },
        sql`start_date >= '2026-01-01 00:00 Europe/Berlin' and start_date < '2026-04-01 00:00 Europe/Berlin'`,
      ],
      // Ragged ends: days before and after the whole months, within one month, open on one side.
      [
        { startDate: '2025-12-17', endDate: '2026-03-09' },
        sql`start_date >= '2025-12-17 00:00 Europe/Berlin' and start_date < '2026-03-10 00:00 Europe/Berlin'`,
      ],
      [
        { startDate: '2026-02-03', endDate: '2026-02-20', filters: 'Completed' },
        sql`status = 'finished' and start_date >= '2026-02-03 00:00 Europe/Berlin' and start_date < '2026-02-21 00:00 Europe/Berlin'`,
      ],
      [
        { startDate: '2026-01-31', endDate: '2026-02-01' },
        sql`start_date >= '2026-01-31 00:00 Europe/Berlin' and start_date < '2026-02-02 00:00 Europe/Berlin'`,
      ],
      [{ startDate: '2025-12-17' }, sql`start_date >= '2025-12-17 00:00 Europe/Berlin'`],
      [{ endDate: '2026-03-09' }, sql`start_date < '2026-03-10 00:00 Europe/Berlin'`],
    ];
    for (const [params, where] of cases) {
      const expected = await count(where);
      const size = 7;
      const lastPage = Math.max(0, Math.ceil(expected / size) - 1);
      for (const page of [0, lastPage, lastPage + 1]) {
        const res = await h.request('GET', `${history}?${new URLSearchParams({ ...params, page: String(page), size: String(size) })}`, {
          token: admin,
        });
        expect(res.status).toBe(200);
        const label = JSON.stringify({ params, page });
        expect(res.body.data.totalNumberOfRecords, label).toBe(expected);
        const onPage = Math.min(size, Math.max(0, expected - page * size));
        expect(res.body.data.response.length, label).toBe(onPage);
      }
    }
  });

  it('history without dates as an operator: the total of its own operators only (all-time totals per operator and status)', async () => {
    const { access_token } = await h.login('operator');
    const cpoIds = (JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString()) as { cpo_id: string[] }).cpo_id;
    expect(cpoIds.length).toBeGreaterThan(0);
    const own = sql.join(
      cpoIds.map((id) => sql`${id}`),
      sql`, `,
    );
    for (const [params, where] of [
      [{}, sql`true`],
      [{ filters: 'Completed' }, sql`status = 'finished'`],
    ] as const) {
      const expected = await count(sql`cpo_id in (${own}) and ${where}`);
      expect(expected).toBeLessThan(await count(where));
      const res = await h.request('GET', `${history}?${new URLSearchParams({ ...params, page: '0', size: '5' })}`, { token: access_token });
      expect(res.body.data.totalNumberOfRecords, JSON.stringify(params)).toBe(expected);
    }
  });

  it('history by end customer counts exactly', async () => {
    const [{ id }] = rowsOf<{ id: string }>(
      await h.db.execute(
        sql`select end_customer_id as id from charging_requests where end_customer_id is not null group by 1 order by count(*) desc limit 1`,
      ),
    );
    const expected = await count(sql`end_customer_id = ${id}`);
    const res = await h.request('GET', `${history}?endCustomerId=${encodeURIComponent(id)}&page=0&size=1`, { token: admin });
    expect(res.body.data.totalNumberOfRecords).toBe(expected);
  });

  it('connectors, locations, operators and a location’s contracts: the last page and a page past the end report the total', async () => {
    const [{ id }] = rowsOf<{ id: string }>(
      await h.db.execute(
        sql`select location_id as id from contracts where location_id is not null group by 1 order by count(*) desc limit 1`,
      ),
    );
    const paths = ['/bff/connectors/get-by-cpo', '/bff/locations/get-by-cpo', '/bff/cpos', `/contract-management/location/${id}/contracts`];
    for (const path of paths) {
      const first = await h.request('GET', `${path}?page=0&size=3`, { token: admin });
      const total = first.body.data.totalNumberOfRecords as number;
      expect(total).toBeGreaterThan(3);
      const all = await h.request('GET', `${path}?page=0&size=10000`, { token: admin });
      expect(all.body.data.response.length).toBe(total);
      const lastPage = Math.ceil(total / 3) - 1;
      const last = await h.request('GET', `${path}?page=${lastPage}&size=3`, { token: admin });
      expect(last.body.data.totalNumberOfRecords).toBe(total);
      expect(last.body.data.response.length).toBe(total - lastPage * 3);
      const past = await h.request('GET', `${path}?page=${lastPage + 1}&size=3`, { token: admin });
      expect(past.body.data).toEqual({ totalNumberOfRecords: total, response: [] });
    }
  });
});
