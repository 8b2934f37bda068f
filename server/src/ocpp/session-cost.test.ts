import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDueTariffChanges } from '../contracts/tariff-history';
import type { Db, DbHandle } from '../db/client';
import { createSeededTestDb } from '../test/databases';
import { costRollupMismatches, independentRequestCosts } from '../test/request-costs';
import { connectorPlace, contractForTag, insertTransaction, nextTransactionId, recordMeter, stopTransaction } from './queries';

/**
 * A charging request's cost (issue 35): the contract's tariff in force on the session's Berlin
 * start day, by the bills' rule, whatever the contract's tariff is today; a tariff change never
 * reprices a session, neither a finished one nor one still running. And migration 0022 puts the
 * same costs on the rows written before.
 */

let handle: DbHandle;
let db: Db;
const rows = async <T>(q: ReturnType<typeof sql>) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;

beforeAll(async () => {
  ({ handle } = await createSeededTestDb());
  db = handle.db;
});
afterAll(async () => {
  await handle?.close();
});

/** An ACTIVE contract's tag and a connector of its operator, with the contract's tariff history made known here. */
async function fixture() {
  const [f] = await rows<{ cp_id: string; connector_id: string; tag: string; contract_key: string }>(sql`
    select c.cp_id, c.connector_id, r.rfid_tag as tag, k.contract_key
    from connectors c
    join contracts k on k.cpo_id = c.cpo_id and k.contract_status = 'ACTIVE'
    join rfid_tags r on r.contract_key = k.contract_key
    where c.removed = false and c.location_id is not null
    order by c.connector_id, r.rfid_tag limit 1`);
  // Until February 0.39 €/kWh and 0.50 € a request; from 1 March (Berlin) 0.30 € and no fee: today's tariff.
  await db.execute(sql`delete from pending_tariff_changes where contract_key = ${f.contract_key}`);
  await db.execute(sql`delete from contract_tariffs where contract_key = ${f.contract_key}`);
  await db.execute(sql`
    insert into contract_tariffs (contract_key, valid_from, fix_tariff, var_tariff, onboarding_fee, fix_tariff_per_charging_request)
    values (${f.contract_key}, '2026-01-01', 9.90, 0.3900, 0, 0.50), (${f.contract_key}, '2026-03-01', 9.90, 0.3000, 0, 0)`);
  await db.execute(
    sql`update contracts set var_tariff = 0.3000, fix_tariff_per_charging_request = 0 where contract_key = ${f.contract_key}`,
  );
  return f;
}

async function startSession(f: Awaited<ReturnType<typeof fixture>>, startedAt: string) {
  const transactionId = await nextTransactionId(db);
  const contract = (await contractForTag(db, f.cp_id, f.tag))!;
  const place = (await connectorPlace(db, f.connector_id))!;
  await insertTransaction(db, {
    transactionId,
    cpId: f.cp_id,
    connectorId: f.connector_id,
    idTag: f.tag,
    meterStartWh: 1_000,
    startedAt: new Date(startedAt),
    request: { place: { ...place, locationId: place.locationId! }, contract, status: 'charging' },
  });
  return transactionId;
}

const costOf = async (transactionId: number) =>
  (
    await rows<{ cost: string; energy: string }>(sql`
    select cost::text as cost, energy_kwh::text as energy from charging_requests where transaction_id = ${`OCPP${transactionId}`}`)
  )[0];

describe('a session’s cost', () => {
  it('comes from the tariff in force on its Berlin start day, rounded half up once, and a tariff change reprices no session', async () => {
    const f = await fixture();
    // 28 Feb 23:30 in Berlin: February's tariff. 12.5 kWh × 0.39 = 4.875 → 4.88, + 0.50.
    const february = await startSession(f, '2026-02-28T22:30:00Z');
    // 1 March 00:30 in Berlin (still 28 Feb in UTC): March's tariff. 12.5 kWh × 0.30 = 3.75.
    const march = await startSession(f, '2026-02-28T23:30:00Z');
    await recordMeter(db, f.cp_id, february, 7_000);
    expect(await costOf(february)).toEqual({ energy: '6.000', cost: '2.84' });
    await stopTransaction(db, f.cp_id, {
      transactionId: february,
      meterStopWh: 13_500,
      at: new Date('2026-03-01T01:00:00Z'),
      reason: null,
    });
    await recordMeter(db, f.cp_id, march, 7_000);
    expect(await costOf(february)).toEqual({ energy: '12.500', cost: '5.38' });
    expect(await costOf(march)).toEqual({ energy: '6.000', cost: '1.80' });

    // A tariff change takes effect while the March session runs: neither session follows it.
    await db.execute(sql`
      insert into pending_tariff_changes (contract_key, new_tariff_date, new_tariff_cancellation_date, fix_tariff, var_tariff, fix_tariff_per_charging_request)
      values (${f.contract_key}, '2026-03-10', '2027-03-10', 9.90, 0.9000, 1.00)`);
    expect(await applyDueTariffChanges(db, '2026-03-15')).toBeGreaterThanOrEqual(1);
    const [today] = await rows<{ var: string }>(sql`select var_tariff::text as var from contracts where contract_key = ${f.contract_key}`);
    expect(today.var).toBe('0.9000');
    await stopTransaction(db, f.cp_id, { transactionId: march, meterStopWh: 13_500, at: new Date('2026-03-10T12:00:00Z'), reason: null });
    expect(await costOf(march)).toEqual({ energy: '12.500', cost: '3.75' });
    expect(await costOf(february)).toEqual({ energy: '12.500', cost: '5.38' });

    // One after the change: its tariff.
    const after = await startSession(f, '2026-03-12T08:00:00Z');
    await stopTransaction(db, f.cp_id, { transactionId: after, meterStopWh: 2_000, at: new Date('2026-03-12T09:00:00Z'), reason: null });
    expect(await costOf(after)).toEqual({ energy: '1.000', cost: '1.90' });
  });
});

describe('migration 0022', () => {
  it('recomputes every stored cost from the tariff history, and the roll-ups follow', async () => {
    // The costs as the seed wrote them before: today's tariff for every session, in binary floats.
    await db.execute(sql`
      update charging_requests q set cost = case when q.energy_kwh > 0
        then round((q.energy_kwh::float8 * coalesce(c.var_tariff, 0)::float8 + coalesce(c.fix_tariff_per_charging_request, 0)::float8)::numeric, 2)
        else 0 end
      from contracts c where c.contract_key = q.contract_key`);
    const wrong = await rows<{ stored_cents: string; cents: string }>(independentRequestCosts);
    expect(wrong.filter((r) => r.stored_cents !== r.cents).length).toBeGreaterThan(10);

    await db.execute(
      sql.raw(readFileSync(new URL('../db/migrations/0022_request_costs_from_tariff_history.sql', import.meta.url), 'utf8')),
    );
    const costs = await rows<{ transaction_id: string; stored_cents: string; cents: string }>(independentRequestCosts);
    expect(costs.length).toBeGreaterThan(1000);
    expect(costs.filter((r) => r.stored_cents !== r.cents)).toEqual([]);

    expect(await rows(costRollupMismatches)).toEqual([]);
  });
});
