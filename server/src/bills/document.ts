import { and, asc, eq, gt, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { addDays, berlinDate } from '../../../contract/contracts';
import type { PaymentMethod } from '../../../contract/enums';
import type { Db } from '../db/client';
import { bills, type StoredBillLine } from '../db/schema/bookings';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { locations } from '../db/schema/locations';
import { operators } from '../db/schema/operators';
import { toUnits, divideRounded, type BillLine } from './compute';
import type { InvoiceDocument, InvoiceHistoryRow, InvoicePayment } from './invoice-pdf';

/**
 * One bill as its invoice shows it (issue 24): the bill row with its stored lines, the operator's
 * address, template, tax ids and payment data, the recipient from the contract, and, when the
 * operator includes it, the charging history of the period. The PDF and the e-invoice are both made
 * from this, so they cannot disagree.
 *
 * An issued invoice never changes (issue 35): everything it prints but the charging history is
 * frozen when the bill is issued (the run, a regeneration) as `bills.issued_document`, made by the
 * one mapping `issuedInvoiceOf` and serialised generically, so a field added to `InvoiceDocument`
 * there is frozen with the rest. The history is read when the PDF is drawn, from finished charging
 * requests, which do not change.
 */

/** Rows of the charging history read per statement (keyset), so a year of requests is never one answer. */
export const HISTORY_BATCH = 1000;

type BillRow = typeof bills.$inferSelect;

export const fromStoredLine = (l: StoredBillLine): BillLine => ({
  kind: l.kind,
  from: l.from,
  to: l.to,
  quantity: { numerator: BigInt(l.quantity.numerator), denominator: BigInt(l.quantity.denominator) },
  unitPrice: BigInt(l.unitPrice),
  netCents: BigInt(l.netCents),
});

/** An end customer's IBAN on a document: country, check digits and the last four (as the screens show it). */
export function maskIban(iban: string | null | undefined): string {
  const compact = (iban ?? '').replace(/\s+/g, '').toUpperCase();
  if (compact.length <= 8) return compact;
  return `${compact.slice(0, 4)} •••• ${compact.slice(-4)}`;
}

interface PaymentSource {
  method: PaymentMethod | null;
  invoiceDate: string;
  /** The operator's days until payment: a transfer's due date, a direct debit's planned date (none: the invoice date). */
  gapDays: number | null;
  operator: { creditorId: string | null; iban: string | null; bic: string | null; bankName: string | null };
  contract: { mandateReference: string | null; iban: string | null };
}

/**
 * The payment block by the bill's payment method (spec 3 §3): direct debit, transfer, card or
 * nothing to pay by. A direct debit names its planned date (the invoice date plus the operator's
 * days until payment), the mandate and the creditor id: the bill is the debtor's pre-notification
 * (SEPA rulebook), written before any collection.
 */
export function paymentOf(p: PaymentSource): InvoicePayment {
  const due = addDays(p.invoiceDate, p.gapDays ?? 0);
  switch (p.method) {
    case 'SEPA':
    case 'STRIPE_SEPA':
      return {
        kind: 'SEPA',
        creditorId: p.operator.creditorId ?? undefined,
        mandateReference: p.contract.mandateReference ?? undefined,
        maskedIban: maskIban(p.contract.iban) || undefined,
        collectionDate: due,
      };
    case 'BANK_TRANSFER':
      return {
        kind: 'BANK_TRANSFER',
        iban: p.operator.iban ?? '',
        bic: p.operator.bic ?? undefined,
        bankName: p.operator.bankName ?? undefined,
        dueDate: due,
      };
    case 'STRIPE_CARD':
      return { kind: 'CARD' };
    default:
      return { kind: 'NONE' };
  }
}

const templateLines = (...lines: (string | null)[]) => lines.map((l) => (l ?? '').trim()).filter(Boolean);

type OperatorRow = typeof operators.$inferSelect;
type ContractRow = typeof contracts.$inferSelect;

/** The bill's own columns the invoice prints (a row being inserted has them too). */
export type IssuedBill = Pick<
  BillRow,
  | 'cpoId'
  | 'contractKey'
  | 'billNumber'
  | 'billGenerationDate'
  | 'startDate'
  | 'endDate'
  | 'endCustomerId'
  | 'endCustomerFirstName'
  | 'endCustomerLastName'
  | 'lines'
  | 'vatPercent'
  | 'netCosts'
  | 'vatCosts'
  | 'totalTaxedCosts'
  | 'paymentMethod'
>;

/** What an issued bill says: its document but the charging history, and whether the history is printed. */
export interface IssuedInvoice {
  document: Omit<InvoiceDocument, 'history'>;
  withHistory: boolean;
}

/**
 * The one mapping from the rows to what the invoice says. The payment block is the bill's
 * promise at issue: a SEPA bill is the debtor's pre-notification, so it names the planned debit
 * date, never the day the collection later happened.
 */
export function issuedInvoiceOf(bill: IssuedBill, o: OperatorRow, c: ContractRow): IssuedInvoice {
  const invoiceDate = berlinDate(bill.billGenerationDate);
  return {
    withHistory: o.isChargingHistoryIncluded,
    document: {
      issuer: {
        name: o.cpoName,
        careOf: o.careOf,
        street: o.street,
        zipCode: o.zipCode,
        city: o.city,
        countryCode: o.countryCode,
        vatId: o.vatId,
        taxNumber: o.taxNumber,
        iban: o.iban,
      },
      headerLines: templateLines(o.headerLine1, o.headerLine2, o.headerLine3, o.headerLine4),
      footerLines: templateLines(o.footerLine1, o.footerLine2, o.footerLine3, o.footerLine4),
      contact: o.contactPersonName
        ? { name: o.contactPersonName, position: o.contactPersonPosition, phone: o.contactPersonPhone, email: o.contactPersonEmail }
        : undefined,
      recipient: {
        name: `${bill.endCustomerFirstName} ${bill.endCustomerLastName}`.trim(),
        careOf: c.careOf,
        street: c.street,
        zipCode: c.zipCode,
        city: c.city,
        countryCode: c.countryCode,
        companyName: c.companyName,
        vatId: c.customerVatId,
      },
      buyerReference: c.buyerReference,
      recipientEmail: c.email,
      billNumber: bill.billNumber,
      invoiceDate,
      periodStart: bill.startDate,
      periodEnd: bill.endDate,
      endCustomerId: bill.endCustomerId,
      lines: bill.lines.map(fromStoredLine),
      vatPercent: Number(bill.vatPercent),
      netCents: toUnits(bill.netCosts, 2),
      vatCents: toUnits(bill.vatCosts, 2),
      grossCents: toUnits(bill.totalTaxedCosts, 2),
      payment: paymentOf({
        method: bill.paymentMethod,
        invoiceDate,
        gapDays: o.moneyCollectionGapInDays,
        operator: o,
        contract: { mandateReference: c.contractMandateReference, iban: c.contractIban },
      }),
    },
  };
}

const BIGINT = '$bigint';
const DATE = '$date';

/**
 * A value as JSON without knowing its fields: bigints and Dates become `{ $bigint: '…' }` and
 * `{ $date: '…' }` (JSON has neither), undefined members are left out.
 */
export function toSnapshot(value: unknown): unknown {
  if (typeof value === 'bigint') return { [BIGINT]: value.toString() };
  if (value instanceof Date) return { [DATE]: value.toISOString() };
  if (Array.isArray(value)) return value.map(toSnapshot);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, toSnapshot(v)]),
    );
  return value;
}

/** The value `toSnapshot` was made from. */
export function fromSnapshot(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromSnapshot);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === BIGINT) return BigInt(entries[0]![1] as string);
    if (entries.length === 1 && entries[0]![0] === DATE) return new Date(entries[0]![1] as string);
    return Object.fromEntries(entries.map(([k, v]) => [k, fromSnapshot(v)]));
  }
  return value;
}

/**
 * Bills about to be issued (inserted by the run, rewritten by a regeneration) with their
 * `issuedDocument`: the operators and contracts read once for all of them.
 */
export async function withIssuedDocuments<B extends IssuedBill>(db: Db, rows: readonly B[]): Promise<(B & { issuedDocument: unknown })[]> {
  if (rows.length === 0) return [];
  const [ops, cons] = await Promise.all([
    db
      .select()
      .from(operators)
      .where(inArray(operators.cpoId, [...new Set(rows.map((r) => r.cpoId))])),
    db
      .select()
      .from(contracts)
      .where(inArray(contracts.contractKey, [...new Set(rows.map((r) => r.contractKey))])),
  ]);
  const operatorOf = new Map(ops.map((o) => [o.cpoId, o]));
  const contractOf = new Map(cons.map((c) => [c.contractKey, c]));
  return rows.map((r) => ({
    ...r,
    issuedDocument: toSnapshot(issuedInvoiceOf(r, operatorOf.get(r.cpoId)!, contractOf.get(r.contractKey)!)),
  }));
}

/**
 * The snapshot of a bill issued before snapshots existed (migration 0020), taken once from today's
 * data, which is what its invoice printed until then; kept unless another request kept one first.
 */
async function issueLate(db: Db, bill: BillRow): Promise<unknown> {
  const [[o], [c]] = await Promise.all([
    db.select().from(operators).where(eq(operators.cpoId, bill.cpoId)),
    db.select().from(contracts).where(eq(contracts.contractKey, bill.contractKey)),
  ]);
  const [kept] = await db
    .update(bills)
    .set({ issuedDocument: sql`coalesce(${bills.issuedDocument}, ${JSON.stringify(toSnapshot(issuedInvoiceOf(bill, o!, c!)))}::jsonb)` })
    .where(eq(bills.billId, bill.billId))
    .returning({ issuedDocument: bills.issuedDocument });
  return kept!.issuedDocument;
}

/**
 * The invoice of one bill, as it was issued, or undefined when there is no such bill (callers check
 * the scope first). Only the charging history is read now.
 */
export async function loadInvoiceDocument(db: Db, billId: string): Promise<InvoiceDocument | undefined> {
  const [bill] = await db.select().from(bills).where(eq(bills.billId, billId));
  if (!bill) return undefined;
  const issued = fromSnapshot(bill.issuedDocument ?? (await issueLate(db, bill))) as IssuedInvoice;
  return {
    ...issued.document,
    history: issued.withHistory ? await historyOf(db, bill, issued.document.lines) : undefined,
  };
}

/**
 * The proof of the period's charging requests (finished, of the bill's contract, started on a
 * Berlin day of the period; an IMMEDIATE bill its one request), each with its share of the net
 * amount of the bill's energy line of that day. Read in keyset batches.
 *
 * The shares add up to the line exactly (issue 35: each request rounded on its own was 1–3 ct off
 * the line on 2,601 of 9,305 demo bills): each request's exact amount (Wh × price) is rounded down
 * and the line's remaining cents go, one each, to the requests with the largest remainders (the
 * earlier one first on a tie). Should the requests no longer add up to the line's energy (the data
 * changed after the bill was made), each is rounded on its own.
 */
async function historyOf(db: Db, bill: BillRow, lines: readonly BillLine[]): Promise<InvoiceHistoryRow[]> {
  const scope = bill.chargingRequestId
    ? eq(chargingRequests.transactionId, bill.chargingRequestId)
    : and(
        eq(chargingRequests.contractKey, bill.contractKey),
        eq(chargingRequests.status, 'finished'),
        gte(chargingRequests.startDate, sql`(${bill.startDate}::date)::timestamp at time zone 'Europe/Berlin'`),
        lt(chargingRequests.startDate, sql`(${bill.endDate}::date + 1)::timestamp at time zone 'Europe/Berlin'`),
      );
  const energyLines = lines.filter((l) => l.kind === 'energy');
  const rows: InvoiceHistoryRow[] = [];
  /** Per energy line: its requests' rows and exact amounts (1e-7 €: Wh × ten-thousandths of a euro per kWh). */
  const shares = new Map<BillLine, { row: InvoiceHistoryRow; exact: bigint }[]>();
  let after: { start: Date; id: string } | undefined;
  for (;;) {
    const batch = await db
      .select({
        id: chargingRequests.transactionId,
        start: chargingRequests.startDate,
        end: chargingRequests.endDate,
        energyKwh: chargingRequests.energyKwh,
        locationName: locations.locationName,
        parkingLot: chargingRequests.parkingLot,
      })
      .from(chargingRequests)
      .innerJoin(locations, eq(locations.locationId, chargingRequests.locationId))
      .where(
        and(
          scope,
          after
            ? or(
                gt(chargingRequests.startDate, after.start),
                and(eq(chargingRequests.startDate, after.start), gt(chargingRequests.transactionId, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(chargingRequests.startDate), asc(chargingRequests.transactionId))
      .limit(HISTORY_BATCH);
    for (const r of batch) {
      const day = berlinDate(r.start);
      const line = energyLines.find((l) => l.from <= day && l.to >= day);
      const row: InvoiceHistoryRow = {
        start: r.start,
        end: r.end,
        place: r.parkingLot ? `${r.locationName}, Stellplatz ${r.parkingLot}` : r.locationName,
        energyKwh: r.energyKwh,
        costCents: 0n,
      };
      rows.push(row);
      if (!line) continue;
      let of = shares.get(line);
      if (!of) shares.set(line, (of = []));
      of.push({ row, exact: toUnits(r.energyKwh, 3) * line.unitPrice });
    }
    if (batch.length < HISTORY_BATCH) break;
    const last = batch[batch.length - 1]!;
    after = { start: last.start, id: last.id };
  }
  for (const [line, of] of shares) shareOut(line, of);
  return rows;
}

const UNITS_PER_CENT = 100_000n;

/** The line's net cents over its requests by the largest remainder (see `historyOf`). */
function shareOut(line: BillLine, of: { row: InvoiceHistoryRow; exact: bigint }[]) {
  const exact = of.reduce((sum, s) => sum + s.exact, 0n);
  if (exact !== line.quantity.numerator * line.unitPrice) {
    for (const s of of) s.row.costCents = divideRounded(s.exact, UNITS_PER_CENT);
    return;
  }
  for (const s of of) s.row.costCents = s.exact / UNITS_PER_CENT;
  let left = line.netCents - of.reduce((sum, s) => sum + s.row.costCents, 0n);
  const byRemainder = of
    .map((s, i) => ({ s, i, remainder: s.exact % UNITS_PER_CENT }))
    .sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { s } of byRemainder) {
    if (left <= 0n) break;
    s.row.costCents += 1n;
    left -= 1n;
  }
}
