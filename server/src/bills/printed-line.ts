import { parseDate } from '@internationalized/date';
import type { BillLine } from './compute';

/**
 * A bill line's quantity, unit price and base quantity as the invoice prints them, the same for the
 * PDF and the e-invoice (issue 35): quantity × price / base is the line's net amount before its one
 * rounding to the cent (BT-129 × BT-146 / BT-149 = BT-131), so the printed figures multiply out.
 *   - fixed tariff, whole months: months × the monthly price;
 *   - fixed tariff, part of one month: its days × the monthly price / the month's days
 *     ("17 Tage × 14,90 € / 31 Tage");
 *   - fixed tariff over several months with a part month (a quarter cut by the contract's start or
 *     end): the exact fraction of months n/d, written as n × the monthly price / d;
 *   - energy: kWh (3 decimals) × the price per kWh (4 decimals);
 *   - charging requests × the fee; the onboarding fee once.
 */
export interface PrintedLine {
  /** BT-129: decimal text with a point ('17', '12.345'). */
  quantity: string;
  /** BT-130 and BT-150, UN/ECE Recommendation 20. */
  unit: 'DAY' | 'MON' | 'KWH' | 'C62';
  /** BT-146 in euros: decimal text, 2 decimals (4 for a price per kWh). */
  price: string;
  /** BT-149: how many units the price is for (decimal text; '1' for a price per unit). */
  base: string;
  /** The fixed tariff over several months: the quantity is n of d parts of a month (printed "n/d Monate"). */
  monthFraction?: boolean;
}

/** `n / 10^scale` as decimal text (61725n, 3 → '61.725'). */
export const scaled = (n: bigint, scale: number): string => {
  if (scale === 0) return n.toString();
  const s = n.toString().padStart(scale + 1, '0');
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
};

export function printedLine(line: BillLine): PrintedLine {
  const { numerator, denominator } = line.quantity;
  switch (line.kind) {
    case 'fixed': {
      const price = scaled(line.unitPrice, 2);
      if (denominator === 1n) return { quantity: numerator.toString(), unit: 'MON', price, base: '1' };
      const from = parseDate(line.from);
      const to = parseDate(line.to);
      if (from.year === to.year && from.month === to.month) {
        // One month's days: the stored fraction is these days over the month's, reduced.
        const days = to.day - from.day + 1;
        return { quantity: String(days), unit: 'DAY', price, base: String(from.calendar.getDaysInMonth(from)) };
      }
      return { quantity: numerator.toString(), unit: 'MON', price, base: denominator.toString(), monthFraction: true };
    }
    case 'energy':
      return { quantity: scaled(numerator, 3), unit: 'KWH', price: scaled(line.unitPrice, 4), base: '1' };
    case 'per-request':
      return { quantity: numerator.toString(), unit: 'C62', price: scaled(line.unitPrice, 2), base: '1' };
    case 'onboarding':
      return { quantity: '1', unit: 'C62', price: scaled(line.unitPrice, 2), base: '1' };
  }
}
