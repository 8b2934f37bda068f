import { randomUUID } from 'node:crypto';
import { parseDate } from '@internationalized/date';
import { berlinDate, billedVatPercent } from '../../../contract/contracts';
import type { Db } from '../db/client';
import type { bills, StoredBillLine } from '../db/schema/bookings';
import type { IssuedBill } from './document';
import { centsToNumeric, computeBill, periodEndingIn, type BillFigures, type TariffBlock } from './compute';
import { formatBillNumber, takeBillNumbers } from './numbers';
import {
  billedRequests,
  billsOfContracts,
  contractsToBill,
  insertBills,
  lockForBilling,
  tariffHistories,
  type BilledContract,
  type BillsSoFar,
  type RequestRow,
  type TariffRow,
} from './run-queries';

/**
 * The bill run (issue 24): for a month 'YYYY-MM', every billed contract whose billing period ends
 * in that month gets its bill, an IMMEDIATE contract one bill per finished charging request of the
 * month. Each contract is billed in a transaction of its own that locks its row `for update skip
 * locked`, so two instances running at once never bill one contract together, and the unique
 * indexes on (contract, period) and on the charging request make a second run create nothing. The
 * numbers come from the operator's counter in the same transaction (numbers.ts), so a failed bill
 * leaves no gap. One contract's bad data fails that contract only; the run goes on.
 */

export type BillInsert = typeof bills.$inferInsert;

export interface BillRunOptions {
  /** The bills' generation date and the year of their numbers; the wall clock unless told. */
  now?: Date;
  /** Bill ids (the seed passes its random stream, so its data set stays the same). */
  newId?: () => string;
  /** Only these contracts (tests). */
  contractKeys?: readonly string[];
  log?: (msg: string) => void;
  /**
   * Only for a caller that is the sole writer and holds its own transaction (the demo seed): the
   * same bills, written a chunk at a time instead of in a transaction per contract.
   */
  batch?: boolean;
  /** Asked between contracts: true ends the run early (the server is closing). */
  shouldStop?: () => boolean;
}

export interface BillRunAnswer {
  created: number;
  /** Due, but billed already or being billed by another instance right now. */
  skipped: number;
  failed: number;
  /**
   * Of the skipped, contracts whose row another instance held locked: not billed by this run, and
   * billed by the other only if it commits. The daily job tries the month again while any were.
   */
  locked: number;
}

/** The first and last day of 'YYYY-MM'. */
export function monthRange(month: string): { first: string; last: string } {
  const first = parseDate(`${month}-01`);
  return { first: first.toString(), last: first.set({ day: first.calendar.getDaysInMonth(first) }).toString() };
}

/** The price blocks of `[start, end]` from a tariff history sorted by start: the one in force at `start`, then each later one. */
export function tariffBlocks(history: readonly TariffRow[], start: string, end: string): TariffBlock[] {
  let firstIndex = 0;
  history.forEach((t, i) => {
    if (t.validFrom <= start) firstIndex = i;
  });
  return history
    .slice(firstIndex)
    .filter((t, i) => i === 0 || t.validFrom <= end)
    .map((t) => ({ from: t.validFrom, fixMonthly: t.fixTariff, perKwh: t.varTariff, perRequest: t.fixTariffPerChargingRequest }));
}

export interface BillBasis {
  start: string;
  end: string;
  history: readonly TariffRow[];
  requests: readonly RequestRow[];
  /** The contract's first bill carries the onboarding fee (of the tariff in force at its start). */
  onboarding: boolean;
  withFixedTariff: boolean;
  /** The contract's VAT rate as stored (`billedVatPercent`: none is 19 %); the rate in force when the bill is made. */
  vatRate: string | null;
}

/** A bill's figures from its basis: the one way the run and the regeneration compute. */
export function figuresFor(b: BillBasis): BillFigures {
  const tariffs = tariffBlocks(b.history, b.start, b.end);
  const fee = tariffs[0]?.from !== undefined ? b.history.find((t) => t.validFrom === tariffs[0].from)?.onboardingFee : undefined;
  return computeBill({
    start: b.start,
    end: b.end,
    tariffs,
    requests: b.requests.filter((r) => r.day >= b.start && r.day <= b.end).map((r) => ({ day: r.day, energyKwh: r.energyKwh })),
    onboardingFee: b.onboarding ? fee : undefined,
    withFixedTariff: b.withFixedTariff,
    vatPercent: billedVatPercent(b.vatRate),
  });
}

const whToNumeric = (wh: bigint) => `${wh / 1000n}.${String(wh % 1000n).padStart(3, '0')}`;

/** The amount columns of a bill (and its status: NOT_APPLICABLE when there is nothing to pay). */
export function amountColumns(f: BillFigures) {
  return {
    energyLoaded: whToNumeric(f.energyWh),
    netCosts: centsToNumeric(f.netCents),
    vatPercent: String(f.vatPercent),
    vatCosts: centsToNumeric(f.vatCents),
    taxedFixCosts: centsToNumeric(f.taxedFixCents),
    taxedVarCosts: centsToNumeric(f.taxedVarCents),
    totalTaxedCosts: centsToNumeric(f.grossCents),
    lines: f.lines.map((l): StoredBillLine => ({
      kind: l.kind,
      from: l.from,
      to: l.to,
      quantity: { numerator: String(l.quantity.numerator), denominator: String(l.quantity.denominator) },
      unitPrice: String(l.unitPrice),
      netCents: String(l.netCents),
    })),
    billingStatus: f.grossCents === 0n ? ('NOT_APPLICABLE' as const) : ('GENERATED' as const),
  };
}

/** What a bill keeps of its contract as it was when the bill was made. */
export const contractSnapshot = (
  c: Pick<
    BilledContract,
    'contractKey' | 'cpoId' | 'locationId' | 'endCustomerId' | 'firstName' | 'lastName' | 'userType' | 'paymentMethod'
  >,
) => ({
  contractKey: c.contractKey,
  cpoId: c.cpoId,
  locationId: c.locationId,
  endCustomerId: c.endCustomerId,
  endCustomerFirstName: c.firstName,
  endCustomerLastName: c.lastName,
  userType: c.userType,
  paymentMethod: c.paymentMethod,
});

interface RunContext {
  month: { number: number; year: number };
  now: Date;
  numberYear: number;
  newId: () => string;
}

type Basis = Omit<BillBasis, 'start' | 'end' | 'onboarding' | 'withFixedTariff'>;

/** A bill the run will make: its row, still without its number and id. */
interface PlannedBill {
  period: { start: string; end: string };
  figures: BillFigures;
  chargingRequestId: string | null;
}

/** What is due for one contract, given the bills it has: the bills to make and how many are made already. */
interface Plan {
  bills: PlannedBill[];
  skipped: number;
}

/** A contract's period bill, unless it has it already. */
function planPeriod(period: { start: string; end: string }, basis: Basis, so: readonly BillsSoFar[]): Plan {
  if (so.some((b) => b.chargingRequestId === null && b.startDate === period.start && b.endDate === period.end))
    return { bills: [], skipped: 1 };
  const figures = figuresFor({ ...basis, ...period, onboarding: !so.some((b) => b.startDate <= period.start), withFixedTariff: true });
  return { bills: [{ period, figures, chargingRequestId: null }], skipped: 0 };
}

/**
 * An IMMEDIATE contract's bills: one for each finished request of the month not billed yet. The
 * month's first bill carries the monthly fixed tariff over the month's contract days (a month
 * without a charge has no bill), the contract's first one the onboarding fee.
 */
function planRequests(monthPeriod: { start: string; end: string }, basis: Basis, so: readonly BillsSoFar[], ctx: RunContext): Plan {
  const inMonth = basis.requests.filter((r) => r.day >= monthPeriod.start && r.day <= monthPeriod.end);
  const billed = new Set(so.map((b) => b.chargingRequestId));
  const open = inMonth.filter((r) => !billed.has(r.transactionId));
  const monthBilled = so.some((b) => b.chargingRequestId !== null && b.monthNumber === ctx.month.number && b.yearNumber === ctx.month.year);
  const bills = open.map((r, i): PlannedBill => {
    const withFixedTariff = i === 0 && !monthBilled;
    const period = withFixedTariff ? monthPeriod : { start: r.day, end: r.day };
    const onboarding = i === 0 && !so.some((b) => b.startDate <= period.start);
    return {
      period,
      figures: figuresFor({ ...basis, ...period, requests: [r], onboarding, withFixedTariff }),
      chargingRequestId: r.transactionId,
    };
  });
  return { bills, skipped: inMonth.length - open.length };
}

const planFor = (d: DueContract, basis: Basis, so: readonly BillsSoFar[], ctx: RunContext) =>
  d.c.billingCycle === 'IMMEDIATE' ? planRequests(d.period, basis, so, ctx) : planPeriod(d.period, basis, so);

const numbered = (c: BilledContract, planned: readonly PlannedBill[], numbers: readonly number[], ctx: RunContext) =>
  planned.map((p, i) =>
    billRow(c, p.period, p.figures, ctx, formatBillNumber(c.cpoId, c.billNumberPrefix, ctx.numberYear, numbers[i]), p.chargingRequestId),
  );

/**
 * Bills one contract in a transaction of its own: its row locked `skip locked` (another instance
 * billing it now: skipped), its numbers taken from the operator's counter, its bills written.
 */
async function billContract(db: Db, d: DueContract, basis: Basis, ctx: RunContext): Promise<Partial<BillRunAnswer>> {
  return db.transaction(async (tx) => {
    const so = await lockForBilling(tx, d.c.contractKey);
    if (!so) return { skipped: 1, locked: 1 };
    const plan = planFor(d, basis, so, ctx);
    const numbers = await takeBillNumbers(tx, d.c.cpoId, ctx.numberYear, plan.bills.length);
    await insertBills(tx, numbered(d.c, plan.bills, numbers, ctx));
    return { created: plan.bills.length, skipped: plan.skipped };
  });
}

function billRow(
  c: BilledContract,
  period: { start: string; end: string },
  figures: BillFigures,
  ctx: RunContext,
  billNumber: string,
  chargingRequestId: string | null,
): BillInsert & IssuedBill {
  return {
    billId: ctx.newId(),
    billNumber,
    ...contractSnapshot(c),
    startDate: period.start,
    endDate: period.end,
    ...amountColumns(figures),
    billGenerationDate: ctx.now,
    monthNumber: ctx.month.number,
    yearNumber: ctx.month.year,
    chargingRequestId,
  };
}

/** The kind of an error and its database code: what a log line may say (never values). */
function errorKind(err: unknown): string {
  const { name, code } = (err ?? {}) as { name?: unknown; code?: unknown };
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return [typeof name === 'string' ? name : 'Error', typeof code === 'string' ? code : '', typeof cause === 'string' ? cause : '']
    .filter(Boolean)
    .join(' ');
}

/** How many contracts' requests and tariffs are read per statement. */
const CHUNK = 500;

interface DueContract {
  c: BilledContract;
  period: { start: string; end: string };
}

/**
 * The batch way, for a caller that is the only writer (the demo seed, in its transaction under its
 * lock): the same plans, but the chunk's bills in a few statements (one counter per operator, one
 * insert per 500 bills) instead of a transaction per contract.
 */
async function billChunkAtOnce(
  db: Db,
  chunk: readonly DueContract[],
  bases: Map<string, Basis>,
  ctx: RunContext,
  outcome: (o: Partial<BillRunAnswer>, err?: unknown) => void,
) {
  const billsSoFar = await billsOfContracts(
    db,
    chunk.map((d) => d.c.contractKey),
  );
  const byOperator = new Map<string, { d: DueContract; planned: PlannedBill[] }[]>();
  for (const d of chunk) {
    try {
      const plan = planFor(d, bases.get(d.c.contractKey)!, billsSoFar.get(d.c.contractKey) ?? [], ctx);
      outcome({ skipped: plan.skipped });
      byOperator.set(d.c.cpoId, [...(byOperator.get(d.c.cpoId) ?? []), { d, planned: plan.bills }]);
    } catch (err) {
      outcome({ failed: 1 }, err);
    }
  }
  for (const [cpoId, plans] of byOperator) {
    const numbers = await takeBillNumbers(
      db,
      cpoId,
      ctx.numberYear,
      plans.reduce((n, p) => n + p.planned.length, 0),
    );
    let next = 0;
    const rows = plans.flatMap((p) => numbered(p.d.c, p.planned, numbers.slice(next, (next += p.planned.length)), ctx));
    for (let i = 0; i < rows.length; i += 500) await insertBills(db, rows.slice(i, i + 500));
    outcome({ created: rows.length });
  }
}

/** Runs the bills of `month` ('YYYY-MM'). */
export async function runBills(db: Db, month: string, opts: BillRunOptions = {}): Promise<BillRunAnswer> {
  const now = opts.now ?? new Date();
  const { first, last } = monthRange(month);
  const ctx: RunContext = {
    month: { number: Number(month.slice(5, 7)), year: Number(month.slice(0, 4)) },
    now,
    numberYear: Number(berlinDate(now).slice(0, 4)),
    newId: opts.newId ?? randomUUID,
  };
  const answer: BillRunAnswer = { created: 0, skipped: 0, failed: 0, locked: 0 };
  const outcome = (o: Partial<BillRunAnswer>, err?: unknown) => {
    answer.created += o.created ?? 0;
    answer.skipped += o.skipped ?? 0;
    answer.failed += o.failed ?? 0;
    answer.locked += o.locked ?? 0;
    if (err !== undefined) opts.log?.(`bill run: a contract could not be billed (${errorKind(err)})`);
  };
  const due: DueContract[] = [];
  for (const c of await contractsToBill(db, first, last, opts.contractKeys)) {
    try {
      if (!c.billingCycle || !c.startDate) throw new RangeError('contract without billing cycle or start');
      const cycle = c.billingCycle === 'IMMEDIATE' ? 'MONTHLY' : c.billingCycle;
      const period = periodEndingIn(cycle, month, c.startDate, c.endDate);
      if (period && c.billedThisMonth && c.billingCycle !== 'IMMEDIATE') outcome({ skipped: 1 });
      else if (period) due.push({ c, period });
    } catch (err) {
      outcome({ failed: 1 }, err);
    }
  }
  for (let i = 0; i < due.length && !opts.shouldStop?.(); i += CHUNK) {
    const chunk = due.slice(i, i + CHUNK);
    const keys = chunk.map((d) => d.c.contractKey);
    const from = chunk.reduce((min, d) => (d.period.start < min ? d.period.start : min), last);
    const histories = await tariffHistories(db, keys);
    const requests = await billedRequests(db, keys, from, last);
    const bases = new Map(
      chunk.map((d) => [
        d.c.contractKey,
        { history: histories.get(d.c.contractKey) ?? [], requests: requests.get(d.c.contractKey) ?? [], vatRate: d.c.vatRate },
      ]),
    );
    if (opts.batch) {
      await billChunkAtOnce(db, chunk, bases, ctx, outcome);
      continue;
    }
    for (const d of chunk) {
      if (opts.shouldStop?.()) break;
      try {
        outcome(await billContract(db, d, bases.get(d.c.contractKey)!, ctx));
      } catch (err) {
        outcome({ failed: 1 }, err);
      }
    }
  }
  return answer;
}
