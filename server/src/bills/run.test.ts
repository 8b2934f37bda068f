import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { berlinDate, changeTariffBodySchema } from '../../../contract/contracts';
import { makeScope } from '../auth/scope';
import { changeTariff } from '../contracts/lifecycle-handlers';
import { applyDueTariffChanges } from '../contracts/tariff-history';
import { pendingTariffChanges } from '../db/schema/contracts';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts, contractTariffs, files } from '../db/schema/contracts';
import { operators } from '../db/schema/operators';
import { connectors } from '../db/schema/stations';
import { createDb, type DbHandle } from '../db/client';
import { createSeededTestDatabaseUrl, testDatabaseUrl } from '../test/databases';
import { createHarness, type Harness } from '../test/harness';
import { fromSnapshot, loadInvoiceDocument, type IssuedInvoice } from './document';
import { toUnits } from './compute';
import { billPdf } from './pdf-file';
import { recomputeBill, regenerateBills } from './regenerate';
import { amountColumns, runBills } from './run';

/**
 * The bill run on a small fixed data set whose totals are worked out by hand below (issue 24).
 * Its own two operators (so the number counters start at 1), its contracts and charging requests
 * live beside the small seed; every run is limited to these contracts.
 */

let h: Harness;
const OP = 'CPO-RUN-TEST';
const OP_PREFIXED = 'CPO-RUN-PREFIX';
const RUN_NOW = new Date('2026-11-02T06:00:00Z');
const keys: Record<string, string> = {};
let place: { locationId: string; connectorId: string };
let requestNo = 0;

type Tariff = { from: string; fix: string; perKwh: string; onboarding?: string; perRequest?: string };

async function contract(
  db: Db,
  name: string,
  over: Partial<typeof contracts.$inferInsert> & { cycle: NonNullable<(typeof contracts.$inferInsert)['billingCycle']>; start: string },
  tariffs: Tariff[],
) {
  const key = randomUUID();
  keys[name] = key;
  const { cycle, start, ...rest } = over;
  const last = tariffs.at(-1);
  await db.insert(contracts).values({
    contractKey: key,
    contractId: randomUUID(),
    contractNumber: `V-RUN-${name}`,
    endCustomerId: `RUN-${name}`,
    cpoId: OP,
    locationId: place.locationId,
    contractStatus: 'ACTIVE',
    userType: 'REGULAR',
    firstName: 'Erika',
    lastName: `Rechnung ${name}`,
    email: `run.${name}@example.de`,
    street: 'Hauptstraße 1',
    zipCode: '10115',
    city: 'Berlin',
    billingType: 'WITH_BILLING',
    billingCycle: cycle,
    startDate: start,
    fixTariff: last?.fix ?? '1.00',
    varTariff: last?.perKwh ?? '0.0000',
    paymentMethod: 'SEPA',
    ...rest,
  });
  if (tariffs.length > 0)
    await db.insert(contractTariffs).values(
      tariffs.map((t) => ({
        contractKey: key,
        validFrom: t.from,
        fixTariff: t.fix,
        varTariff: t.perKwh,
        onboardingFee: t.onboarding ?? '0',
        fixTariffPerChargingRequest: t.perRequest ?? '0',
      })),
    );
  return key;
}

/** A charging request of the contract starting at `berlinNoon` of that Berlin day (12:00 local). */
async function charge(name: string, day: string, kwh: string, status: 'finished' | 'broken' = 'finished', hour = 12) {
  const id = `TXRUN${String(++requestNo).padStart(6, '0')}`;
  // 12:00 Berlin is 10:00 or 11:00 UTC; 11:00 UTC is the same Berlin day all year.
  const startDate = new Date(`${day}T${String(hour - 1).padStart(2, '0')}:00:00Z`);
  await h.db.insert(chargingRequests).values({
    transactionId: id,
    contractKey: keys[name],
    endCustomerId: `RUN-${name}`,
    cpoId: OP,
    locationId: place.locationId,
    connectorId: place.connectorId,
    authType: 'APP',
    status,
    startDate,
    endDate: new Date(startDate.getTime() + 3600_000),
    lastUpdateTimestamp: new Date(startDate.getTime() + 3600_000),
    energyKwh: kwh,
    cost: '0',
  });
  return id;
}

const run = (month: string, names: string[] = Object.keys(keys)) =>
  runBills(h.db, month, { now: RUN_NOW, contractKeys: names.map((n) => keys[n]) });

const billsOf = (name: string) =>
  h.db.select().from(bills).where(eq(bills.contractKey, keys[name])).orderBy(asc(bills.startDate), asc(bills.billNumber));

/** [kind, from, to, net cents] of each line. */
const lineNets = (b: typeof bills.$inferSelect) => b.lines.map((l) => [l.kind, l.from, l.to, Number(l.netCents)]);
const totals = (b: typeof bills.$inferSelect) => ({
  net: b.netCosts,
  vat: b.vatCosts,
  gross: b.totalTaxedCosts,
  taxedVar: b.taxedVarCosts,
  taxedFix: b.taxedFixCosts,
  status: b.billingStatus,
});

beforeAll(async () => {
  h = await createHarness();
  const [op] = await h.db.select().from(operators).limit(1);
  await h.db.insert(operators).values([
    { ...op, cpoId: OP, cpoName: 'Rechnungslauf GmbH', billNumberPrefix: null, version: 1 },
    { ...op, cpoId: OP_PREFIXED, cpoName: 'Präfix Strom AG', billNumberPrefix: 'PSA-', version: 1 },
  ]);
  const [c] = await h.db.select().from(connectors).where(eq(connectors.removed, false)).limit(1);
  place = { locationId: c.locationId!, connectorId: c.connectorId };

  // A: monthly, starts on 11 October (a part month), every line kind, onboarding on its first bill.
  await contract(h.db, 'A', { cycle: 'MONTHLY', start: '2026-10-11' }, [
    { from: '2026-10-11', fix: '9.90', perKwh: '0.3900', onboarding: '49.00', perRequest: '0.50' },
  ]);
  await charge('A', '2026-10-05', '30.000'); // before its start: not on the bill
  await charge('A', '2026-10-12', '12.345');
  await charge('A', '2026-10-20', '7.655');
  await charge('A', '2026-10-21', '5.000', 'broken'); // a fault: not billed
  await charge('A', '2026-11-03', '10.000');
  // B: quarterly, a tariff change on 1 November: two price blocks in Q4.
  await contract(h.db, 'B', { cycle: 'QUARTERLY', start: '2026-01-01' }, [
    { from: '2026-01-01', fix: '10.00', perKwh: '0.3000' },
    { from: '2026-11-01', fix: '12.00', perKwh: '0.3500' },
  ]);
  await charge('B', '2026-10-15', '10.000');
  await charge('B', '2026-11-20', '10.500');
  await charge('B', '2026-12-24', '10.500');
  // C: half-yearly; cents that round differently per line than over the sum.
  await contract(h.db, 'C', { cycle: 'SEMI_ANNUAL', start: '2026-01-01', paymentMethod: 'BANK_TRANSFER' }, [
    { from: '2026-01-01', fix: '0.00', perKwh: '0.3000' },
    { from: '2026-04-01', fix: '0.00', perKwh: '0.3000', perRequest: '0.10' },
  ]);
  await charge('C', '2026-02-10', '1.015');
  await charge('C', '2026-05-10', '1.015');
  // D: yearly, ends on 15 August: its last period is cut there and billed in August.
  await contract(h.db, 'D', { cycle: 'ANNUAL', start: '2025-06-01', endDate: '2026-08-15', contractStatus: 'EXPIRED' }, [
    { from: '2025-06-01', fix: '12.00', perKwh: '0.0000', onboarding: '25.00' },
  ]);
  // E: IMMEDIATE (ad hoc): one bill per finished request; the month's first carries the fixed tariff.
  await contract(h.db, 'E', { cycle: 'IMMEDIATE', start: '2026-10-01', userType: 'AD_HOC', paymentMethod: 'STRIPE_CARD' }, [
    { from: '2026-10-01', fix: '5.00', perKwh: '0.4000', onboarding: '10.00' },
  ]);
  await charge('E', '2026-10-03', '10.000', 'finished', 9);
  await charge('E', '2026-10-03', '5.000', 'finished', 18);
  await charge('E', '2026-10-17', '2.500');
  // F: nothing to pay: NOT_APPLICABLE.
  await contract(h.db, 'F', { cycle: 'MONTHLY', start: '2026-01-01' }, [{ from: '2026-01-01', fix: '0.00', perKwh: '0.3900' }]);
  // G: another operator with its own number prefix.
  await contract(h.db, 'G', { cycle: 'MONTHLY', start: '2026-01-01', cpoId: OP_PREFIXED }, [
    { from: '2026-01-01', fix: '19.90', perKwh: '0.3900' },
  ]);
  // Not billed: a global admin, a contract without billing, one never signed.
  await contract(h.db, 'N1', { cycle: 'MONTHLY', start: '2026-01-01', userType: 'GLOBAL_ADMIN', locationId: null }, [
    { from: '2026-01-01', fix: '9.90', perKwh: '0.3900' },
  ]);
  await contract(h.db, 'N2', { cycle: 'MONTHLY', start: '2026-01-01', billingType: 'NO_BILLING' }, [
    { from: '2026-01-01', fix: '9.90', perKwh: '0.3900' },
  ]);
  await contract(h.db, 'N3', { cycle: 'MONTHLY', start: '2026-01-01', contractStatus: 'CREATED_SIGNED' }, [
    { from: '2026-01-01', fix: '9.90', perKwh: '0.3900' },
  ]);
});
afterAll(() => h.close());

describe('the bill run on a fixed data set (totals by hand)', () => {
  it('bills October: a part month with every line kind, per-request bills, a zero bill, nothing for the others', async () => {
    expect(await run('2026-10')).toEqual({ created: 6, skipped: 0, failed: 0, locked: 0 });

    const [a] = await billsOf('A');
    expect([a.startDate, a.endDate, a.monthNumber, a.yearNumber]).toEqual(['2026-10-11', '2026-10-31', 10, 2026]);
    // fixed 9.90 × 21/31 days = 6.7064… → 6.71; energy (12.345 + 7.655) kWh × 0.39 = 7.80;
    // 2 requests × 0.50 = 1.00; onboarding 49.00 (its first bill).
    expect(lineNets(a)).toEqual([
      ['fixed', '2026-10-11', '2026-10-31', 671],
      ['energy', '2026-10-11', '2026-10-31', 780],
      ['per-request', '2026-10-11', '2026-10-31', 100],
      ['onboarding', '2026-10-11', '2026-10-11', 4900],
    ]);
    // net 64.51; VAT 19 % = 12.2569 → 12.26; gross 76.77; taxed energy 7.80 × 1.19 = 9.282 → 9.28; the rest 67.49.
    expect(totals(a)).toEqual({ net: '64.51', vat: '12.26', gross: '76.77', taxedVar: '9.28', taxedFix: '67.49', status: 'GENERATED' });
    expect(a.energyLoaded).toBe('20.000');
    expect([a.endCustomerLastName, a.userType, a.paymentMethod, a.locationId]).toEqual(['Rechnung A', 'REGULAR', 'SEPA', place.locationId]);
    expect(a.billGenerationDate).toEqual(RUN_NOW);

    const e = await billsOf('E');
    // 1st: October's fixed 5.00 + 10 kWh × 0.40 = 4.00 + onboarding 10.00 = 19.00; VAT 3.61; 22.61.
    // 2nd (same day): 5 kWh × 0.40 = 2.00; VAT 0.38; 2.38. 3rd: 2.5 kWh = 1.00; VAT 0.19; 1.19.
    expect(e.map((b) => [b.startDate, b.endDate, b.netCosts, b.vatCosts, b.totalTaxedCosts])).toEqual([
      ['2026-10-01', '2026-10-31', '19.00', '3.61', '22.61'],
      ['2026-10-03', '2026-10-03', '2.00', '0.38', '2.38'],
      ['2026-10-17', '2026-10-17', '1.00', '0.19', '1.19'],
    ]);
    expect(e.every((b) => b.chargingRequestId !== null)).toBe(true);

    const [f] = await billsOf('F');
    expect(totals(f)).toEqual({ net: '0.00', vat: '0.00', gross: '0.00', taxedVar: '0.00', taxedFix: '0.00', status: 'NOT_APPLICABLE' });
    expect((await billsOf('G')).map((b) => [b.billNumber, b.totalTaxedCosts])).toEqual([['PSA-2026-000001', '23.68']]);
    for (const n of ['B', 'C', 'D', 'N1', 'N2', 'N3']) expect(await billsOf(n)).toHaveLength(0);
  });

  it('creates nothing new when run again', async () => {
    const before = await h.db
      .select({ n: bills.billNumber })
      .from(bills)
      .where(inArray(bills.cpoId, [OP, OP_PREFIXED]));
    expect(await run('2026-10')).toEqual({ created: 0, skipped: 6, failed: 0, locked: 0 });
    expect(
      await h.db
        .select({ n: bills.billNumber })
        .from(bills)
        .where(inArray(bills.cpoId, [OP, OP_PREFIXED])),
    ).toEqual(before);
  });

  it('bills a request finished after the run in the next run, without the fixed tariff or the onboarding fee again', async () => {
    await charge('E', '2026-10-25', '1.000');
    expect(await run('2026-10', ['E'])).toEqual({ created: 1, skipped: 3, failed: 0, locked: 0 });
    const last = (await billsOf('E')).at(-1)!;
    // 1 kWh × 0.40 = 0.40; VAT 0.076 → 0.08; 0.48.
    expect([last.startDate, last.netCosts, last.vatCosts, last.totalTaxedCosts]).toEqual(['2026-10-25', '0.40', '0.08', '0.48']);
  });

  it('bills a quarter across a tariff change in two price blocks', async () => {
    expect(await run('2026-11', ['B'])).toEqual({ created: 0, skipped: 0, failed: 0, locked: 0 });
    expect(await run('2026-12', ['B'])).toEqual({ created: 1, skipped: 0, failed: 0, locked: 0 });
    const [b] = await billsOf('B');
    // Oct at the old prices: 1 month × 10.00; 10 kWh × 0.30 = 3.00.
    // Nov–Dec at the new: 2 months × 12.00 = 24.00; 21 kWh × 0.35 = 7.35.
    expect(lineNets(b)).toEqual([
      ['fixed', '2026-10-01', '2026-10-31', 1000],
      ['energy', '2026-10-01', '2026-10-31', 300],
      ['fixed', '2026-11-01', '2026-12-31', 2400],
      ['energy', '2026-11-01', '2026-12-31', 735],
    ]);
    // net 44.35; VAT 8.4265 → 8.43; gross 52.78; taxed energy 10.35 × 1.19 = 12.3165 → 12.32.
    expect(totals(b)).toEqual({ net: '44.35', vat: '8.43', gross: '52.78', taxedVar: '12.32', taxedFix: '40.46', status: 'GENERATED' });
  });

  it('bills a tariff change made through the contract edit and not yet applied in two price blocks, in the run and a regeneration', async () => {
    await contract(h.db, 'T', { cycle: 'QUARTERLY', start: '2026-07-01' }, [{ from: '2026-07-01', fix: '10.00', perKwh: '0.3000' }]);
    await charge('T', '2026-07-15', '10.000');
    await charge('T', '2026-09-10', '20.000');
    // On 20 July the operator changes the tariff from 1 August on (the API's own function, its date rules at that day).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-07-20T10:00:00Z'));
      await changeTariff(
        h.db,
        makeScope('all'),
        changeTariffBodySchema.parse({
          contractKey: keys.T,
          fixTariff: 12,
          varTariff: 0.35,
          onboardingFee: 0,
          fixTariffPerChargingRequest: 0,
          newTariffDate: '2026-08-01',
          newTariffCancellationDate: '2027-08-01',
        }),
        undefined,
      );
    } finally {
      vi.useRealTimers();
    }
    // Nothing applied it (no server start, no hourly tick): it is still pending, the history has July's tariff only.
    const [pending] = await h.db.select().from(pendingTariffChanges).where(eq(pendingTariffChanges.contractKey, keys.T));
    expect(pending).toMatchObject({ newTariffDate: '2026-08-01', appliedAt: null });
    expect(await h.db.select().from(contractTariffs).where(eq(contractTariffs.contractKey, keys.T))).toHaveLength(1);

    expect(await run('2026-09', ['T'])).toEqual({ created: 1, skipped: 0, failed: 0, locked: 0 });
    const [t] = await billsOf('T');
    // July at the old prices: 1 month × 10.00; 10 kWh × 0.30 = 3.00.
    // August–September at the new: 2 months × 12.00 = 24.00; 20 kWh × 0.35 = 7.00.
    expect(lineNets(t)).toEqual([
      ['fixed', '2026-07-01', '2026-07-31', 1000],
      ['energy', '2026-07-01', '2026-07-31', 300],
      ['fixed', '2026-08-01', '2026-09-30', 2400],
      ['energy', '2026-08-01', '2026-09-30', 700],
    ]);
    // net 44.00; VAT 8.36; gross 52.36; taxed energy 10.00 × 1.19 = 11.90, taxed fixed 34.00 × 1.19 = 40.46.
    expect(totals(t)).toEqual({ net: '44.00', vat: '8.36', gross: '52.36', taxedVar: '11.90', taxedFix: '40.46', status: 'GENERATED' });
    // A regeneration reads the same, before the change is applied and after.
    expect(amountColumns(await recomputeBill(h.db, t))).toMatchObject({ lines: t.lines, totalTaxedCosts: '52.36' });
    await applyDueTariffChanges(h.db, '2026-11-28');
    expect(amountColumns(await recomputeBill(h.db, t))).toMatchObject({ lines: t.lines, totalTaxedCosts: '52.36' });
  });

  it('rounds each line, then sums: 2 × 30.45 ct are 0.60, not 0.61', async () => {
    expect(await run('2026-06', ['C'])).toEqual({ created: 1, skipped: 0, failed: 0, locked: 0 });
    const [c] = await billsOf('C');
    // Each block: 1.015 kWh × 0.30 = 0.3045 → 0.30 (over the sum 0.609 would be 0.61); one request × 0.10 from April.
    expect(lineNets(c)).toEqual([
      ['energy', '2026-01-01', '2026-03-31', 30],
      ['energy', '2026-04-01', '2026-06-30', 30],
      ['per-request', '2026-04-01', '2026-06-30', 10],
    ]);
    // net 0.70; VAT 0.133 → 0.13; gross 0.83.
    expect(totals(c)).toMatchObject({ net: '0.70', vat: '0.13', gross: '0.83' });
  });

  it('bills a yearly contract that ends mid-year in the month it ends, once', async () => {
    expect(await run('2026-12', ['D'])).toEqual({ created: 0, skipped: 0, failed: 0, locked: 0 });
    expect(await run('2026-08', ['D'])).toEqual({ created: 1, skipped: 0, failed: 0, locked: 0 });
    const [d] = await billsOf('D');
    // 1 Jan – 15 Aug: 7 months + 15/31 = 7.4838… × 12.00 = 89.806… → 89.81; onboarding 25.00 (first bill).
    expect(lineNets(d)).toEqual([
      ['fixed', '2026-01-01', '2026-08-15', 8981],
      ['onboarding', '2026-01-01', '2026-01-01', 2500],
    ]);
    // net 114.81; VAT 21.8139 → 21.81; gross 136.62.
    expect(totals(d)).toMatchObject({ net: '114.81', vat: '21.81', gross: '136.62' });
  });

  it('bills the next month without the onboarding fee again', async () => {
    expect(await run('2026-11', ['A'])).toEqual({ created: 1, skipped: 0, failed: 0, locked: 0 });
    const nov = (await billsOf('A'))[1];
    // 9.90 + 10 kWh × 0.39 = 3.90 + 0.50 = 14.30; VAT 2.717 → 2.72; 17.02.
    expect(lineNets(nov).map((l) => l[0])).toEqual(['fixed', 'energy', 'per-request']);
    expect(totals(nov)).toMatchObject({ net: '14.30', vat: '2.72', gross: '17.02' });
  });

  it('gives numbers without gaps per operator and year, in the order billed', async () => {
    const numbers = await h.db.select({ n: bills.billNumber }).from(bills).where(eq(bills.cpoId, OP)).orderBy(asc(bills.billNumber));
    expect(numbers.map((r) => r.n)).toEqual(numbers.map((_, i) => `RE-2026-${OP}-${String(i + 1).padStart(6, '0')}`));
  });

  it('fails one contract with bad data and bills the rest', async () => {
    await contract(h.db, 'BAD', { cycle: 'MONTHLY', start: '2026-01-01' }, []);
    await contract(h.db, 'OK', { cycle: 'MONTHLY', start: '2026-01-01' }, [{ from: '2026-01-01', fix: '1.00', perKwh: '0.0000' }]);
    const logged: string[] = [];
    const answer = await runBills(h.db, '2026-09', { now: RUN_NOW, contractKeys: [keys.BAD, keys.OK], log: (m) => logged.push(m) });
    expect(answer).toEqual({ created: 1, skipped: 0, failed: 1, locked: 0 });
    expect(logged).toHaveLength(1);
    expect(logged[0]).not.toContain(keys.BAD);
    expect(await billsOf('BAD')).toHaveLength(0);
    const counter = await h.db
      .select({ n: bills.billNumber })
      .from(bills)
      .where(and(eq(bills.cpoId, OP), eq(bills.contractKey, keys.OK)));
    expect(counter).toHaveLength(1);
  });
});

describe('the contract’s VAT rate', () => {
  it('bills at the contract’s rate, 19 % without one; a regeneration at the rate of the day; a rate it cannot bill fails the contract', async () => {
    // Net 93.58 each (a whole month of 93.58): at 19 % 111.36, at 7 % 100.13, at 0 % 93.58.
    const tariff = [{ from: '2026-10-01', fix: '93.58', perKwh: '0.3900' }];
    await contract(h.db, 'V19', { cycle: 'MONTHLY', start: '2026-10-01' }, tariff);
    await contract(h.db, 'V7', { cycle: 'MONTHLY', start: '2026-10-01', vatId: '7' }, tariff);
    await contract(h.db, 'V0', { cycle: 'MONTHLY', start: '2026-10-01', vatId: '0' }, tariff);
    // 10 kWh × 0.39 = 3.90 net on V7's bill as well: the energy's gross share at 7 % is 4.173 → 4.17.
    await charge('V7', '2026-10-14', '10.000');
    expect(await run('2026-10', ['V19', 'V7', 'V0'])).toEqual({ created: 3, skipped: 0, failed: 0, locked: 0 });
    const [v19] = await billsOf('V19');
    const [v7] = await billsOf('V7');
    const [v0] = await billsOf('V0');
    expect([v19.vatPercent, v19.netCosts, v19.vatCosts, v19.totalTaxedCosts]).toEqual(['19.00', '93.58', '17.78', '111.36']);
    // 97.48 × 7 % = 6.8236 → 6.82; gross 104.30; taxed energy 3.90 × 1.07 = 4.173 → 4.17, the rest 100.13 (93.58 × 1.07).
    expect(totals(v7)).toEqual({ net: '97.48', vat: '6.82', gross: '104.30', taxedVar: '4.17', taxedFix: '100.13', status: 'GENERATED' });
    expect(v7.vatPercent).toBe('7.00');
    expect(totals(v0)).toEqual({ net: '93.58', vat: '0.00', gross: '93.58', taxedVar: '0.00', taxedFix: '93.58', status: 'GENERATED' });
    expect(v0.vatPercent).toBe('0.00');

    // Regenerated: the same while the rate stays; at the contract's rate of the day once it changed.
    expect(amountColumns(await recomputeBill(h.db, v7))).toMatchObject({ vatPercent: '7', vatCosts: '6.82', totalTaxedCosts: '104.30' });
    await h.db.update(contracts).set({ vatId: '0' }).where(eq(contracts.contractKey, keys.V7));
    await h.db.update(contracts).set({ vatId: '7' }).where(eq(contracts.contractKey, keys.V0));
    for (const b of [v7, v0])
      expect(await regenerateBills(h.db, { billNumbers: [b.billNumber] }, RUN_NOW)).toMatchObject({ unSuccessfulBillRegenerations: [] });
    const [v7After] = await billsOf('V7');
    const [v0After] = await billsOf('V0');
    expect([v7After.vatPercent, v7After.vatCosts, v7After.totalTaxedCosts]).toEqual(['0.00', '0.00', '97.48']);
    expect([v0After.vatPercent, v0After.vatCosts, v0After.totalTaxedCosts]).toEqual(['7.00', '6.55', '100.13']);

    // A stored rate the product cannot bill (written around the API) fails that contract, and its regeneration.
    await contract(h.db, 'V16', { cycle: 'MONTHLY', start: '2026-10-01', vatId: '16' }, tariff);
    expect(await run('2026-10', ['V16'])).toEqual({ created: 0, skipped: 0, failed: 1, locked: 0 });
    await h.db.update(contracts).set({ vatId: '16' }).where(eq(contracts.contractKey, keys.V0));
    expect(await regenerateBills(h.db, { billNumbers: [v0.billNumber] }, RUN_NOW)).toMatchObject({
      unSuccessfulBillRegenerations: [{ billNumber: v0.billNumber, errorCode: 'BILLING_UTILITY_ERROR' }],
    });
  });
});

describe('the demo seed', () => {
  it('has bills from the run that a regeneration computes again to the cent', async () => {
    const seeded = await h.db
      .select()
      .from(bills)
      .where(sql`${bills.cpoId} not in (${OP}, ${OP_PREFIXED})`);
    expect(seeded.length).toBeGreaterThan(100);
    expect(seeded.some((b) => b.chargingRequestId !== null)).toBe(true);
    expect(seeded.some((b) => b.lines.some((l) => l.kind === 'onboarding'))).toBe(true);
    for (const b of seeded) {
      const { billingStatus: _, ...again } = amountColumns(await recomputeBill(h.db, b));
      expect({ number: b.billNumber, ...again }).toEqual({
        number: b.billNumber,
        energyLoaded: b.energyLoaded,
        netCosts: b.netCosts,
        vatPercent: b.vatPercent.replace(/\.00$/, ''),
        vatCosts: b.vatCosts,
        taxedFixCosts: b.taxedFixCosts,
        taxedVarCosts: b.taxedVarCosts,
        totalTaxedCosts: b.totalTaxedCosts,
        lines: b.lines,
      });
      // Issued through the run, so each carries what its invoice says.
      const issued = fromSnapshot(b.issuedDocument) as IssuedInvoice;
      expect([issued.document.billNumber, issued.document.grossCents]).toEqual([b.billNumber, toUnits(b.totalTaxedCosts, 2)]);
    }
  });
});

describe('POST /bookings/regenerate-bills', () => {
  let admin: string;
  beforeAll(async () => {
    admin = (await h.login('admin')).access_token;
  });
  const regenerate = (billNumbers: string[], token = admin) =>
    h.request('POST', '/booking-service/bookings/regenerate-bills', { body: { billNumbers }, token });

  it('needs exactly one bill number (400 NO_INPUT_PROVIDED_ERROR, INVALID_INPUT_ERROR) and admins', async () => {
    const none = await regenerate([]);
    expect([none.status, none.body.errorCodeResponse]).toEqual([400, 'NO_INPUT_PROVIDED_ERROR']);
    const [a] = await billsOf('A');
    const two = await regenerate([a.billNumber, `${a.billNumber}X`]);
    expect([two.status, two.body.errorCodeResponse]).toEqual([400, 'INVALID_INPUT_ERROR']);
    const operator = await regenerate([a.billNumber], (await h.login('operator')).access_token);
    expect(operator.status).toBe(403);
  });

  it('refuses per bill: an unknown number, a bill not GENERATED, an ad hoc bill, a bill without tariff', async () => {
    const [g] = await billsOf('G');
    await h.db.update(bills).set({ billingStatus: 'SENT' }).where(eq(bills.billId, g.billId));
    const [, paid] = await billsOf('A');
    await h.db.update(bills).set({ billingStatus: 'PAID' }).where(eq(bills.billId, paid.billId));
    // A SENT or PAID bill went out as it is: refused, and its PDF stays.
    await h.db.insert(files).values({ id: 'pdf-of-g', fileName: 'g.pdf', mimeType: 'application/pdf', size: 1, content: Buffer.from('g') });
    await h.db.update(bills).set({ pdfFileId: 'pdf-of-g' }).where(eq(bills.billId, g.billId));
    const before = await h.db
      .select({ pdf: bills.pdfFileId, doc: bills.issuedDocument, version: bills.version })
      .from(bills)
      .where(inArray(bills.billId, [g.billId, paid.billId]))
      .orderBy(asc(bills.billId));
    const [e] = await billsOf('E');
    const [f] = await billsOf('F');
    const cases: [string, string][] = [
      ['RE-0000-NONE-000001', 'INVALID_INPUT_ERROR'],
      [g.billNumber, 'BILLS_WITH_GENERATED_STATUS_ERROR'],
      [e.billNumber, 'BILLS_WITH_GENERATED_STATUS_ERROR'],
      [f.billNumber, 'BILLS_WITH_GENERATED_STATUS_ERROR'], // NOT_APPLICABLE
      [paid.billNumber, 'BILLS_WITH_GENERATED_STATUS_ERROR'],
    ];
    for (const [billNumber, errorCode] of cases) {
      const res = await regenerate([billNumber]);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ successfulBillRegenerations: [], unSuccessfulBillRegenerations: [{ billNumber, errorCode }] });
    }
    const after = await h.db
      .select({ pdf: bills.pdfFileId, doc: bills.issuedDocument, version: bills.version })
      .from(bills)
      .where(inArray(bills.billId, [g.billId, paid.billId]))
      .orderBy(asc(bills.billId));
    expect(after).toEqual(before);
    expect(before[0]!.pdf === 'pdf-of-g' || before[1]!.pdf === 'pdf-of-g').toBe(true);
    expect((await billPdf(h.db, g.billId))!.content.toString()).toBe('g');
    await h.db.update(bills).set({ billingStatus: 'GENERATED' }).where(eq(bills.billId, paid.billId));
    // B's tariff history is gone: nothing to compute with; the bill stays as it was.
    const [b] = await billsOf('B');
    const history = await h.db.select().from(contractTariffs).where(eq(contractTariffs.contractKey, keys.B));
    await h.db.delete(contractTariffs).where(eq(contractTariffs.contractKey, keys.B));
    const res = await regenerate([b.billNumber]);
    expect(res.body.data.unSuccessfulBillRegenerations).toEqual([{ billNumber: b.billNumber, errorCode: 'BILLING_UTILITY_ERROR' }]);
    expect(await billsOf('B')).toEqual([b]);
    await h.db.insert(contractTariffs).values(history);
  });

  it('computes a GENERATED bill again from today’s data under its number and id; its PDF goes', async () => {
    const [before] = await billsOf('A');
    await h.db.insert(files).values({ id: 'pdf-of-a', fileName: 'a.pdf', mimeType: 'application/pdf', size: 1, content: Buffer.from('x') });
    await h.db.update(bills).set({ pdfFileId: 'pdf-of-a' }).where(eq(bills.billId, before.billId));
    await charge('A', '2026-10-25', '10.000');
    await h.db.update(contracts).set({ lastName: 'Neu' }).where(eq(contracts.contractKey, keys.A));
    const res = await regenerate([before.billNumber]);
    expect(res.body.data).toEqual({ successfulBillRegenerations: [before.billNumber], unSuccessfulBillRegenerations: [] });
    const [after] = await billsOf('A');
    expect([after.billId, after.billNumber, after.version, after.pdfFileId]).toEqual([
      before.billId,
      before.billNumber,
      before.version + 1,
      null,
    ]);
    // fixed 6.71; 30 kWh × 0.39 = 11.70; 3 × 0.50 = 1.50; onboarding 49.00: net 68.91; VAT 13.0929 → 13.09; 82.00.
    expect(totals(after)).toEqual({
      net: '68.91',
      vat: '13.09',
      gross: '82.00',
      taxedVar: '13.92',
      taxedFix: '68.08',
      status: 'GENERATED',
    });
    expect(after.endCustomerLastName).toBe('Neu');
    expect(await h.db.select({ id: files.id }).from(files).where(eq(files.id, 'pdf-of-a'))).toEqual([]);
    // Issued anew: its invoice says what today's data says (the snapshot taken again).
    const doc = (await loadInvoiceDocument(h.db, after.billId))!;
    expect([doc.recipient.name, doc.grossCents, doc.invoiceDate]).toEqual(['Erika Neu', 8200n, berlinDate(after.billGenerationDate)]);
  });
});

describe('an issued bill never changes (issue 35)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'issued-bill-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let serial = 0;
  /** The PDF's text and its embedded e-invoice. */
  const read = (pdf: Buffer) => {
    const sub = path.join(dir, String(++serial));
    mkdirSync(sub);
    const file = path.join(sub, 'bill.pdf');
    writeFileSync(file, pdf);
    execFileSync('pdfdetach', ['-saveall', '-o', sub, file]);
    return {
      text: execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }),
      xml: readFileSync(path.join(sub, 'factur-x.xml'), 'utf8'),
    };
  };

  it("prints what it said when issued, after the operator's IBAN, address and template, the customer's address and the bill's payment change", async () => {
    await h.db
      .update(operators)
      .set({
        street: 'Alte Straße 1',
        zipCode: '10115',
        city: 'Berlin',
        headerLine1: 'Alte Kopfzeile',
        iban: 'DE89370400440532013000',
        bic: 'COBADEFFXXX',
        creditorId: 'DE98ZZZ09999999999',
        moneyCollectionGapInDays: 14,
      })
      .where(eq(operators.cpoId, OP));
    await contract(
      h.db,
      'SEPA1',
      { cycle: 'MONTHLY', start: '2026-07-01', contractMandateReference: 'MR-ALT-1', contractIban: 'DE02120300000000202051' },
      [{ from: '2026-07-01', fix: '9.90', perKwh: '0.3900' }],
    );
    await contract(h.db, 'TRANSFER1', { cycle: 'MONTHLY', start: '2026-07-01', paymentMethod: 'BANK_TRANSFER', street: 'Kundenweg 7' }, [
      { from: '2026-07-01', fix: '9.90', perKwh: '0.3900' },
    ]);
    expect(await run('2026-07', ['SEPA1', 'TRANSFER1'])).toEqual({ created: 2, skipped: 0, failed: 0, locked: 0 });
    const [sepa] = await billsOf('SEPA1');
    const [transfer] = await billsOf('TRANSFER1');
    expect([sepa.issuedDocument, transfer.issuedDocument]).not.toContain(null);
    const drawnAtIssue = (await billPdf(h.db, sepa.billId))!.content;

    await h.db
      .update(operators)
      .set({
        street: 'Neue Allee 99',
        city: 'Hamburg',
        headerLine1: 'Neue Kopfzeile',
        iban: 'DE75512108001245126199',
        creditorId: 'DE12ZZZ00000000001',
      })
      .where(eq(operators.cpoId, OP));
    await h.db
      .update(contracts)
      .set({ street: 'Umzugsstraße 3', city: 'Köln', contractMandateReference: 'MR-NEU-2' })
      .where(inArray(contracts.contractKey, [keys.SEPA1!, keys.TRANSFER1!]));
    await h.db
      .update(bills)
      .set({ billingStatus: 'PAID', billCollectionDate: new Date('2026-12-01T09:00:00Z') })
      .where(inArray(bills.billId, [sepa.billId, transfer.billId]));

    // Drawn before the changes: the same bytes, e-invoice included.
    expect((await billPdf(h.db, sepa.billId))!.content.equals(drawnAtIssue)).toBe(true);
    // Drawn first after them: the values of its issue (generated 02.11.2026), and the SEPA
    // pre-notification's planned debit date (+14 days), never the day it was collected.
    const old = read(drawnAtIssue);
    expect(old.text).toContain('MR-ALT-1');
    expect(old.text).toContain('DE98ZZZ09999999999');
    expect(old.text).toContain('am 16.11.2026');
    expect(old.text).not.toContain('01.12.2026');
    const late = read((await billPdf(h.db, transfer.billId))!.content);
    for (const said of ['DE89 3704 0044 0532 0130 00', 'Alte Straße 1', 'Alte Kopfzeile', 'Kundenweg 7']) expect(late.text).toContain(said);
    for (const changed of ['DE75 5121', 'Neue Allee', 'Hamburg', 'Neue Kopfzeile', 'Umzugsstraße', 'Köln'])
      expect(late.text).not.toContain(changed);
    expect(late.xml).toContain('DE89370400440532013000');
    expect(late.xml).toContain('Kundenweg 7');
    expect(late.xml).not.toMatch(/DE75512108001245126199|Neue Allee|Umzugsstraße/);
  });
});

/** Every operator's numbers of a year are 1…n: no gap, no number twice. */
async function numbersWithoutGaps(db: Db, year: number) {
  const rows = await db
    .select({ cpoId: bills.cpoId, n: bills.billNumber })
    .from(bills)
    .where(sql`${bills.billNumber} like ${`%${year}-%`}`);
  const byOperator = new Map<string, number[]>();
  for (const r of rows) byOperator.set(r.cpoId, [...(byOperator.get(r.cpoId) ?? []), Number(r.n.slice(-6))]);
  for (const numbers of byOperator.values()) expect(numbers.sort((a, b) => a - b)).toEqual(numbers.map((_, i) => i + 1));
  return rows.length;
}

describe.runIf(testDatabaseUrl())('two instances on one PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  const handles: DbHandle[] = [];
  beforeAll(async () => {
    database = await createSeededTestDatabaseUrl(testDatabaseUrl()!);
    handles.push(await createDb({ databaseUrl: database.url, dataDir: '' }), await createDb({ databaseUrl: database.url, dataDir: '' }));
  });
  afterAll(async () => {
    for (const handle of handles) await handle.close();
    // The drop is forced: wait until the pools' connections are gone, or it kills them with an error
    // their clients report as unhandled.
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    const name = new URL(database.url).pathname.slice(1);
    for (let i = 0; i < 50; i++) {
      const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
      if (rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await admin.end();
    await database?.drop();
  });

  it('running the same month at once creates each bill once and leaves no number gap', async () => {
    const [one, two] = handles.map((x) => x.db);
    const before = (await one.select({ n: count() }).from(bills))[0].n;
    const now = new Date('2026-04-02T06:00:00Z');
    const answers = await Promise.all([runBills(one, '2026-03', { now }), runBills(two, '2026-03', { now })]);
    expect(answers.map((a) => a.failed)).toEqual([0, 0]);
    const created = answers[0].created + answers[1].created;
    expect(created).toBeGreaterThan(20);
    const after = (await one.select({ n: count() }).from(bills))[0].n;
    expect(after - before).toBe(created);
    expect(await runBills(two, '2026-03', { now })).toMatchObject({ created: 0, failed: 0 });
    expect(await numbersWithoutGaps(one, 2026)).toBeGreaterThanOrEqual(created);
  });
});
