import { and, asc, count, eq, notInArray, or, sql } from 'drizzle-orm';
import type { ErpPaymentMethod } from '../../../contract/enums';
import type { OperatorDetail, OperatorListRow } from '../../../contract/operators';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { transactionLock } from '../db/sql-helpers';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { customers } from '../db/schema/customers';
import { locations } from '../db/schema/locations';
import { erpValues, operators } from '../db/schema/operators';

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
    vatId: op.vatId,
    taxNumber: op.taxNumber,
    billNumberPrefix: op.billNumberPrefix,
    erpValues: erp.map((e) => ({
      cpoId: e.cpoId,
      clientNumber: e.clientNumber,
      netLedgerAccountNr: e.netLedgerAccountNr,
      taxLedgerAccountNr: e.taxLedgerAccountNr,
      clearingAccountNr: e.clearingAccountNr,
      paymentMethod: e.paymentMethod,
    })),
    version: op.version,
  };
}

// ---------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------

export type OperatorRow = typeof operators.$inferSelect;
export type OperatorInsert = typeof operators.$inferInsert;
export type ErpValueRow = typeof erpValues.$inferSelect;

/** The operator if it exists inside the scope, locked until the transaction ends (every write to it waits here). */
export async function lockOperator(db: Db, scope: Scope, cpoId: string): Promise<OperatorRow | undefined> {
  if (!scope.canSeeOperator(cpoId)) return undefined;
  const [row] = await db.select().from(operators).where(eq(operators.cpoId, cpoId)).for('update');
  return row;
}

export async function findCustomer(db: Db, customerId: string) {
  const [row] = await db
    .select({ customerId: customers.customerId, customerType: customers.customerType })
    .from(customers)
    .where(eq(customers.customerId, customerId));
  return row;
}

/** The next free `CPO<n>` operator id; holds the id lock until the transaction ends. */
export async function nextOperatorId(db: Db): Promise<string> {
  await transactionLock(db, 'operators.cpo_id');
  const [{ maxNo }] = await db
    .select({ maxNo: sql<number>`coalesce(max(substring(${operators.cpoId} from 4)::int), 1000)::int` })
    .from(operators)
    .where(sql`${operators.cpoId} ~ '^CPO[0-9]{1,9}$'`);
  return `CPO${maxNo + 1}`;
}

export async function insertOperator(db: Db, row: OperatorInsert): Promise<{ cpoId: string; cpoName: string; version: number }> {
  const [created] = await db
    .insert(operators)
    .values(row)
    .returning({ cpoId: operators.cpoId, cpoName: operators.cpoName, version: operators.version });
  return created!;
}

/** Writes the given columns of an operator and moves its version on by one. */
export async function writeOperator(db: Db, cpoId: string, set: Partial<OperatorInsert>): Promise<number> {
  const [updated] = await db
    .update(operators)
    .set({ ...set, version: sql`${operators.version} + 1` })
    .where(eq(operators.cpoId, cpoId))
    .returning({ version: operators.version });
  return updated!.version;
}

/**
 * The operator's ERP value for a payment method, inserted or replaced (one per operator and
 * method: `erp_values_cpo_method_uq`). The caller holds the operator's lock, so no other write
 * of this operator's values runs meanwhile.
 */
export async function upsertErpValue(
  db: Db,
  value: Omit<typeof erpValues.$inferInsert, 'id'> & { paymentMethod: ErpPaymentMethod },
): Promise<{ row: ErpValueRow; created: boolean }> {
  const [existing] = await db
    .select({ id: erpValues.id })
    .from(erpValues)
    .where(and(eq(erpValues.cpoId, value.cpoId), eq(erpValues.paymentMethod, value.paymentMethod)));
  if (existing) {
    const [row] = await db
      .update(erpValues)
      .set({
        clientNumber: value.clientNumber,
        netLedgerAccountNr: value.netLedgerAccountNr,
        taxLedgerAccountNr: value.taxLedgerAccountNr,
        clearingAccountNr: value.clearingAccountNr,
      })
      .where(eq(erpValues.id, existing.id))
      .returning();
    return { row: row!, created: false };
  }
  const [row] = await db.insert(erpValues).values(value).returning();
  return { row: row!, created: true };
}

/**
 * The operator's contracts that the operator collects by SEPA direct debit (issue 35): paying by
 * SEPA and not ended, or ended with a SEPA bill still to collect. The first 20 by number, and how many.
 */
export async function sepaDebitContracts(db: Db, cpoId: string) {
  const rows = await db
    .select({ contractNumber: contracts.contractNumber, count: sql<number>`(count(*) over ())::int` })
    .from(contracts)
    .where(
      and(
        eq(contracts.cpoId, cpoId),
        sql`${contracts.paymentMethod} = 'SEPA'`,
        or(
          notInArray(contracts.contractStatus, ['EXPIRED', 'UNSIGNED_EXPIRED']),
          sql`exists (select 1 from ${bills} where ${bills.contractKey} = ${contracts.contractKey} and ${bills.paymentMethod} = 'SEPA' and ${bills.billingStatus} in ('GENERATED', 'SENT'))`,
        ),
      ),
    )
    .orderBy(asc(contracts.contractNumber))
    .limit(20);
  return { contractNumbers: rows.map((r) => r.contractNumber), count: rows[0]?.count ?? 0 };
}
