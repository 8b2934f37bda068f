import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { BillStatus, PaymentMethod } from '../../../contract/enums';
import { centsToNumeric, computeBill, type BillFigures } from '../bills/compute';
import type { Db } from '../db/client';
import { bills, type StoredBillLine } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { connectors } from '../db/schema/stations';

/**
 * Bills with real lines for the bills tests, independent of how the seed draws its bills: one
 * contract's period with `requests` finished charging requests (written too, for the history), its
 * figures from compute.ts, a bill number of its own.
 */

let serial = 0;

export interface TestBill {
  billId: string;
  billNumber: string;
  contractKey: string;
  cpoId: string;
  figures: BillFigures;
}

/** A contract of the operator (the first by key), for a test bill. */
export async function contractOf(db: Db, cpoId: string): Promise<string> {
  const [c] = await db
    .select({ key: contracts.contractKey })
    .from(contracts)
    .where(eq(contracts.cpoId, cpoId))
    .orderBy(asc(contracts.contractKey))
    .limit(1);
  if (!c) throw new Error(`no contract of ${cpoId}`);
  return c.key;
}

export async function insertTestBill(
  db: Db,
  contractKey: string,
  opts: { status?: BillStatus; requests?: number; start?: string; end?: string; paymentMethod?: PaymentMethod | null } = {},
): Promise<TestBill> {
  const start = opts.start ?? '2026-02-01';
  const end = opts.end ?? '2026-02-28';
  const [c] = await db.select().from(contracts).where(eq(contracts.contractKey, contractKey));
  const [connector] = await db
    .select({ connectorId: connectors.connectorId, locationId: connectors.locationId })
    .from(connectors)
    .where(and(eq(connectors.cpoId, c.cpoId), isNotNull(connectors.locationId)))
    .orderBy(asc(connectors.connectorId))
    .limit(1);
  const n = opts.requests ?? 3;
  const id = ++serial;
  const requests = Array.from({ length: n }, (_, i) => {
    const day = 1 + (i % 28);
    const startDate = new Date(`${start.slice(0, 8)}${String(day).padStart(2, '0')}T08:00:00Z`);
    startDate.setUTCMinutes((i * 7) % 600);
    return {
      transactionId: `TB${String(id).padStart(4, '0')}${String(i).padStart(12, '0')}`,
      contractKey,
      endCustomerId: c.endCustomerId,
      customerFullName: `${c.firstName} ${c.lastName}`,
      cpoId: c.cpoId,
      locationId: connector.locationId!,
      connectorId: connector.connectorId,
      parkingLot: 'P1',
      authType: 'APP' as const,
      status: 'finished' as const,
      startDate,
      endDate: new Date(startDate.getTime() + 95 * 60_000),
      lastUpdateTimestamp: startDate,
      energyKwh: `${10 + (i % 17)}.${String((i * 137) % 1000).padStart(3, '0')}`,
      cost: '0',
    };
  });
  for (let i = 0; i < requests.length; i += 500) await db.insert(chargingRequests).values(requests.slice(i, i + 500));
  const figures = computeBill({
    start,
    end,
    withFixedTariff: true,
    onboardingFee: '25.00',
    tariffs: [{ from: '2020-01-01', fixMonthly: '9.90', perKwh: '0.3900', perRequest: '0.50' }],
    requests: requests.map((r) => ({ day: r.startDate.toISOString().slice(0, 10), energyKwh: r.energyKwh })),
  });
  const lines: StoredBillLine[] = figures.lines.map((l) => ({
    kind: l.kind,
    from: l.from,
    to: l.to,
    quantity: { numerator: String(l.quantity.numerator), denominator: String(l.quantity.denominator) },
    unitPrice: String(l.unitPrice),
    netCents: String(l.netCents),
  }));
  const billId = randomUUID();
  const billNumber = `RE-TEST-${c.cpoId}-${String(id).padStart(6, '0')}`;
  await db.insert(bills).values({
    billId,
    billNumber,
    contractKey,
    cpoId: c.cpoId,
    locationId: c.locationId,
    endCustomerId: c.endCustomerId,
    endCustomerFirstName: c.firstName,
    endCustomerLastName: c.lastName,
    userType: c.userType,
    startDate: start,
    endDate: end,
    energyLoaded: (Number(figures.energyWh) / 1000).toFixed(3),
    taxedFixCosts: centsToNumeric(figures.taxedFixCents),
    taxedVarCosts: centsToNumeric(figures.taxedVarCents),
    totalTaxedCosts: centsToNumeric(figures.grossCents),
    netCosts: centsToNumeric(figures.netCents),
    vatCosts: centsToNumeric(figures.vatCents),
    billingStatus: opts.status ?? 'GENERATED',
    billGenerationDate: new Date(`${end}T23:30:00Z`),
    paymentMethod: opts.paymentMethod === undefined ? c.paymentMethod : opts.paymentMethod,
    monthNumber: Number(end.slice(5, 7)),
    yearNumber: Number(end.slice(0, 4)),
    lines,
  });
  return { billId, billNumber, contractKey, cpoId: c.cpoId, figures };
}

/** Whether a bill has its PDF linked, and its download date. */
export async function billState(db: Db, billId: string) {
  const [row] = await db
    .select({
      pdfFileId: bills.pdfFileId,
      billDownloadDate: bills.billDownloadDate,
      billingStatus: bills.billingStatus,
      files: sql<number>`(select count(*)::int from files f where f.id = ${bills.pdfFileId})`,
    })
    .from(bills)
    .where(eq(bills.billId, billId));
  return row;
}
