import { and, asc, eq, gte, inArray, lt, or, sql, type Column, type SQL } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts } from '../db/schema/contracts';
import { locations } from '../db/schema/locations';
import { erpValues, operators } from '../db/schema/operators';
import { sepaMandateChanges, sepaMandateCollections } from '../db/schema/sepa';
import { NAME_MAX, patternSource, TEXT_MAX, XML_ILLEGAL_SOURCE, type ErpPattern } from './erp-values';

/** The download center's reads (issue 25): bills in keyset pages, in the order accountants read them. */

export interface BillRange {
  locationIds: string[] | 'all';
  startDate: string;
  endDate: string;
}
export interface BillCursor {
  generated: Date;
  billId: string;
}

/** Bills generated on the Berlin days of the range (both included), at the locations. */
export function billsInRange(scope: Scope, f: BillRange): SQL | undefined {
  return and(
    scope.where(bills.cpoId),
    Array.isArray(f.locationIds) ? inArray(bills.locationId, f.locationIds) : undefined,
    gte(bills.billGenerationDate, sql`((${f.startDate}::date)::timestamp at time zone 'Europe/Berlin')`),
    lt(bills.billGenerationDate, sql`(((${f.endDate}::date) + 1)::timestamp at time zone 'Europe/Berlin')`),
  );
}

/** After the cursor's bill in (generation date, bill id) order. */
export const afterBill = (after: BillCursor | undefined) =>
  after
    ? and(
        // Redundant, but an index bound: the OR alone would make every page walk from the first bill.
        sql`${bills.billGenerationDate} >= ${after.generated.toISOString()}::timestamptz`,
        or(
          sql`${bills.billGenerationDate} > ${after.generated.toISOString()}::timestamptz`,
          and(sql`${bills.billGenerationDate} = ${after.generated.toISOString()}::timestamptz`, sql`${bills.billId} > ${after.billId}`),
        ),
      )
    : undefined;

export const billCursor = (b: { billGenerationDate: Date; billId: string }): BillCursor => ({
  generated: b.billGenerationDate,
  billId: b.billId,
});

/** One page of the billing CSV: oldest first, as bills are numbered. */
export async function billCsvPage(db: Db, scope: Scope, f: BillRange, size: number, after?: BillCursor) {
  return db
    .select({
      billId: bills.billId,
      billNumber: bills.billNumber,
      billGenerationDate: bills.billGenerationDate,
      startDate: bills.startDate,
      endDate: bills.endDate,
      endCustomerId: bills.endCustomerId,
      firstName: bills.endCustomerFirstName,
      lastName: bills.endCustomerLastName,
      userType: bills.userType,
      paymentMethod: bills.paymentMethod,
      billingStatus: bills.billingStatus,
      locationName: locations.locationName,
      energyLoaded: bills.energyLoaded,
      netCosts: bills.netCosts,
      vatPercent: bills.vatPercent,
      vatCosts: bills.vatCosts,
      totalTaxedCosts: bills.totalTaxedCosts,
    })
    .from(bills)
    .leftJoin(locations, eq(locations.locationId, bills.locationId))
    .where(and(billsInRange(scope, f), afterBill(after)))
    .orderBy(asc(bills.billGenerationDate), asc(bills.billId))
    .limit(size);
}
export type BillCsvRow = Awaited<ReturnType<typeof billCsvPage>>[number];

/** The operator's ERP value for a payment method (spec 3 §3), and the operator's own name. */
export async function erpValueOf(db: Db, cpoId: string, paymentMethod: string) {
  const [row] = await db
    .select({
      cpoName: operators.cpoName,
      clientNumber: erpValues.clientNumber,
      netLedgerAccountNr: erpValues.netLedgerAccountNr,
      taxLedgerAccountNr: erpValues.taxLedgerAccountNr,
      clearingAccountNr: erpValues.clearingAccountNr,
    })
    .from(operators)
    .leftJoin(erpValues, and(eq(erpValues.cpoId, operators.cpoId), sql`${erpValues.paymentMethod} = ${paymentMethod}`))
    .where(eq(operators.cpoId, cpoId));
  return row;
}

const blank = (col: SQL | Column) => sql`nullif(btrim(${col}), '') is null`;
/** Filled, but not of the pattern (erp-values.ts; a blank one is its own 'missing' code). */
const outOf = (col: Column, p: ErpPattern) => sql`(not ${blank(col)} and btrim(${col}) !~ ${patternSource(p)})`;
const outOfLength = (expr: SQL | Column, max: number) => sql`(char_length(btrim(${expr})) not between 1 and ${max})`;
const firstOf = (expr: SQL, where: SQL) => sql<string[]>`coalesce((array_agg(distinct ${expr}) filter (where ${where}))[1:20], '{}')`;

/**
 * What an ERP file of these bills would lack, in one pass over them: how many bills the range has
 * at all and with the payment method, and the first few bills or end customers missing each value.
 */
/** `debtorDigits`: the DATEV file's length of a debtor account (its ledger accounts' length + 1). */
export async function erpGaps(db: Db, scope: Scope, cpoId: string, paymentMethod: string, f: BillRange, debtorDigits?: number) {
  const pm = sql`${bills.paymentMethod} = ${paymentMethod}`;
  const texts = sql`concat_ws(' ', ${bills.billNumber}, ${bills.endCustomerId}, ${bills.endCustomerFirstName}, ${bills.endCustomerLastName}, ${contracts.debitAccountNr}, ${contracts.costCenterNumber}, ${contracts.vatId})`;
  const [row] = await db
    .select({
      all: sql<number>`count(*)::int`,
      matching: sql<number>`(count(*) filter (where ${pm}))::int`,
      foreignContract: firstOf(sql`${bills.billNumber}`, sql`${pm} and ${contracts.cpoId} <> ${bills.cpoId}`),
      noDebit: firstOf(sql`${bills.endCustomerId}`, sql`${pm} and ${blank(contracts.debitAccountNr)}`),
      noCostCenter: firstOf(sql`${bills.endCustomerId}`, sql`${pm} and ${blank(contracts.costCenterNumber)}`),
      noVatId: firstOf(sql`${bills.endCustomerId}`, sql`${pm} and ${blank(contracts.vatId)}`),
      badDebit: firstOf(sql`${bills.endCustomerId}`, sql`${pm} and ${outOf(contracts.debitAccountNr, 'debitAccount')}`),
      badCostCenter: firstOf(sql`${bills.endCustomerId}`, sql`${pm} and ${outOf(contracts.costCenterNumber, 'costCenter')}`),
      debitOfOtherLength: firstOf(
        sql`${bills.endCustomerId}`,
        debtorDigits === undefined ? sql`false` : sql`${pm} and length(trim(${contracts.debitAccountNr})) <> ${debtorDigits}`,
      ),
      badText: firstOf(
        sql`${bills.billNumber}`,
        sql`${pm} and (${outOfLength(bills.billNumber, TEXT_MAX)} or ${outOfLength(bills.endCustomerId, TEXT_MAX)} or ${outOfLength(contracts.vatId, TEXT_MAX)} or ${outOfLength(sql`concat_ws(' ', ${bills.endCustomerFirstName}, ${bills.endCustomerLastName})`, NAME_MAX)})`,
      ),
      unwritable: firstOf(sql`${bills.billNumber}`, sql`${pm} and ${texts} ~ ${XML_ILLEGAL_SOURCE}`),
    })
    .from(bills)
    .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
    .where(and(billsInRange(scope, f), eq(bills.cpoId, cpoId)));
  return row;
}

/** One page of an ERP file's bills, with what the postings need from the contract. */
export async function erpBillPage(
  db: Db,
  scope: Scope,
  cpoId: string,
  paymentMethod: string,
  f: BillRange,
  size: number,
  after?: BillCursor,
) {
  return db
    .select({
      billId: bills.billId,
      billNumber: bills.billNumber,
      billGenerationDate: bills.billGenerationDate,
      startDate: bills.startDate,
      endDate: bills.endDate,
      endCustomerId: bills.endCustomerId,
      firstName: bills.endCustomerFirstName,
      lastName: bills.endCustomerLastName,
      netCosts: bills.netCosts,
      vatPercent: bills.vatPercent,
      vatCosts: bills.vatCosts,
      totalTaxedCosts: bills.totalTaxedCosts,
      debitAccountNr: contracts.debitAccountNr,
      costCenterNumber: contracts.costCenterNumber,
      vatId: contracts.vatId,
      customerVatId: contracts.customerVatId,
    })
    .from(bills)
    .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
    .where(and(billsInRange(scope, f), eq(bills.cpoId, cpoId), sql`${bills.paymentMethod} = ${paymentMethod}`, afterBill(after)))
    .orderBy(asc(bills.billGenerationDate), asc(bills.billId))
    .limit(size);
}
export type ErpBill = Awaited<ReturnType<typeof erpBillPage>>[number];

/** Which of these location ids belong to the operator (and the caller's scope). */
export async function operatorLocationIds(db: Db, scope: Scope, cpoId: string, ids: string[]) {
  const rows = await db
    .select({ id: locations.locationId })
    .from(locations)
    .where(and(inArray(locations.locationId, ids), eq(locations.cpoId, cpoId), scope.where(locations.cpoId)));
  return new Set(rows.map((r) => r.id));
}

/**
 * A SEPA bill's collection date (the SEPA file, issue 26): the Berlin day it was collected, if it
 * was, else its generation day plus the operator's days until payment (none: the generation day),
 * as the bill's document states it (bills/document.ts `paymentOf`).
 */
const collectionDay = sql`coalesce((${bills.billCollectionDate} at time zone 'Europe/Berlin')::date, (${bills.billGenerationDate} at time zone 'Europe/Berlin')::date + coalesce(${operators.moneyCollectionGapInDays}, 0))`;

/**
 * The bills a SEPA file of the operator collects on the day: GENERATED or SENT, paid by SEPA (not
 * STRIPE_SEPA, which Stripe collects), with something to collect; with what each transaction needs
 * from its contract (the mandate is the contract's as it is now). At most `limit`, by bill number.
 */
export async function sepaBills(db: Db, scope: Scope, cpoId: string, collectionDate: string, limit: number) {
  return db
    .select({
      billNumber: bills.billNumber,
      contractKey: bills.contractKey,
      cents: sql<string>`(${bills.totalTaxedCosts} * 100)::bigint::text`,
      startDate: bills.startDate,
      endDate: bills.endDate,
      contractNumber: contracts.contractNumber,
      contractCpoId: contracts.cpoId,
      firstName: contracts.firstName,
      lastName: contracts.lastName,
      iban: contracts.contractIban,
      mandateReference: contracts.contractMandateReference,
      mandateDate: contracts.contractMandateDate,
    })
    .from(bills)
    .innerJoin(operators, eq(operators.cpoId, bills.cpoId))
    .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
    .where(
      and(
        scope.where(bills.cpoId),
        eq(bills.cpoId, cpoId),
        sql`${bills.paymentMethod} = 'SEPA'`,
        inArray(bills.billingStatus, ['GENERATED', 'SENT']),
        sql`${bills.totalTaxedCosts} > 0`,
        sql`${collectionDay} = ${collectionDate}::date`,
      ),
    )
    .orderBy(asc(bills.billNumber))
    .limit(limit);
}
export type SepaBill = Awaited<ReturnType<typeof sepaBills>>[number];

/**
 * The creditor of an operator's SEPA file, its row locked (FOR NO KEY UPDATE: rows referring to
 * the operator may still be written) until the caller's transaction ends, so the operator's files
 * are made one after the other and which file collected a mandate first is never a race.
 */
export async function sepaCreditor(db: Db, scope: Scope, cpoId: string) {
  const [row] = await db
    .select({ cpoName: operators.cpoName, iban: operators.iban, bic: operators.bic, creditorId: operators.creditorId })
    .from(operators)
    .where(and(eq(operators.cpoId, cpoId), scope.where(operators.cpoId)))
    .for('no key update');
  return row;
}

export interface MandateFiles {
  /** The sequence type each file of a date gave the mandate, and the date first made for it. */
  byDate: Map<string, 'FRST' | 'RCUR' | null>;
  firstMade: string;
}

/**
 * Of these mandates (reference and IBAN), the operator's SEPA files that collected each: per date
 * the sequence type its file gave the mandate when first made, and the date made first (`made_at`
 * is kept from the first making of a date, recordMandateCollections).
 */
export async function mandateFiles(db: Db, cpoId: string, references: string[]) {
  const files = new Map<string, MandateFiles>();
  for (let i = 0; i < references.length; i += 1000) {
    const rows = await db
      .select({
        reference: sepaMandateCollections.mandateReference,
        iban: sepaMandateCollections.iban,
        collectionDate: sepaMandateCollections.collectionDate,
        sequenceType: sepaMandateCollections.sequenceType,
      })
      .from(sepaMandateCollections)
      .where(and(eq(sepaMandateCollections.cpoId, cpoId), inArray(sepaMandateCollections.mandateReference, references.slice(i, i + 1000))))
      .orderBy(
        sepaMandateCollections.mandateReference,
        sepaMandateCollections.iban,
        asc(sepaMandateCollections.madeAt),
        asc(sepaMandateCollections.collectionDate),
      );
    for (const r of rows) {
      const key = mandateKey(r.reference, r.iban);
      const f = files.get(key) ?? { byDate: new Map(), firstMade: r.collectionDate };
      f.byDate.set(r.collectionDate, r.sequenceType);
      files.set(key, f);
    }
  }
  return files;
}

/**
 * Of these contracts, those whose current mandate was already collected outside the download
 * center's files (issue 35): a PAID SEPA bill of the contract collected (its collection day) on or
 * after the mandate's signature and on or after the day its reference or IBAN last changed
 * (`sepa_mandate_changes`, kept by a trigger on contracts). A bill collected before a change was
 * collected under the mandate before it.
 */
export async function contractsCollectedBefore(db: Db, cpoId: string, contractKeys: string[]) {
  const collected = new Set<string>();
  for (let i = 0; i < contractKeys.length; i += 1000) {
    const rows = await db
      .selectDistinct({ contractKey: bills.contractKey })
      .from(bills)
      .innerJoin(operators, eq(operators.cpoId, bills.cpoId))
      .innerJoin(contracts, eq(contracts.contractKey, bills.contractKey))
      .leftJoin(sepaMandateChanges, eq(sepaMandateChanges.contractKey, bills.contractKey))
      .where(
        and(
          inArray(bills.contractKey, contractKeys.slice(i, i + 1000)),
          eq(bills.cpoId, cpoId),
          sql`${bills.paymentMethod} = 'SEPA'`,
          eq(bills.billingStatus, 'PAID'),
          sql`${collectionDay} >= coalesce(${contracts.contractMandateDate}, '-infinity'::date)`,
          sql`${collectionDay} >= coalesce((${sepaMandateChanges.changedAt} at time zone 'Europe/Berlin')::date, '-infinity'::date)`,
        ),
      );
    for (const r of rows) collected.add(r.contractKey);
  }
  return collected;
}

export const mandateKey = (reference: string, iban: string) => `${reference}\u0000${iban}`;

/**
 * Records the file's mandates for its date with the sequence type each got. Made again, the last
 * file's id is kept but `made_at` and the sequence type stay the first making's (mandateFiles). The clock at the
 * statement, not the transaction's start, as the operator's files are made one after the other
 * (sepaCreditor's lock) and a transaction may have started before the one ahead of it committed.
 */
export async function recordMandateCollections(
  db: Db,
  cpoId: string,
  collectionDate: string,
  messageId: string,
  mandates: { reference: string; iban: string; sequenceType: 'FRST' | 'RCUR' }[],
) {
  for (let i = 0; i < mandates.length; i += 1000) {
    await db
      .insert(sepaMandateCollections)
      .values(
        mandates.slice(i, i + 1000).map((m) => ({
          cpoId,
          mandateReference: m.reference,
          iban: m.iban,
          collectionDate,
          messageId,
          madeAt: sql`clock_timestamp()`,
          sequenceType: m.sequenceType,
        })),
      )
      .onConflictDoUpdate({
        target: [
          sepaMandateCollections.cpoId,
          sepaMandateCollections.mandateReference,
          sepaMandateCollections.iban,
          sepaMandateCollections.collectionDate,
        ],
        // The first making's sequence type stays (a row from before it was kept gets it now).
        set: { messageId, sequenceType: sql`coalesce(${sepaMandateCollections.sequenceType}, excluded.sequence_type)` },
      });
  }
}
