/** Spec 1 §9: the chart's y-axis step is about max/6. */
export const Y_AXIS_DIVISIONS = 6;

export interface YAxisScale {
  /** Distance between ticks: max/6 rounded up to 1, 2, 2.5 or 5 times a power of ten. */
  step: number;
  /** Top of the axis: the first tick at or above max. */
  top: number;
  /** 0, step, 2·step … top. */
  ticks: number[];
}

const NICE_FACTORS = [1, 2, 2.5, 5, 10] as const;

/** Decimals needed to print `step` exactly (0.25 → 2), so ticks carry no float noise. */
function decimalsOf(step: number): number {
  const s = String(step);
  if (s.includes('e-')) return Number(s.split('e-')[1]);
  return s.includes('.') ? s.split('.')[1].length : 0;
}

/**
 * A y-axis from 0 to `max` with about six nicely rounded steps. `integer` (counts such as active
 * users) keeps the step at 1 or more, so no tick reads '2,5 Nutzer'. A max of 0 or less (no data)
 * gives 0…6 (or 0…1 for fractions) so an empty chart still has an axis.
 */
export function yAxisScale(max: number, { integer = false }: { integer?: boolean } = {}): YAxisScale {
  const safeMax = Number.isFinite(max) && max > 0 ? max : 0;
  let step: number;
  if (safeMax === 0) {
    step = integer ? 1 : 0.25;
  } else {
    const raw = safeMax / Y_AXIS_DIVISIONS;
    const magnitude = 10 ** Math.floor(Math.log10(raw));
    const factor = NICE_FACTORS.find((f) => raw <= f * magnitude * (1 + 1e-9)) ?? 10;
    step = factor * magnitude;
    if (integer) step = Math.max(1, Math.ceil(step));
  }
  const decimals = decimalsOf(step);
  const round = (n: number) => Number(n.toFixed(decimals));
  // The epsilon absorbs float noise (0.3 / 0.1 = 2.9999…) without rounding a real 3.2 down to 3.
  const count = safeMax === 0 ? (integer ? Y_AXIS_DIVISIONS : 4) : Math.max(1, Math.ceil(safeMax / step - 1e-9));
  const ticks = Array.from({ length: count + 1 }, (_, i) => round(i * step));
  return { step: round(step), top: ticks[ticks.length - 1], ticks };
}
