import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { regenerateBills } from '../bills/regenerate';
import { runBills } from '../bills/run';
import type { Db } from '../db/client';
import { createHarness, TEST_NOW, type Harness } from '../test/harness';

/**
 * Issue 34: the list roll-ups of migration 0016_list_rollups (connector_station_counts, connector_counts,
 * bill_days, bill_months) equal a fresh count after every kind of write: random inserts, removals,
 * restores, moves, status changes and deletes of connectors, the bill run, regenerate and status
 * changes of bills, and concurrent writers (on PostgreSQL really concurrent).
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(() => h?.close());

const rows = async <T>(db: Db, query: ReturnType<typeof sql>) => (await db.execute(query)) as unknown as { rows: T[] };

async function expectRollupsExact(db: Db, when: string) {
  const fresh = async (query: ReturnType<typeof sql>) =>
    (await rows<Record<string, unknown>>(db, query)).rows.map((r) => JSON.stringify(r));
  expect(
    await fresh(sql`select cpo_id, location_key, cp_id, connectors, live_connectors from connector_station_counts
      where connectors <> 0 or live_connectors <> 0 order by 1, 2, 3`),
    when,
  ).toEqual(
    await fresh(sql`select cpo_id, coalesce(location_id, '') as location_key, cp_id, count(*)::int as connectors,
      (count(*) filter (where not removed))::int as live_connectors from connectors group by 1, 2, 3 order by 1, 2, 3`),
  );
  expect(
    await fresh(sql`select cpo_id, location_key, connectors, live_connectors, stations, live_stations from connector_counts
      where connectors <> 0 or stations <> 0 order by 1, 2`),
    when,
  ).toEqual(
    await fresh(sql`select cpo_id, coalesce(location_id, '') as location_key, count(*)::int as connectors,
      (count(*) filter (where not removed))::int as live_connectors, count(distinct cp_id)::int as stations,
      (count(distinct cp_id) filter (where not removed))::int as live_stations
      from connectors group by 1, 2 order by 1, 2`),
  );
  const billsBy = (unit: 'day' | 'month') =>
    fresh(sql`select cpo_id, ${sql.raw(unit === 'day' ? `(bill_generation_date at time zone 'Europe/Berlin')::date` : `date_trunc('month', bill_generation_date at time zone 'Europe/Berlin')::date`)}::text as at,
      coalesce(billing_status, '') as status_key, coalesce(payment_method, '') as payment_method_key, user_type, count(*)::int as bills
      from bills group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`);
  expect(
    await fresh(
      sql`select cpo_id, day::text as at, status_key, payment_method_key, user_type, bills from bill_days where bills <> 0 order by 1, 2, 3, 4, 5`,
    ),
    when,
  ).toEqual(await billsBy('day'));
  expect(
    await fresh(
      sql`select cpo_id, month::text as at, status_key, payment_method_key, user_type, bills from bill_months where bills <> 0 order by 1, 2, 3, 4, 5`,
    ),
    when,
  ).toEqual(await billsBy('month'));
  const billsPerOperator = (unit: 'day' | 'month') =>
    fresh(sql`select cpo_id, ${sql.raw(unit === 'day' ? `(bill_generation_date at time zone 'Europe/Berlin')::date` : `date_trunc('month', bill_generation_date at time zone 'Europe/Berlin')::date`)}::text as at,
      count(*)::int as bills from bills group by 1, 2 order by 1, 2`);
  expect(await fresh(sql`select cpo_id, day::text as at, bills from bill_operator_days where bills <> 0 order by 1, 2`), when).toEqual(
    await billsPerOperator('day'),
  );
  expect(await fresh(sql`select cpo_id, month::text as at, bills from bill_operator_months where bills <> 0 order by 1, 2`), when).toEqual(
    await billsPerOperator('month'),
  );
  const negative = await rows<{ n: number }>(
    db,
    sql`select ((select count(*) from connector_counts where connectors < 0 or live_connectors < 0 or stations < 0 or live_stations < 0)
      + (select count(*) from connector_station_counts where connectors < 0 or live_connectors < 0)
      + (select count(*) from bill_days where bills < 0) + (select count(*) from bill_months where bills < 0)
      + (select count(*) from bill_operator_days where bills < 0) + (select count(*) from bill_operator_months where bills < 0))::int as n`,
  );
  expect(negative.rows[0].n, when).toBe(0);
}

/** A small deterministic random stream (mulberry32), so a failure repeats. */
function randomStream(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('list roll-ups', () => {
  it('equal fresh counts after the seed and after random writes of every kind to connectors', async () => {
    await expectRollupsExact(h.db, 'after the seed');
    const locations = (
      await rows<{ id: string; cpo: string }>(h.db, sql`select location_id as id, cpo_id as cpo from locations order by 1`)
    ).rows;
    const [model] = (await rows<{ name: string }>(h.db, sql`select name from wallbox_models order by name limit 1`)).rows;
    const random = randomStream(34);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)];
    const station = async () =>
      (await rows<{ cp: string }>(h.db, sql`select cp_id as cp from connectors order by cp_id offset ${Math.floor(random() * 50)} limit 1`))
        .rows[0]?.cp;
    let n = 0;
    const writes: [string, () => Promise<unknown>][] = [
      [
        'insert stations',
        async () => {
          const at = pick(locations);
          const unplaced = random() < 0.2;
          const stations = 1 + Math.floor(random() * 3);
          const per = 1 + Math.floor(random() * 2);
          n++;
          return h.db.execute(sql`insert into connectors (connector_id, cp_id, connector_number, cpo_id, location_id, wallbox_model)
            select 'RND' || ${n} || '-' || s || '_' || k, 'RND' || ${n} || '-' || s, k, ${at.cpo}, ${unplaced ? null : at.id}, ${model.name}
            from generate_series(1, ${stations}) s, generate_series(1, ${per}) k`);
        },
      ],
      [
        'remove one connector',
        async () =>
          h.db.execute(
            sql`update connectors set removed = true where connector_id = (select min(connector_id) from connectors where cp_id = ${await station()})`,
          ),
      ],
      ['remove a station', async () => h.db.execute(sql`update connectors set removed = true where cp_id = ${await station()}`)],
      ['restore a station', async () => h.db.execute(sql`update connectors set removed = false where cp_id = ${await station()}`)],
      [
        'move a station',
        async () => {
          const cp = await station();
          const to = pick(locations);
          return h.db.execute(
            sql`update connectors set location_id = ${to.id}, cpo_id = ${to.cpo}, parking_lot = null where cp_id = ${cp}`,
          );
        },
      ],
      [
        'status change',
        async () => h.db.execute(sql`update connectors set status = 'IDLE', version = version + 1 where cp_id = ${await station()}`),
      ],
      [
        'add a connector to a station',
        async () => {
          n++;
          return h.db.execute(sql`insert into connectors (connector_id, cp_id, connector_number, cpo_id, location_id, wallbox_model)
            select cp_id || '_x' || ${n}, cp_id, 9, cpo_id, location_id, wallbox_model from connectors where cp_id = ${await station()} limit 1`);
        },
      ],
      [
        'delete one connector',
        async () =>
          h.db
            .execute(sql`delete from connectors c where connector_id = (select max(connector_id) from connectors where cp_id = ${await station()})
            and not exists (select 1 from charging_requests r where r.connector_id = c.connector_id)`),
      ],
      ['heartbeats of all', () => h.db.execute(sql`update connectors set last_heartbeat = now()`)],
      [
        'delete a station',
        async () =>
          h.db.execute(
            sql`delete from connectors c where cp_id = ${await station()} and not exists (select 1 from charging_requests r where r.connector_id = c.connector_id)`,
          ),
      ],
    ];
    for (let i = 0; i < 60; i++) {
      const [name, write] = pick(writes);
      await write();
      await expectRollupsExact(h.db, `after write ${i}: ${name}`);
    }
  }, 60_000);

  it('equal fresh counts after the bill run, regenerate, status and payment changes of bills', async () => {
    await runBills(h.db, '2026-02', { now: TEST_NOW });
    await expectRollupsExact(h.db, 'after the bill run');
    const generated = (
      await rows<{ n: string }>(h.db, sql`select bill_number as n from bills where billing_status = 'GENERATED' order by 1 limit 3`)
    ).rows;
    await regenerateBills(h.db, { billNumbers: generated.map((g) => g.n).slice(0, 1) }, new Date(TEST_NOW.getTime() + 86_400_000 * 20));
    await expectRollupsExact(h.db, 'after regenerate');
    await h.db.execute(
      sql`update bills set billing_status = 'PAID' where bill_number in (select bill_number from bills order by bill_number limit 5)`,
    );
    await h.db.execute(
      sql`update bills set payment_method = null, billing_status = null where bill_number in (select bill_number from bills order by bill_number desc limit 3)`,
    );
    await h.db.execute(sql`update bills set bill_download_date = now()`);
    await h.db.execute(
      sql`update bills set bill_generation_date = bill_generation_date - interval '40 days' where bill_number in (select bill_number from bills order by bill_number limit 4)`,
    );
    await expectRollupsExact(h.db, 'after status, method and date changes');
    await h.db.execute(sql`delete from bills where bill_number in (select bill_number from bills order by bill_number desc limit 2)`);
    await expectRollupsExact(h.db, 'after deletes');
  }, 60_000);

  it('equal fresh counts after concurrent writers at one location and one operator-day', async () => {
    const [at] = (
      await rows<{ id: string; cpo: string }>(h.db, sql`select location_id as id, cpo_id as cpo from locations order by 1 limit 1`)
    ).rows;
    const [model] = (await rows<{ name: string }>(h.db, sql`select name from wallbox_models order by name limit 1`)).rows;
    const [contract] = (await rows<{ key: string }>(h.db, sql`select contract_key as key from contracts where cpo_id = ${at.cpo} limit 1`))
      .rows;
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        h.db.transaction(async (tx) => {
          await tx.execute(sql`insert into connectors (connector_id, cp_id, connector_number, cpo_id, location_id, wallbox_model)
            select 'CON' || ${w} || '-' || g || '_1', 'CON' || ${w} || '-' || g, 1, ${at.cpo}, ${at.id}, ${model.name} from generate_series(1, 20) g`);
          await tx.execute(sql`update connectors set removed = true where cp_id like ${`CON${w}-1%`}`);
          await tx.execute(sql`insert into bills (bill_id, bill_number, contract_key, cpo_id, end_customer_id, end_customer_first_name,
              end_customer_last_name, user_type, start_date, end_date, billing_status, payment_method, bill_generation_date, month_number,
              year_number, charging_request_id)
            select 'CON-' || ${w} || '-' || g, 'CON-' || ${w} || '-' || g, ${contract.key}, ${at.cpo}, 'CON', 'Erika', 'Muster', 'REGULAR',
              '2026-03-01', '2026-03-31', 'GENERATED', 'SEPA', ${TEST_NOW.toISOString()}::timestamptz, 3, 2026, 'con-' || ${w} || '-' || g
            from generate_series(1, 5) g`);
          await tx.execute(sql`update bills set billing_status = 'SENT' where bill_id = ${`CON-${w}-1`}`);
        }),
      ),
    );
    await expectRollupsExact(h.db, 'after concurrent writers');
  }, 60_000);
});
