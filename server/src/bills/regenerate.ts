import { and, eq, ne, sql } from 'drizzle-orm';
import type { RegenerateAnswer, regenerateBillsBodySchema, regenerateFailureCodes } from '../../../contract/bills';
import { REGENERATE_MAX } from '../../../contract/bills';
import type { z } from 'zod/mini';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';
import { contracts, files } from '../db/schema/contracts';
import { ApiError } from '../http/errors';
import type { BillFigures } from './compute';
import { withIssuedDocuments } from './document';
import { billedRequests, tariffHistories } from './run-queries';
import { amountColumns, contractSnapshot, figuresFor } from './run';

/**
 * Regenerating a bill (spec 3 §2, §8; issue 24): the bill is computed again from today's data (the
 * contract's tariff history, its finished charging requests of the period) by the run's own rules,
 * under its number and id, and issued anew: its snapshot of what the invoice says is taken again
 * (issue 35), its version moves on, its PDF is dropped and drawn from the new snapshot on the next
 * request. Only a GENERATED bill: one SENT (or later) went out as it is and is never redrawn.
 */

type Bill = typeof bills.$inferSelect;

/**
 * A bill's figures from today's data, by the rules the run made it with (the contract's VAT rate of today): the onboarding fee when
 * no bill of the contract comes before it (by period start, then number), the fixed tariff on a
 * period bill and on an IMMEDIATE contract's month bill (the one whose period is the month).
 */
export async function recomputeBill(db: Db, bill: Bill): Promise<BillFigures> {
  const histories = await tariffHistories(db, [bill.contractKey]);
  const requests = await billedRequests(db, [bill.contractKey], bill.startDate, bill.endDate, bill.chargingRequestId ?? undefined);
  const [earlier] = await db
    .select({ one: sql`1` })
    .from(bills)
    .where(
      and(
        eq(bills.contractKey, bill.contractKey),
        ne(bills.billId, bill.billId),
        sql`(${bills.startDate}, ${bills.billNumber}) < (${bill.startDate}::date, ${bill.billNumber})`,
      ),
    )
    .limit(1);
  const [contract] = await db.select({ vatRate: contracts.vatId }).from(contracts).where(eq(contracts.contractKey, bill.contractKey));
  const monthBill = bill.startDate !== bill.endDate || bill.lines.some((l) => l.kind === 'fixed');
  return figuresFor({
    start: bill.startDate,
    end: bill.endDate,
    history: histories.get(bill.contractKey) ?? [],
    requests: requests.get(bill.contractKey) ?? [],
    onboarding: earlier === undefined,
    withFixedTariff: bill.chargingRequestId === null || monthBill,
    vatRate: contract?.vatRate ?? null,
  });
}

type Failure = (typeof regenerateFailureCodes)[number];

/** One bill, locked: refused, or computed again and written (in the request's transaction). */
async function regenerateOne(db: Db, billNumber: string, now: Date): Promise<Failure | undefined> {
  const [bill] = await db.select().from(bills).where(eq(bills.billNumber, billNumber)).for('update');
  if (!bill) return 'INVALID_INPUT_ERROR';
  if (bill.billingStatus !== 'GENERATED' || bill.userType === 'AD_HOC') return 'BILLS_WITH_GENERATED_STATUS_ERROR';
  const [contract] = await db.select().from(contracts).where(eq(contracts.contractKey, bill.contractKey));
  let figures: BillFigures;
  try {
    figures = await recomputeBill(db, bill);
  } catch (err) {
    // Bad data (no tariff for the period, an amount out of range): the bill stays as it is.
    if (err instanceof RangeError) return 'BILLING_UTILITY_ERROR';
    throw err;
  }
  // Issued anew: what its invoice says is frozen again, from today's data.
  const columns = { ...contractSnapshot(contract), ...amountColumns(figures), billGenerationDate: now };
  const [{ issuedDocument }] = await withIssuedDocuments(db, [{ ...bill, ...columns }]);
  await db
    .update(bills)
    .set({ ...columns, issuedDocument, pdfFileId: null, version: sql`${bills.version} + 1` })
    .where(eq(bills.billId, bill.billId));
  if (bill.pdfFileId) await db.delete(files).where(eq(files.id, bill.pdfFileId));
  return undefined;
}

/** `POST /bookings/regenerate-bills` (admins): exactly one bill number. */
export async function regenerateBills(
  db: Db,
  body: z.output<typeof regenerateBillsBodySchema>,
  now = new Date(),
): Promise<RegenerateAnswer> {
  if (body.billNumbers.length === 0) throw new ApiError(400, 'NO_INPUT_PROVIDED_ERROR', 'No bill number given');
  if (body.billNumbers.length > REGENERATE_MAX) throw new ApiError(400, 'INVALID_INPUT_ERROR', `At most ${REGENERATE_MAX} bill at a time`);
  const answer: RegenerateAnswer = { successfulBillRegenerations: [], unSuccessfulBillRegenerations: [] };
  for (const billNumber of body.billNumbers) {
    const failure = await regenerateOne(db, billNumber, now);
    if (failure) answer.unSuccessfulBillRegenerations.push({ billNumber, errorCode: failure });
    else answer.successfulBillRegenerations.push(billNumber);
  }
  return answer;
}
