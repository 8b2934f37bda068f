import { createHash } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berlinDate, editContractBodySchema } from '../../../contract/contracts';
import { billStatuses, chargingRequestStatuses, connectorStatuses, contractStatuses, userTypes } from '../../../contract/enums';
import { isBic, isCreditorId, isIban } from '../../../contract/operators';
import { createDb, type Db, type DbHandle } from '../db/client';
import { dashboardUsers } from '../db/schema/auth';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { customers } from '../db/schema/customers';
import { locations } from '../db/schema/locations';
import { operators } from '../db/schema/operators';
import { paymentCheckouts, paymentEvents } from '../db/schema/payments';
import { connectors } from '../db/schema/stations';
import { testEnv } from '../env';
import { collectSentBills } from '../payments/collection';
import { createEmptyTestDb, TEST_NOW, testDatabaseUrl } from '../test/databases';
import { costRollupMismatches, independentRequestCosts } from '../test/request-costs';
import { seedDatabase, seedIfEmpty, type SeedResult } from './seed';

const handles: DbHandle[] = [];
/** An empty database (PostgreSQL with TEST_DATABASE_URL, else PGlite), then seeded here. */
async function seeded(size: 'small' | 'demo'): Promise<{ db: Db; result: SeedResult }> {
  const handle = await createEmptyTestDb();
  handles.push(handle);
  return { db: handle.db, result: await seedDatabase(handle.db, { size, now: TEST_NOW }) };
}
afterAll(async () => {
  for (const h of handles) await h.close();
});

/** Hash over every id of the data set: equal hashes mean equal ids in equal order. */
async function idFingerprint(db: Db) {
  const hash = createHash('sha256');
  const add = (rows: Record<string, unknown>[]) => rows.forEach((r) => hash.update(JSON.stringify(r)));
  add(await db.select({ id: customers.customerId }).from(customers).orderBy(asc(customers.customerId)));
  add(await db.select({ id: operators.cpoId, n: operators.cpoName }).from(operators).orderBy(asc(operators.cpoId)));
  add(await db.select({ id: dashboardUsers.id, e: dashboardUsers.email }).from(dashboardUsers).orderBy(asc(dashboardUsers.id)));
  add(await db.select({ id: locations.locationId, n: locations.locationName }).from(locations).orderBy(asc(locations.locationId)));
  add(
    await db
      .select({ id: connectors.connectorId, s: connectors.status, p: connectors.parkingLot })
      .from(connectors)
      .orderBy(asc(connectors.connectorId)),
  );
  add(await db.select({ id: contracts.contractKey, e: contracts.endCustomerId }).from(contracts).orderBy(asc(contracts.contractKey)));
  add(
    await db
      .select({ id: chargingRequests.transactionId, c: chargingRequests.connectorId, e: chargingRequests.energyKwh })
      .from(chargingRequests)
      .orderBy(asc(chargingRequests.transactionId)),
  );
  add(await db.select({ id: bills.billNumber, t: bills.totalTaxedCosts }).from(bills).orderBy(asc(bills.billNumber)));
  return hash.digest('hex');
}

describe('seed', () => {
  let a: { db: Db; result: SeedResult };
  let b: { db: Db; result: SeedResult };
  beforeAll(async () => {
    a = await seeded('small');
    b = await seeded('small');
  });

  it('is deterministic: same counts and same ids twice', async () => {
    expect(a.result.counts).toEqual(b.result.counts);
    expect(await idFingerprint(a.db)).toBe(await idFingerprint(b.db));
  });

  it('has the small sizes', () => {
    expect(a.result.counts).toMatchObject({
      operators: 4,
      locations: 6,
      connectors: 60,
      contracts: 150,
      chargingRequests: 3000,
    });
    expect(a.result.counts.bills).toBeGreaterThan(50);
  });

  it('keeps every contract tariff history: the start tariff, each applied change at its date, the tariff of today last', async () => {
    const result = await a.db.execute(sql`
        select c.contract_key, c.start_date::text as start, c.fix_tariff::text as fix, c.var_tariff::text as var,
          (select json_agg(json_build_object('from', t.valid_from, 'fix', t.fix_tariff, 'var', t.var_tariff) order by t.valid_from)
             from contract_tariffs t where t.contract_key = c.contract_key) as history,
          (select json_agg(p.new_tariff_date order by p.new_tariff_date)
             from pending_tariff_changes p where p.contract_key = c.contract_key and p.applied_at is not null) as applied
        from contracts c`);
    const rows = (result as unknown as { rows: unknown[] }).rows as {
      start: string;
      fix: string | null;
      var: string | null;
      history: { from: string; fix: number; var: number }[];
      applied: string[] | null;
    }[];
    expect(rows).toHaveLength(a.result.counts.contracts);
    for (const r of rows) {
      expect(r.history[0].from).toBe(r.start);
      expect(r.history.slice(1).map((t) => t.from)).toEqual(r.applied ?? []);
      const today = r.history.at(-1)!;
      expect([Number(today.fix), Number(today.var)]).toEqual([Number(r.fix ?? 0), Number(r.var ?? 0)]);
    }
    expect(rows.filter((r) => r.history.length > 1).length).toBeGreaterThan(3);
  });

  it("costs each session by its contract's tariff in force on its Berlin start day, to the cent, as an independent recomputation", async () => {
    const costs = (await a.db.execute(independentRequestCosts)) as unknown as { rows: { stored_cents: string; cents: string }[] };
    expect(costs.rows).toHaveLength(a.result.counts.chargingRequests);
    expect(costs.rows.filter((r) => r.stored_cents !== r.cents)).toEqual([]);
    // Sessions before a tariff change are there, priced by the tariff before it.
    const [{ n }] = (
      (await a.db.execute(sql`
        select count(*)::int as n from charging_requests q join contracts c on c.contract_key = q.contract_key
        where q.energy_kwh > 0 and (q.start_date at time zone 'Europe/Berlin')::date <
          (select max(t.valid_from) from contract_tariffs t where t.contract_key = q.contract_key)`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(n).toBeGreaterThan(20);
    expect(await a.db.execute(costRollupMismatches).then((r) => (r as unknown as { rows: unknown[] }).rows)).toEqual([]);
  });

  it('collects a PAID bill on a day after its bill date and never after today', async () => {
    const paid = await a.db
      .select({ generated: bills.billGenerationDate, collected: bills.billCollectionDate, method: bills.paymentMethod })
      .from(bills)
      .where(eq(bills.billingStatus, 'PAID'));
    const collected = paid.filter((b) => b.collected);
    expect(collected.length).toBeGreaterThan(20);
    for (const b of collected) {
      expect(berlinDate(b.collected!) > berlinDate(b.generated)).toBe(true);
      expect(b.collected!.getTime()).toBeLessThanOrEqual(TEST_NOW.getTime());
    }
    // Bills of every seeded month are collected, the last one's among them.
    const lastMonth = berlinDate(new Date(TEST_NOW.getTime() - 20 * 86_400_000)).slice(0, 7);
    expect(collected.some((b) => berlinDate(b.generated) >= lastMonth)).toBe(true);
  });

  it('covers every status and type the lists filter on', async () => {
    const values = async <T>(q: Promise<{ v: T }[]>) => new Set((await q).map((r) => r.v));
    expect(await values(a.db.selectDistinct({ v: connectors.status }).from(connectors))).toEqual(new Set(connectorStatuses));
    expect(await values(a.db.selectDistinct({ v: contracts.contractStatus }).from(contracts))).toEqual(new Set(contractStatuses));
    expect(await values(a.db.selectDistinct({ v: contracts.userType }).from(contracts))).toEqual(new Set(userTypes));
    expect(await values(a.db.selectDistinct({ v: chargingRequests.status }).from(chargingRequests))).toEqual(
      new Set(chargingRequestStatuses),
    );
    expect(await values(a.db.selectDistinct({ v: bills.billingStatus }).from(bills))).toEqual(new Set(billStatuses));

    const unavailable = await a.db
      .select({ lot: connectors.parkingLot, removed: connectors.removed })
      .from(connectors)
      .where(sql`${connectors.status} = 'CONNECTED_UNAVAILABLE'`);
    expect(unavailable.some((c) => c.lot)).toBe(true);
    expect(unavailable.some((c) => !c.lot)).toBe(true);
    const [{ removed }] = await a.db
      .select({ removed: sql<number>`count(*)::int` })
      .from(connectors)
      .where(sql`${connectors.removed}`);
    expect(removed).toBeGreaterThan(0);
  });

  it('has contracts at 7 % and 0 % billed at their rate, and fleets with a company, a valid VAT id and one Leitweg-ID', async () => {
    const byRate = await a.db
      .select({ rate: contracts.vatId, billRate: bills.vatPercent, n: sql<number>`count(*)::int` })
      .from(bills)
      .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
      .groupBy(contracts.vatId, bills.vatPercent);
    expect(new Set(byRate.map((r) => `${r.rate}:${r.billRate}`))).toEqual(new Set(['19:19.00', '7:7.00', '0:0.00']));
    const business = await a.db
      .select()
      .from(contracts)
      .where(sql`${contracts.companyName} is not null`);
    expect(business.length).toBeGreaterThanOrEqual(3);
    for (const c of business) {
      const parsed = editContractBodySchema.shape.customerVatId.safeParse(c.customerVatId);
      expect(parsed.success && parsed.data === c.customerVatId, c.customerVatId ?? '').toBe(true);
    }
    expect(business.filter((c) => c.buyerReference).map((c) => c.buyerReference)).toEqual(['05315-0001234567-81']);
  });

  it('makes sessions, heartbeats and statuses agree, and stores c/o names without the prefix', async () => {
    const cons = new Map((await a.db.select().from(connectors)).map((c) => [c.connectorId, c]));
    const requests = await a.db.select().from(chargingRequests);
    for (const r of requests) {
      const c = cons.get(r.connectorId!)!;
      expect(c.status, `${r.transactionId} on ${c.connectorId}`).not.toBe('INACTIVE');
      if (c.onlineSince === null && c.lastHeartbeat) {
        expect(r.startDate.getTime(), `${r.transactionId} after the last heartbeat of ${c.connectorId}`).toBeLessThan(
          c.lastHeartbeat.getTime(),
        );
      }
    }
    for (const c of cons.values()) if (c.status === 'INACTIVE') expect(c.lastHeartbeat).toBeNull();
    const careOfs = [
      ...(await a.db.select({ v: locations.careOf }).from(locations)),
      ...(await a.db.select({ v: contracts.careOf }).from(contracts)),
    ].flatMap((r) => (r.v ? [r.v] : []));
    expect(careOfs.length).toBeGreaterThan(0);
    for (const v of careOfs) expect(v).not.toMatch(/^c\/o/i);
  });

  it('shapes ids as the cockpit expects', async () => {
    const rows = await a.db.select({ id: contracts.endCustomerId }).from(contracts);
    for (const r of rows) expect(r.id).toMatch(/^\d{3}-\d{5}-\d{3}$/);
    const conns = await a.db.select({ id: connectors.connectorId, cp: connectors.cpId, lot: connectors.parkingLot }).from(connectors);
    for (const c of conns) {
      expect(c.id.startsWith(`${c.cp}_`)).toBe(true);
      expect((c.lot ?? '').length).toBeLessThanOrEqual(5);
    }
    const tx = await a.db.select({ id: chargingRequests.transactionId }).from(chargingRequests).limit(5);
    for (const t of tx) expect(t.id.length).toBeLessThanOrEqual(22);
  });

  it('gives operators bank data the operator forms accept: IBAN and creditor id checksums, BIC shape', async () => {
    const rows = await a.db.select().from(operators);
    expect(rows.length).toBeGreaterThan(0);
    for (const o of rows) {
      expect(isIban(o.iban ?? ''), `${o.cpoId} IBAN ${o.iban}`).toBe(true);
      expect(isBic(o.bic ?? ''), `${o.cpoId} BIC ${o.bic}`).toBe(true);
      if (o.creditorId) expect(isCreditorId(o.creditorId), `${o.cpoId} creditor id ${o.creditorId}`).toBe(true);
    }
    expect(rows.some((o) => o.creditorId)).toBe(true);
  });

  it("gives SEPA contracts what the SEPA file needs: a valid IBAN, a mandate reference and date; and the partner's operators bills to collect", async () => {
    const sepa = await a.db
      .select({ iban: contracts.contractIban, ref: contracts.contractMandateReference, signed: contracts.contractMandateDate })
      .from(contracts)
      .where(sql`${contracts.paymentMethod} = 'SEPA'`);
    expect(sepa.length).toBeGreaterThan(0);
    for (const c of sepa) {
      expect(isIban(c.iban ?? ''), `IBAN ${c.iban}`).toBe(true);
      expect(c.ref).toMatch(/^MREF-\d{10}$/);
      expect(c.signed).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // A download-center SEPA file on the demo data: an operator of the partner account with a creditor id and SEPA bills to collect.
    const [{ n }] = (
      (await a.db.execute(sql`
        select count(*)::int as n from bills b
        join operators o on o.cpo_id = b.cpo_id
        join customers c on c.customer_id = o.customer_id
        where c.customer_type = 'Partner' and o.creditor_id is not null
          and b.payment_method = 'SEPA' and b.billing_status in ('GENERATED', 'SENT') and b.total_taxed_costs > 0`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    expect(n).toBeGreaterThan(0);
  });

  it('two instances starting together on one database seed it once', async () => {
    const handle = await createEmptyTestDb();
    handles.push(handle);
    {
      const results = await Promise.all([seedIfEmpty(handle.db, 'small', TEST_NOW), seedIfEmpty(handle.db, 'small', TEST_NOW)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const [{ n }] = await handle.db.select({ n: count() }).from(customers);
      expect(n).toBe(results.find(Boolean)!.counts.customers);
    }
  });

  // The same data on both databases, so a test passing on one means the same on the other.
  it.runIf(testDatabaseUrl())('PostgreSQL gets the same data as PGlite', async () => {
    const pglite = await createDb({ dataDir: 'memory://' });
    handles.push(pglite);
    await pglite.migrate();
    const result = await seedDatabase(pglite.db, { size: 'small', now: TEST_NOW });
    expect(a.result.counts).toEqual(result.counts);
    expect(await idFingerprint(a.db)).toBe(await idFingerprint(pglite.db));
  });

  // On `b`: the collection changes bill statuses, which the tests on `a` count.
  it('gives most STRIPE_SEPA contracts a completed test-mode mandate, so the collection job collects their SENT bills', async () => {
    const stripe = await b.db.select().from(contracts).where(eq(contracts.paymentMethod, 'STRIPE_SEPA'));
    const configured = stripe.filter((c) => c.stripeSepaPaymentDetailsAreConfigured);
    const open = stripe.filter((c) => !c.stripeSepaPaymentDetailsAreConfigured);
    expect(b.result.counts.stripeSepaMandates).toBe(configured.length);
    expect(configured.length).toBeGreaterThan(open.length * 4);
    expect(open.length).toBeGreaterThanOrEqual(1);
    for (const c of configured) {
      expect(c.stripeCustomerId).toMatch(/^cus_test_/);
      expect(c.stripePaymentMethodId).toMatch(/^pm_test_/);
      expect(c.contractMandateReference).toMatch(/^[A-Z0-9]{16}$/);
      expect(c.contractMandateDate).toBe(berlinDate(c.stripeMandateCompletedAt!));
      expect(c.stripeMandateCompletedAt!.getTime()).toBeLessThan(TEST_NOW.getTime());
    }
    for (const c of open)
      expect([c.stripePaymentMethodId, c.contractMandateReference, c.stripeMandateCompletedAt]).toEqual([null, null, null]);
    // Each mandate is a checkout completed on the test mode's page, whose event the webhook code applied.
    const checkouts = await b.db.select().from(paymentCheckouts);
    expect(checkouts.filter((c) => c.completedAt && c.provider === 'test')).toHaveLength(configured.length);
    const [{ n: events }] = await b.db
      .select({ n: count() })
      .from(paymentEvents)
      .where(eq(paymentEvents.type, 'checkout.session.completed'));
    expect(events).toBe(configured.length);

    const sentOf = (keys: string[]) =>
      b.db
        .select()
        .from(bills)
        .where(and(eq(bills.billingStatus, 'SENT'), inArray(bills.contractKey, keys.length > 0 ? keys : ['none'])));
    const due = await sentOf(configured.map((c) => c.contractKey));
    const waiting = await sentOf(open.map((c) => c.contractKey));
    expect(due.length).toBeGreaterThan(0);
    for (const bill of [...due, ...waiting]) expect(bill.stripeSepaPaymentIntentId).toBeNull();

    const env = testEnv();
    let collected = 0;
    for (let round = await collectSentBills(b.db, env); round > 0; round = await collectSentBills(b.db, env)) collected += round;
    expect(collected).toBe(due.length);
    const after = await b.db
      .select()
      .from(bills)
      .where(
        inArray(
          bills.billId,
          due.map((d) => d.billId),
        ),
      );
    for (const bill of after) {
      expect(bill.stripeSepaPaymentIntentId).toMatch(/^pi_test_/);
      // The test mode settles the debit at once.
      expect([bill.billingStatus, bill.stripeSepaBillPaymentStatus]).toEqual(['PAID', 'succeeded']);
    }
    for (const bill of waiting)
      expect((await b.db.select().from(bills).where(eq(bills.billId, bill.billId)))[0]!.billingStatus).toBe('SENT');
  });

  it('seeds only an empty database', async () => {
    expect(await seedIfEmpty(a.db, 'small', TEST_NOW)).toBeUndefined();
    expect(await seedIfEmpty(a.db, 'none', TEST_NOW)).toBeUndefined();
  });

  // The demo set takes ~30 s on PGlite; run with SEED_DEMO_TEST=1.
  it.runIf(process.env.SEED_DEMO_TEST)('demo meets the sizes', { timeout: 120_000 }, async () => {
    const demo = await seeded('demo');
    expect(demo.result.counts).toMatchObject({
      operators: 6,
      locations: 40,
      connectors: 600,
      contracts: 2000,
      chargingRequests: 100_000,
    });
    expect(demo.result.counts.customers).toBeGreaterThanOrEqual(3);
    expect(demo.result.ms).toBeLessThan(60_000);
  });
});
