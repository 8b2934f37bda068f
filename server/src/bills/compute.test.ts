import { parseDate } from '@internationalized/date';
import { describe, expect, it } from 'vitest';
import { centsToNumeric, computeBill, monthsBetween, periodEndingIn, toUnits, type BillInput } from './compute';

/** Every figure below is worked out by hand in its comment. */
const tariff = { from: '2020-01-01', fixMonthly: '9.90', perKwh: '0.3900', perRequest: '0.50' };

const bill = (over: Partial<BillInput>) =>
  computeBill({ start: '2026-10-01', end: '2026-10-31', tariffs: [tariff], requests: [], withFixedTariff: true, ...over });

const nets = (input: Partial<BillInput>) => bill(input).lines.map((l) => [l.kind, l.from, l.to, Number(l.netCents)]);

describe('a bill of one month', () => {
  it('has the fixed tariff, energy × price, the fee per request, 19 % VAT on the net sum', () => {
    const b = bill({
      requests: [
        { day: '2026-10-03', energyKwh: '12.345' },
        { day: '2026-10-20', energyKwh: '7.655' },
      ],
    });
    // fixed 9.90; energy 20.000 kWh × 0.39 = 7.80; 2 × 0.50 = 1.00
    expect(b.lines.map((l) => [l.kind, Number(l.netCents)])).toEqual([
      ['fixed', 990],
      ['energy', 780],
      ['per-request', 100],
    ]);
    expect(b.energyWh).toBe(20_000n);
    // net 18.70; VAT 3.553 → 3.55; gross 22.25
    expect([b.netCents, b.vatCents, b.grossCents]).toEqual([1870n, 355n, 2225n]);
    // energy taxed: 7.80 × 1.19 = 9.282 → 9.28; the rest 22.25 − 9.28
    expect([b.taxedVarCents, b.taxedFixCents]).toEqual([928n, 1297n]);
  });

  it('charges a part month by its days: 17 of October’s 31 days of 9.90 €', () => {
    // 990 × 17 / 31 = 542.90… → 543
    expect(nets({ start: '2026-10-15' })).toEqual([['fixed', '2026-10-15', '2026-10-31', 543]]);
  });

  it('puts the onboarding fee on the bill it is given to', () => {
    expect(nets({ onboardingFee: '25.00' })).toEqual([
      ['fixed', '2026-10-01', '2026-10-31', 990],
      ['onboarding', '2026-10-01', '2026-10-01', 2500],
    ]);
  });

  it('leaves the fixed tariff out when told (an IMMEDIATE bill after the month’s first)', () => {
    const b = bill({ withFixedTariff: false, requests: [{ day: '2026-10-03', energyKwh: '1.000' }] });
    // 1 kWh × 0.39 = 0.39; 1 × 0.50
    expect(b.lines.map((l) => [l.kind, Number(l.netCents)])).toEqual([
      ['energy', 39],
      ['per-request', 50],
    ]);
  });

  it('rounds VAT half up: net 18.50 → VAT 3.515 → 3.52', () => {
    const b = bill({ tariffs: [{ ...tariff, fixMonthly: '18.50' }] });
    expect([b.netCents, b.vatCents, b.grossCents]).toEqual([1850n, 352n, 2202n]);
  });
});

describe('a tariff change within the period', () => {
  const change: BillInput = {
    start: '2026-10-01',
    end: '2026-12-31',
    withFixedTariff: true,
    tariffs: [
      { from: '2026-01-01', fixMonthly: '10.00', perKwh: '0.3000', perRequest: '0.00' },
      { from: '2026-11-01', fixMonthly: '12.00', perKwh: '0.3500', perRequest: '0.00' },
    ],
    requests: [
      { day: '2026-10-15', energyKwh: '10.000' },
      { day: '2026-11-20', energyKwh: '10.500' },
      { day: '2026-12-24', energyKwh: '10.500' },
    ],
  };

  it('makes two price blocks: October at the old prices, November and December at the new', () => {
    // old: 1 month × 10.00; 10 kWh × 0.30 = 3.00. new: 2 months × 12.00; 21 kWh × 0.35 = 7.35
    expect(nets(change)).toEqual([
      ['fixed', '2026-10-01', '2026-10-31', 1000],
      ['energy', '2026-10-01', '2026-10-31', 300],
      ['fixed', '2026-11-01', '2026-12-31', 2400],
      ['energy', '2026-11-01', '2026-12-31', 735],
    ]);
  });

  it('rounds each line once, then sums: two lines of 3.675 € are 7.36 €, not 7.35 €', () => {
    const twoBlocks: BillInput = {
      ...change,
      withFixedTariff: false,
      tariffs: [change.tariffs[0]!, { ...change.tariffs[1]!, perKwh: '0.3500' }, { ...change.tariffs[1]!, from: '2026-12-01' }],
      requests: [
        { day: '2026-11-20', energyKwh: '10.500' },
        { day: '2026-12-24', energyKwh: '10.500' },
      ],
    };
    // each block: 10.5 kWh × 0.35 = 3.675 → 3.68; together 7.36 (the sum of 3.675 + 3.675 = 7.35)
    expect(nets(twoBlocks)).toEqual([
      ['energy', '2026-11-01', '2026-11-30', 368],
      ['energy', '2026-12-01', '2026-12-31', 368],
    ]);
    expect(computeBill(twoBlocks).netCents).toBe(736n);
  });
});

describe('pro rata', () => {
  it('counts months by days, across a leap February', () => {
    // 15 of February 2028's 29 days, then March–December: 15/29 + 10 = 305/29
    expect(monthsBetween(parseDate('2028-02-15'), parseDate('2028-12-31'))).toEqual({ numerator: 305n, denominator: 29n });
    // 990 × 305 / 29 = 10412.07 → 10412
    expect(nets({ start: '2028-02-15', end: '2028-12-31' })).toEqual([['fixed', '2028-02-15', '2028-12-31', 10412]]);
  });

  it('makes a whole month of a whole month whatever its length', () => {
    expect(monthsBetween(parseDate('2026-02-01'), parseDate('2026-02-28'))).toEqual({ numerator: 1n, denominator: 1n });
    expect(monthsBetween(parseDate('2026-01-01'), parseDate('2026-06-30'))).toEqual({ numerator: 6n, denominator: 1n });
  });
});

describe('the period a run bills', () => {
  it('bills each cycle’s calendar period in the run of the month it ends in', () => {
    expect(periodEndingIn('MONTHLY', '2026-10', '2025-01-01')).toEqual({ start: '2026-10-01', end: '2026-10-31' });
    expect(periodEndingIn('QUARTERLY', '2026-12', '2025-01-01')).toEqual({ start: '2026-10-01', end: '2026-12-31' });
    expect(periodEndingIn('QUARTERLY', '2026-11', '2025-01-01')).toBeUndefined();
    expect(periodEndingIn('SEMI_ANNUAL', '2026-06', '2025-01-01')).toEqual({ start: '2026-01-01', end: '2026-06-30' });
    expect(periodEndingIn('ANNUAL', '2026-12', '2025-01-01')).toEqual({ start: '2026-01-01', end: '2026-12-31' });
    expect(periodEndingIn('ANNUAL', '2026-11', '2025-01-01')).toBeUndefined();
  });

  it('cuts the period to the contract: from its start, and to its end, billed in the month it ends', () => {
    expect(periodEndingIn('QUARTERLY', '2026-12', '2026-11-15')).toEqual({ start: '2026-11-15', end: '2026-12-31' });
    expect(periodEndingIn('QUARTERLY', '2026-11', '2025-01-01', '2026-11-20')).toEqual({ start: '2026-10-01', end: '2026-11-20' });
    expect(periodEndingIn('QUARTERLY', '2026-12', '2025-01-01', '2026-11-20')).toBeUndefined();
    expect(periodEndingIn('MONTHLY', '2026-10', '2026-11-15')).toBeUndefined();
    expect(periodEndingIn('MONTHLY', '2026-10', '2025-01-01', '2026-09-30')).toBeUndefined();
  });
});

describe('amounts as text', () => {
  it('reads the database’s decimals exactly and writes cents back', () => {
    expect(toUnits('9.9', 2)).toBe(990n);
    expect(toUnits('0.3900', 4)).toBe(3900n);
    expect(toUnits('12.345', 3)).toBe(12_345n);
    expect(toUnits('7', 2)).toBe(700n);
    expect(toUnits('1.2300', 2)).toBe(123n);
    expect(() => toUnits('1.234', 2)).toThrow(RangeError);
    expect(() => toUnits('-1', 2)).toThrow(RangeError);
    expect(() => toUnits('1e3', 2)).toThrow(RangeError);
    expect(centsToNumeric(1234n)).toBe('12.34');
    expect(centsToNumeric(5n)).toBe('0.05');
  });
});
