import { CalendarDate, parseDate } from '@internationalized/date';

/**
 * A bill's lines and totals from a contract's tariffs and its charging requests in one billing
 * period (issue 24). Pure arithmetic, no database: the bill run, the regeneration and the tests
 * all go through here, so a seeded and a regenerated bill agree to the cent.
 *
 * Amounts are integers: cents, energy in Wh, the price per kWh in ten-thousandths of a euro (the
 * column's 4 decimals). Products and pro-rata fractions are exact (BigInt and fractions of whole
 * days); each line's net amount is rounded once, half up, to the cent, and the bill's figures are
 * sums of those lines (ARCHITECTURE.md, "Money"):
 *   net = Σ line nets; VAT = round(net × rate); gross = net + VAT;
 *   taxed energy = round(energy net × (1 + rate)); taxed fixed = gross − taxed energy.
 */

/** A contract's prices from `from` (a Berlin date) until the next block's `from`. */
export interface TariffBlock {
  from: string;
  /** Monthly fixed tariff, euros with 2 decimals as the database gives them ('9.90'). */
  fixMonthly: string;
  /** Euros per kWh with up to 4 decimals ('0.3900'). */
  perKwh: string;
  /** Euros per charging request with 2 decimals. */
  perRequest: string;
}

/** A finished charging request of the period: its Berlin start date and its energy ('12.345' kWh). */
export interface BilledRequest {
  day: string;
  energyKwh: string;
}

export interface BillInput {
  /** The period's first and last day (Berlin dates, both included). */
  start: string;
  end: string;
  /** Sorted by `from`; the first one applies from before the period on. */
  tariffs: readonly TariffBlock[];
  requests: readonly BilledRequest[];
  /** The onboarding fee, on the contract's first bill only (euros, 2 decimals). */
  onboardingFee?: string;
  /** Whether the monthly fixed tariff is part of this bill (an IMMEDIATE bill carries it once a month). */
  withFixedTariff: boolean;
  /** VAT in percent; 19 unless told. */
  vatPercent?: number;
}

export type BillLineKind = 'fixed' | 'energy' | 'per-request' | 'onboarding';

export interface BillLine {
  kind: BillLineKind;
  /** The days this line covers (a price block within the period). */
  from: string;
  to: string;
  /**
   * How many units: months as a fraction of whole days (fixed), Wh (energy), requests
   * (per-request), 1 (onboarding).
   */
  quantity: { numerator: bigint; denominator: bigint };
  /** Price per unit: cents per month, ten-thousandths of a euro per kWh, cents per request, cents. */
  unitPrice: bigint;
  netCents: bigint;
}

export interface BillFigures {
  lines: BillLine[];
  /** The VAT rate the bill was computed at. */
  vatPercent: number;
  energyWh: bigint;
  netCents: bigint;
  vatCents: bigint;
  grossCents: bigint;
  /** The gross share of the energy lines and of all other lines (the bill's taxedVarCosts / taxedFixCosts). */
  taxedVarCents: bigint;
  taxedFixCents: bigint;
}

/** A non-negative decimal text as an integer of `scale` decimals ('9.9', 2 → 990n); refuses anything else. */
export function toUnits(value: string, scale: number): bigint {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new RangeError(`not a non-negative decimal: ${value}`);
  const fraction = match[2] ?? '';
  if (fraction.length > scale && /[1-9]/.test(fraction.slice(scale))) throw new RangeError(`more than ${scale} decimals: ${value}`);
  return BigInt(match[1]! + fraction.slice(0, scale).padEnd(scale, '0'));
}

/** n / d rounded half up (n, d ≥ 0). */
export function divideRounded(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

const later = (a: CalendarDate, b: CalendarDate) => (a.compare(b) >= 0 ? a : b);
const earlier = (a: CalendarDate, b: CalendarDate) => (a.compare(b) <= 0 ? a : b);

/** Whole months, and parts of months by days, from `from` to `to` (both included), as one exact fraction. */
export function monthsBetween(from: CalendarDate, to: CalendarDate): { numerator: bigint; denominator: bigint } {
  let numerator = 0n;
  let denominator = 1n;
  for (let monthStart = from.set({ day: 1 }); monthStart.compare(to) <= 0; monthStart = monthStart.add({ months: 1 })) {
    const daysInMonth = BigInt(monthStart.calendar.getDaysInMonth(monthStart));
    const monthEnd = monthStart.set({ day: Number(daysInMonth) });
    const days = BigInt(earlier(monthEnd, to).compare(later(monthStart, from)) + 1);
    // numerator/denominator + days/daysInMonth
    numerator = numerator * daysInMonth + days * denominator;
    denominator *= daysInMonth;
  }
  const g = gcd(numerator, denominator);
  return { numerator: numerator / g, denominator: denominator / g };
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** The price blocks of the period: each tariff's days within [start, end]. */
function blocksOf(input: BillInput): { tariff: TariffBlock; from: CalendarDate; to: CalendarDate }[] {
  const start = parseDate(input.start);
  const end = parseDate(input.end);
  if (end.compare(start) < 0) throw new RangeError(`period ends before it starts: ${input.start} – ${input.end}`);
  if (input.tariffs.length === 0) throw new RangeError('no tariff');
  const blocks = [];
  for (let i = 0; i < input.tariffs.length; i++) {
    const tariff = input.tariffs[i]!;
    const next = input.tariffs[i + 1];
    const from = i === 0 ? start : later(parseDate(tariff.from), start);
    const to = next ? earlier(parseDate(next.from).subtract({ days: 1 }), end) : end;
    if (from.compare(to) <= 0) blocks.push({ tariff, from, to });
  }
  return blocks;
}

/** The bill of one period: its lines (in the order fixed, energy, per request, per block; onboarding last) and totals. */
export function computeBill(input: BillInput): BillFigures {
  const lines: BillLine[] = [];
  let energyWh = 0n;
  for (const { tariff, from, to } of blocksOf(input)) {
    const range = { from: from.toString(), to: to.toString() };
    const inBlock = input.requests.filter((r) => r.day >= range.from && r.day <= range.to);
    if (input.withFixedTariff) {
      const months = monthsBetween(from, to);
      const unitPrice = toUnits(tariff.fixMonthly, 2);
      if (unitPrice > 0n) {
        lines.push({
          kind: 'fixed',
          ...range,
          quantity: months,
          unitPrice,
          netCents: divideRounded(unitPrice * months.numerator, months.denominator),
        });
      }
    }
    const wh = inBlock.reduce((sum, r) => sum + toUnits(r.energyKwh, 3), 0n);
    energyWh += wh;
    const perKwh = toUnits(tariff.perKwh, 4);
    if (wh > 0n && perKwh > 0n) {
      // Wh × (€/10000 per kWh) = 1e-7 €; cents: / 1e5.
      lines.push({
        kind: 'energy',
        ...range,
        quantity: { numerator: wh, denominator: 1n },
        unitPrice: perKwh,
        netCents: divideRounded(wh * perKwh, 100_000n),
      });
    }
    const perRequest = toUnits(tariff.perRequest, 2);
    if (inBlock.length > 0 && perRequest > 0n) {
      const count = BigInt(inBlock.length);
      lines.push({
        kind: 'per-request',
        ...range,
        quantity: { numerator: count, denominator: 1n },
        unitPrice: perRequest,
        netCents: count * perRequest,
      });
    }
  }
  const onboarding = input.onboardingFee === undefined ? 0n : toUnits(input.onboardingFee, 2);
  if (onboarding > 0n) {
    lines.push({
      kind: 'onboarding',
      from: input.start,
      to: input.start,
      quantity: { numerator: 1n, denominator: 1n },
      unitPrice: onboarding,
      netCents: onboarding,
    });
  }
  const vatPercent = BigInt(input.vatPercent ?? 19);
  const netCents = lines.reduce((sum, l) => sum + l.netCents, 0n);
  const vatCents = divideRounded(netCents * vatPercent, 100n);
  const grossCents = netCents + vatCents;
  const energyNet = lines.filter((l) => l.kind === 'energy').reduce((sum, l) => sum + l.netCents, 0n);
  const taxedVarCents = divideRounded(energyNet * (100n + vatPercent), 100n);
  return {
    lines,
    vatPercent: Number(vatPercent),
    energyWh,
    netCents,
    vatCents,
    grossCents,
    taxedVarCents,
    taxedFixCents: grossCents - taxedVarCents,
  };
}

/** Cents as the database's numeric text (1234n → '12.34'). */
export function centsToNumeric(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const cycleMonths = { MONTHLY: 1, QUARTERLY: 3, SEMI_ANNUAL: 6, ANNUAL: 12 } as const;

/**
 * The billing period of a contract that a run for `month` ('2026-10') bills: its cycle's calendar
 * period (month, quarter, half year, year) cut to the contract's days, when that cut ends within
 * `month`, so every period is billed in exactly one run (a contract ending mid-quarter gets its last
 * bill in the month it ends, and none at the quarter's end). Undefined: nothing to bill this month.
 */
export function periodEndingIn(
  cycle: keyof typeof cycleMonths,
  month: string,
  contractStart: string,
  contractEnd?: string | null,
): { start: string; end: string } | undefined {
  const first = parseDate(`${month}-01`);
  const length = cycleMonths[cycle];
  const periodStart = first.set({ month: Math.floor((first.month - 1) / length) * length + 1 });
  const periodEnd = periodStart.add({ months: length }).subtract({ days: 1 });
  const start = later(periodStart, parseDate(contractStart));
  const end = contractEnd ? earlier(periodEnd, parseDate(contractEnd)) : periodEnd;
  if (start.compare(end) > 0) return undefined;
  const lastOfMonth = first.set({ day: first.calendar.getDaysInMonth(first) });
  if (end.compare(first) < 0 || end.compare(lastOfMonth) > 0) return undefined;
  return { start: start.toString(), end: end.toString() };
}

/**
 * A charging request's cost (the charging history's `cost`) by the bills' rule: the price block
 * in force on its Berlin start day (as `computeBill` picks it: the last one from on or before the
 * day, else the first), its energy × the price per kWh rounded once, half up, to the cent, plus
 * the fee per charging request. A request in which no energy flowed costs nothing. A bill rounds
 * its energy line once over all its requests, so its requests' costs may add up to a cent or two
 * more or less than the line.
 */
export function requestCostCents(tariffs: readonly TariffBlock[], day: string, energyKwh: string): bigint {
  if (toUnits(energyKwh, 3) === 0n) return 0n;
  return computeBill({ start: day, end: day, tariffs, requests: [{ day, energyKwh }], withFixedTariff: false }).netCents;
}
