import { localPoint } from '@visx/event';
import { GridRows } from '@visx/grid';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { TooltipWithBounds, useTooltip } from '@visx/tooltip';
import { useId, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { GraphPoint, GraphUnit } from '../../../../contract/cockpit';
import { useLocale, useT } from '../../../i18n/i18n-context';
import { cx } from '../../../ui/class-names';
import { formatGraphLabel } from '../graph-labels';
import { yAxisScale } from '../y-axis';

export interface GraphChartProps {
  points: readonly GraphPoint[];
  unit: GraphUnit;
  /** Counts (active users) get whole-number ticks. */
  integer: boolean;
  /** The chart's accessible name ('Diagramm: Geladene Menge, letzte 7 Tage'). */
  name: string;
  /** A sentence describing the data for screen readers. */
  summary: string;
  /** Value with its unit for the tooltip ('12,50 kWh', '3 aktive Nutzer'). */
  formatValue: (value: number) => string;
  /** Value for the y-axis ticks (number only). */
  formatTick: (value: number) => string;
  axisLabel: string;
  /** Old data while new data loads. */
  isStale?: boolean;
}

const HEIGHT = 300;
const MARGIN = { top: 16, right: 12, bottom: 36, left: 64 };

/** Bars per day or month; resizes with its container (768 px portrait up to desktop). */
export function GraphChart(props: GraphChartProps) {
  return (
    <div className="relative w-full" style={{ height: HEIGHT }}>
      <ParentSize debounceTime={40}>{({ width }) => (width > 0 ? <Bars {...props} width={width} /> : null)}</ParentSize>
    </div>
  );
}

function Bars({
  points,
  unit,
  integer,
  name,
  summary,
  formatValue,
  formatTick,
  axisLabel,
  isStale,
  width,
}: GraphChartProps & { width: number }) {
  const t = useT();
  const { locale } = useLocale();
  const hintId = useId();
  const [active, setActive] = useState<number | null>(null);
  const { tooltipOpen, tooltipLeft, tooltipTop, tooltipData, showTooltip, hideTooltip } = useTooltip<number>();

  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const labels = points.map((p) => p.label);
  const max = points.reduce((m, p) => Math.max(m, p.value), 0);
  const axis = yAxisScale(max, { integer });

  const x = scaleBand<string>({
    domain: labels,
    range: [0, innerWidth],
    padding: points.length > 20 ? 0.2 : 0.3,
  });
  const y = scaleLinear<number>({
    domain: [0, axis.top],
    range: [innerHeight, 0],
  });
  const step = x.step() || 1;

  // Wider bands get month names in full; narrow ones skip labels so they never overlap.
  const axisStyle = unit === 'MONTHS' && step >= 84 ? 'axis' : 'axis-short';
  const labelWidth = unit === 'MONTHS' ? (axisStyle === 'axis' ? 76 : 34) : 46;
  const every = Math.max(1, Math.ceil((labelWidth + 8) / step));
  const tickValues = labels.filter((_, i) => (labels.length - 1 - i) % every === 0);

  const show = (index: number) => {
    const point = points[index];
    if (!point) return;
    setActive(index);
    showTooltip({
      tooltipData: index,
      tooltipLeft: MARGIN.left + (x(point.label) ?? 0) + x.bandwidth() / 2,
      tooltipTop: MARGIN.top + y(point.value),
    });
  };
  const clear = () => {
    setActive(null);
    hideTooltip();
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const at = localPoint(event);
    if (!at) return;
    const index = Math.floor((at.x - MARGIN.left - x.paddingOuter() * step) / step);
    if (index >= 0 && index < points.length) show(index);
    else clear();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = points.length - 1;
    const current = active ?? -1;
    let next: number | null = null;
    if (event.key === 'ArrowRight' || event.key === 'ArrowUp') next = Math.min(last, current + 1);
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowDown') next = current < 0 ? last : Math.max(0, current - 1);
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = last;
    else if (event.key === 'Escape') clear();
    if (next !== null && last >= 0) {
      event.preventDefault();
      show(next);
    }
  };

  const activePoint = tooltipData !== undefined ? points[tooltipData] : undefined;
  const activeText = activePoint ? `${formatGraphLabel(activePoint.label, unit, locale)}: ${formatValue(activePoint.value)}` : '';

  return (
    <>
      {/* One tab stop for the whole chart; arrow keys walk the bars and the live region reads each value. */}
      <div
        role="img"
        aria-label={`${name}. ${summary}`}
        aria-describedby={hintId}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onFocus={() => show(active ?? points.length - 1)}
        onBlur={clear}
        data-testid="cockpit-chart"
        className={cx(
          'rounded-md outline-none transition-opacity focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus',
          isStale && 'opacity-50',
        )}
      >
        <svg width={width} height={HEIGHT} onPointerMove={onPointerMove} onPointerLeave={clear} aria-hidden="true" className="touch-pan-y">
          <Group left={MARGIN.left} top={MARGIN.top}>
            <GridRows scale={y} width={innerWidth} tickValues={axis.ticks} stroke="var(--color-border)" strokeDasharray="3,3" />
            {points.map((p, i) => {
              const barX = x(p.label) ?? 0;
              const barY = y(p.value);
              const h = Math.max(0, innerHeight - barY);
              return (
                <Bar
                  key={p.label}
                  x={barX}
                  y={p.value > 0 ? Math.min(barY, innerHeight - 2) : innerHeight}
                  width={x.bandwidth()}
                  height={p.value > 0 ? Math.max(2, h) : 0}
                  rx={Math.min(4, x.bandwidth() / 4)}
                  fill="var(--color-primary)"
                  opacity={active === null || active === i ? 1 : 0.45}
                />
              );
            })}
            <Axes
              x={x}
              y={y}
              ticks={axis.ticks}
              tickValues={tickValues}
              innerWidth={innerWidth}
              innerHeight={innerHeight}
              labelStyle={axisStyle}
              unit={unit}
              formatTick={formatTick}
              axisLabel={axisLabel}
            />
          </Group>
        </svg>
      </div>
      <p id={hintId} className="sr-only">
        {t('cockpit.chart.keyboardHint')}
      </p>
      <p aria-live="polite" className="sr-only">
        {activeText}
      </p>
      {tooltipOpen && activePoint && (
        <TooltipWithBounds
          key={tooltipData}
          left={tooltipLeft}
          top={tooltipTop}
          unstyled
          applyPositionStyle
          className="pointer-events-none z-10 rounded-md border border-border bg-surface px-3 py-2 text-sm text-fg shadow-lg"
        >
          <div className="font-semibold">{formatValue(activePoint.value)}</div>
          <div className="text-muted">{formatGraphLabel(activePoint.label, unit, locale)}</div>
        </TooltipWithBounds>
      )}
    </>
  );
}

interface AxesProps {
  x: ReturnType<typeof scaleBand<string>>;
  y: ReturnType<typeof scaleLinear<number>>;
  ticks: readonly number[];
  tickValues: readonly string[];
  innerWidth: number;
  innerHeight: number;
  labelStyle: 'axis' | 'axis-short';
  unit: GraphChartProps['unit'];
  formatTick: GraphChartProps['formatTick'];
  axisLabel: string;
}

function Axes({ x, y, ticks, tickValues, innerWidth, innerHeight, labelStyle, unit, formatTick, axisLabel }: AxesProps) {
  const { locale } = useLocale();
  return (
    <>
      {/* Axes drawn by hand: @visx/axis brings @visx/text and a CSS-calc evaluator (~7 KB gzip) for plain labels. */}
      <g aria-hidden="true" fontSize={12} fill="var(--color-muted)">
        {ticks.map((tick) => (
          <text key={tick} x={-8} y={y(tick)} dy="0.32em" textAnchor="end">
            {formatTick(tick)}
          </text>
        ))}
        <text transform={`translate(${-MARGIN.left + 12}, ${innerHeight / 2}) rotate(-90)`} textAnchor="middle">
          {axisLabel}
        </text>
        <line x1={0} x2={innerWidth} y1={innerHeight} y2={innerHeight} stroke="var(--color-border)" />
        {tickValues.map((label) => {
          const cx = (x(label) ?? 0) + x.bandwidth() / 2;
          return (
            <g key={label} transform={`translate(${cx}, ${innerHeight})`}>
              <line y2={5} stroke="var(--color-border)" />
              <text y={20} textAnchor="middle">
                {formatGraphLabel(label, unit, locale, labelStyle)}
              </text>
            </g>
          );
        })}
      </g>
    </>
  );
}
