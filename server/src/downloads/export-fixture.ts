import { eq } from 'drizzle-orm';
import type { PaymentMethod } from '../../../contract/enums';
import type { Db } from '../db/client';
import { dashboardUsers } from '../db/schema/auth';
import { bills } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { locations, wallboxModels } from '../db/schema/locations';
import { erpValues, operators } from '../db/schema/operators';
import { connectors } from '../db/schema/stations';

/**
 * A small fixed data set for the export tests (server and e2e), apart from the demo seed: one
 * operator of the partner account's customer with ERP values, two locations, two end customers
 * (one with umlauts, one whose name is a formula), four bills with net, VAT and gross, and four
 * charging requests. Every file the tests read is compared with these values field by field.
 */
export const FX = {
  cpoId: 'DLX-OP',
  cpoName: 'Ladepark Süd GmbH',
  loc1: 'DLX-L1',
  loc1Name: 'Parkhaus Müllerstraße',
  loc2: 'DLX-L2',
  loc2Name: 'Depot Nord',
  /** DATEV: consultant number / client number. */
  clientNumber: '29098/55003',
  netLedger: '8400',
  taxLedger: '1776',
  c1: {
    key: 'DLX-C1',
    endCustomerId: '900001',
    first: 'Jürgen',
    last: 'Weiß',
    debit: '10001',
    cost: '100',
    vat: '19',
    company: 'Weiß Logistik GmbH',
    customerVatId: 'DE811907980',
  },
  c2: {
    key: 'DLX-C2',
    endCustomerId: '900002',
    first: '=HYPERLINK("http://x")',
    last: '@SUM(1)',
    debit: '10002',
    cost: '200',
    vat: '19',
    company: 'Formel & Co. KG',
    customerVatId: 'ATU12345678',
  },
  /** The March range: B1, B2 (SEPA) and B3 (bank transfer); B4 is in April. */
  march: { startDate: '2026-03-01', endDate: '2026-03-31' },
} as const;

export const FX_BILLS = [
  {
    n: 'RE-2026-DLX-0001',
    c: FX.c1,
    loc: FX.loc1,
    pm: 'SEPA',
    from: '2026-02-01',
    to: '2026-02-28',
    at: '2026-03-02T10:00:00Z',
    net: '100.00',
    vat: '19.00',
    gross: '119.00',
    kwh: '250.000',
  },
  {
    n: 'RE-2026-DLX-0002',
    c: FX.c2,
    loc: FX.loc2,
    pm: 'SEPA',
    from: '2026-02-01',
    to: '2026-02-28',
    at: '2026-03-05T09:30:00Z',
    net: '12.61',
    vat: '2.40',
    gross: '15.01',
    kwh: '31.250',
  },
  {
    n: 'RE-2026-DLX-0003',
    c: FX.c1,
    loc: FX.loc1,
    pm: 'BANK_TRANSFER',
    from: '2026-03-01',
    to: '2026-03-09',
    at: '2026-03-10T08:00:00Z',
    net: '50.00',
    vat: '9.50',
    gross: '59.50',
    kwh: '120.500',
  },
  {
    n: 'RE-2026-DLX-0004',
    c: FX.c2,
    loc: FX.loc2,
    pm: 'SEPA',
    from: '2026-03-01',
    to: '2026-03-31',
    at: '2026-04-02T08:00:00Z',
    net: '10.00',
    vat: '1.90',
    gross: '11.90',
    kwh: '20.000',
  },
] as const;

export const FX_REQUESTS = [
  { id: 'DLX-T1', c: FX.c1, loc: FX.loc1, cp: 'DLX-CP1_1', type: 'NORMAL', start: '2026-03-03T07:15:00Z', kwh: '12.345', cost: '4.56' },
  { id: 'DLX-T2', c: FX.c2, loc: FX.loc1, cp: 'DLX-CP1_1', type: 'NORMAL', start: '2026-03-04T18:00:00Z', kwh: '7.000', cost: '2.10' },
  { id: 'DLX-T3', c: FX.c1, loc: FX.loc2, cp: 'DLX-CP2_1', type: 'NORMAL', start: '2026-03-20T12:00:00Z', kwh: '30.500', cost: '9.15' },
  { id: 'DLX-T4', c: FX.c2, loc: FX.loc2, cp: 'DLX-CP2_1', type: 'AD_HOC', start: '2026-03-21T12:00:00Z', kwh: '5.000', cost: '3.00' },
] as const;

type FixtureBill = {
  n: string;
  c: { key: string; endCustomerId: string; first: string; last: string };
  loc: string;
  pm: string;
  from: string;
  to: string;
  at: string;
  net: string;
  vat: string;
  gross: string;
  kwh?: string;
};

/** A bill row of the data set at 19 %. */
const fixtureBill = (b: FixtureBill, billingStatus: 'GENERATED' | 'PAID') => ({
  billId: `${b.n}-ID`,
  billNumber: b.n,
  contractKey: b.c.key,
  cpoId: FX.cpoId,
  locationId: b.loc,
  endCustomerId: b.c.endCustomerId,
  endCustomerFirstName: b.c.first,
  endCustomerLastName: b.c.last,
  userType: 'REGULAR' as const,
  startDate: b.from,
  endDate: b.to,
  energyLoaded: b.kwh,
  totalTaxedCosts: b.gross,
  netCosts: b.net,
  vatPercent: '19',
  vatCosts: b.vat,
  billingStatus,
  billGenerationDate: new Date(b.at),
  paymentMethod: b.pm as PaymentMethod,
  monthNumber: Number(b.at.slice(5, 7)),
  yearNumber: 2026,
});

/** Inserts the data set under the customer of the dashboard user with this e-mail. */
export async function insertExportFixture(db: Db, ownerEmail: string) {
  const [owner] = await db
    .select({ customerId: dashboardUsers.customerId })
    .from(dashboardUsers)
    .where(eq(dashboardUsers.email, ownerEmail));
  const [model] = await db.select({ name: wallboxModels.name }).from(wallboxModels).limit(1);
  await db.insert(operators).values({
    cpoId: FX.cpoId,
    cpoName: FX.cpoName,
    street: 'Hauptstraße 1',
    zipCode: '80331',
    city: 'München',
    customerId: owner.customerId,
    vatId: 'DE999999999',
  });
  await db.insert(erpValues).values(
    (['SEPA', 'BANK_TRANSFER'] as const).map((pm) => ({
      cpoId: FX.cpoId,
      clientNumber: FX.clientNumber,
      netLedgerAccountNr: FX.netLedger,
      taxLedgerAccountNr: FX.taxLedger,
      paymentMethod: pm,
    })),
  );
  await db.insert(locations).values([
    { locationId: FX.loc1, locationName: FX.loc1Name, street: 'Müllerstraße 5', zipCode: '80469', city: 'München', cpoId: FX.cpoId },
    { locationId: FX.loc2, locationName: FX.loc2Name, street: 'Nordring 2', zipCode: '90411', city: 'Nürnberg', cpoId: FX.cpoId },
  ]);
  await db.insert(connectors).values([
    { connectorId: 'DLX-CP1_1', cpId: 'DLX-CP1', connectorNumber: 1, cpoId: FX.cpoId, locationId: FX.loc1, wallboxModel: model.name },
    { connectorId: 'DLX-CP2_1', cpId: 'DLX-CP2', connectorNumber: 1, cpoId: FX.cpoId, locationId: FX.loc2, wallboxModel: model.name },
  ]);
  await db.insert(contracts).values(
    [FX.c1, FX.c2].map((c, i) => ({
      contractKey: c.key,
      contractId: `${c.key}-ID`,
      contractNumber: `${c.key}-NR`,
      endCustomerId: c.endCustomerId,
      cpoId: FX.cpoId,
      locationId: i === 0 ? FX.loc1 : FX.loc2,
      contractStatus: 'ACTIVE' as const,
      userType: 'REGULAR' as const,
      firstName: c.first,
      lastName: c.last,
      email: `${c.endCustomerId}@dlx.example`,
      street: 'Weg 1',
      zipCode: '80331',
      city: 'München',
      billingType: 'WITH_BILLING' as const,
      debitAccountNr: c.debit,
      costCenterNumber: c.cost,
      vatId: c.vat,
      companyName: c.company,
      customerVatId: c.customerVatId,
    })),
  );
  await db.insert(bills).values(FX_BILLS.map((b) => fixtureBill(b, 'GENERATED')));
  await db.insert(chargingRequests).values(
    FX_REQUESTS.map((r) => ({
      transactionId: r.id,
      contractKey: r.c.key,
      endCustomerId: r.c.endCustomerId,
      customerFullName: `${r.c.first} ${r.c.last}`,
      cpoId: FX.cpoId,
      locationId: r.loc,
      connectorId: r.cp,
      authType: 'APP' as const,
      chargingType: r.type,
      status: 'finished' as const,
      startDate: new Date(r.start),
      endDate: new Date(Date.parse(r.start) + 3_600_000),
      lastUpdateTimestamp: new Date(Date.parse(r.start) + 3_600_000),
      energyKwh: r.kwh,
      cost: r.cost,
    })),
  );
}

/** Stripe's bills of the data set (issue 35), in March beside B1–B3, and their ERP values with the clearing account. */
export const FX_STRIPE = {
  clearing: '1360',
  bills: [
    // Periods of their own (a contract's period is billed once): C1 paid by Stripe SEPA for a while, C2's ad-hoc card payment.
    {
      n: 'RE-2026-DLX-0006',
      c: FX.c1,
      pm: 'STRIPE_SEPA',
      from: '2026-01-01',
      to: '2026-01-31',
      at: '2026-03-12T08:00:00Z',
      net: '20.00',
      vat: '3.80',
      gross: '23.80',
    },
    {
      n: 'RE-2026-DLX-0007',
      c: FX.c2,
      pm: 'STRIPE_CARD',
      from: '2026-03-14',
      to: '2026-03-14',
      at: '2026-03-15T08:00:00Z',
      net: '5.00',
      vat: '0.95',
      gross: '5.95',
    },
  ],
} as const;

/** Adds FX_STRIPE to the data set (after insertExportFixture). */
export async function insertStripeBills(db: Db) {
  await db.insert(erpValues).values(
    (['STRIPE_SEPA', 'STRIPE_CARD'] as const).map((pm) => ({
      cpoId: FX.cpoId,
      clientNumber: FX.clientNumber,
      netLedgerAccountNr: FX.netLedger,
      taxLedgerAccountNr: FX.taxLedger,
      clearingAccountNr: FX_STRIPE.clearing,
      paymentMethod: pm,
    })),
  );
  await db.insert(bills).values(FX_STRIPE.bills.map((b) => fixtureBill({ ...b, loc: b.c === FX.c1 ? FX.loc1 : FX.loc2 }, 'PAID')));
}
