import { asc, count, eq, sql } from 'drizzle-orm';
import type { OperatorDetail, OperatorListRow } from '../../../contract/operators';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { contracts, customers, erpValues, locations, operators } from '../db/schema';

export async function listOperators(db: Db, scope: Scope, page: number, size: number): Promise<{ total: number; rows: OperatorListRow[] }> {
  const where = scope.where(operators.cpoId);
  // The total rides along as a column of the page's statement; only a page past the end asks alone.
  const total = db.select({ n: count() }).from(operators).where(where);
  // Distinct aliases: drizzle references subquery fields unqualified.
  const locationCounts = db
    .select({ cpoId: locations.cpoId, n: count().as('n_locations') })
    .from(locations)
    .groupBy(locations.cpoId)
    .as('lc');
  const contractCounts = db
    .select({ cpoId: contracts.cpoId, n: count().as('n_contracts') })
    .from(contracts)
    .groupBy(contracts.cpoId)
    .as('cc');
  const rows = await db
    .select({
      cpoId: operators.cpoId,
      cpoName: operators.cpoName,
      nrOfLocations: sql<number>`coalesce(${locationCounts.n}, 0)::int`,
      nrOfEndCustomers: sql<number>`coalesce(${contractCounts.n}, 0)::int`,
      listTotal: sql<number>`(${total})`.mapWith(Number),
    })
    .from(operators)
    .leftJoin(locationCounts, eq(locationCounts.cpoId, operators.cpoId))
    .leftJoin(contractCounts, eq(contractCounts.cpoId, operators.cpoId))
    .where(where)
    .orderBy(asc(operators.cpoId))
    .limit(size)
    .offset(page * size);
  return { total: rows.length ? rows[0].listTotal : (await total)[0].n, rows: rows.map(({ listTotal: _total, ...r }) => r) };
}

const lines = (a: string | null, b: string | null, c: string | null, d: string | null) => ({
  lineOne: a,
  lineTwo: b,
  lineThree: c,
  lineFour: d,
});

/** Undefined when the operator does not exist or lies outside the scope: both answer 404. */
export async function getOperatorDetail(db: Db, scope: Scope, cpoId: string): Promise<OperatorDetail | undefined> {
  if (!scope.canSeeOperator(cpoId)) return undefined;
  const [row] = await db
    .select({ op: operators, customerType: customers.customerType })
    .from(operators)
    .innerJoin(customers, eq(customers.customerId, operators.customerId))
    .where(eq(operators.cpoId, cpoId));
  if (!row) return undefined;
  const { op } = row;
  const erp = await db.select().from(erpValues).where(eq(erpValues.cpoId, cpoId)).orderBy(asc(erpValues.id));
  const hasPayment = op.paymentPreference.length > 0 || !!op.iban || !!op.creditorId;
  return {
    cpoId: op.cpoId,
    cpoName: op.cpoName,
    cpoAddress: { street: op.street, careOf: op.careOf, zipCode: op.zipCode, city: op.city, countryCode: 'DE' },
    customerId: op.customerId,
    customerType: row.customerType,
    createManualEndCustomerId: op.createManualEndCustomerId,
    contactPersonDetails: {
      contactPersonName: op.contactPersonName,
      contactPersonPosition: op.contactPersonPosition,
      contactPersonPhone: op.contactPersonPhone,
      contactPersonEmail: op.contactPersonEmail,
    },
    billingType: op.billingType,
    isChargingHistoryIncluded: op.isChargingHistoryIncluded,
    cpoPaymentDetails: hasPayment
      ? {
          cpoPaymentPreference: op.paymentPreference,
          cpoIban: op.iban,
          cpoBankName: op.bankName,
          cpoBic: op.bic,
          creditorId: op.creditorId,
          moneyCollectionGapInDays: op.moneyCollectionGapInDays,
        }
      : null,
    billingTemplateHeader: lines(op.headerLine1, op.headerLine2, op.headerLine3, op.headerLine4),
    billingTemplateFooter: lines(op.footerLine1, op.footerLine2, op.footerLine3, op.footerLine4),
    erpValues: erp.map((e) => ({
      cpoId: e.cpoId,
      clientNumber: e.clientNumber,
      netLedgerAccountNr: e.netLedgerAccountNr,
      taxLedgerAccountNr: e.taxLedgerAccountNr,
      paymentMethod: e.paymentMethod,
    })),
    version: op.version,
  };
}
