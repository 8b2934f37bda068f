import { ListPanel } from '../../../ui/card';
import type { Key } from 'react-aria-components/Select';
import { useState, type ReactNode } from 'react';
import { chartRanges, graphTypes, type ChartRange, type GraphAnswer, type GraphType, type GraphUnit } from '../../../../contract/cockpit';
import type { LocationDropdownRow } from '../../../../contract/locations';
import { useFormat } from '../../../i18n/format';
import { useLocale, useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { cx } from '../../../ui/class-names';
import { MultiSelect } from '../../../ui/multi-select';
import { Spinner } from '../../../ui/spinner';
import { ToggleButtonGroup } from '../../../ui/toggle-button-group';
import { formatGraphLabel } from '../graph-labels';
import type { ChartSettings } from '../graph-params';
import { GraphChart } from './graph-chart';

export interface GraphPanelProps {
  settings: ChartSettings;
  onSettingsChange: (settings: ChartSettings) => void;
  locations: readonly LocationDropdownRow[] | undefined;
  locationsFailed: boolean;
  data: GraphAnswer | undefined;
  /** The unit of the request behind `data` (placeholder data may still be the old range's). */
  unit: GraphUnit;
  graphType: GraphType;
  isLoading: boolean;
  isError: boolean;
  isStale: boolean;
  onRetry: () => void;
  ageNote?: ReactNode;
}

/** Chart card: location multi-select, graph type, range, the bars and a table alternative. */
export function GraphPanel({
  settings,
  onSettingsChange,
  locations,
  locationsFailed,
  data,
  unit,
  graphType,
  isLoading,
  isError,
  isStale,
  onRetry,
  ageNote,
}: GraphPanelProps) {
  const t = useT();
  const f = useFormat();
  const { locale } = useLocale();
  const [asTable, setAsTable] = useState(false);

  const points = data?.graphUnits ?? [];
  const isEmpty = points.length === 0 || points.every((p) => p.value === 0);
  const isUsers = graphType === 'ACTIVE_USERS';
  const formatValue = (v: number) => (isUsers ? t('cockpit.chart.users', { count: v }) : f.kwh(v));
  const typeLabel = t(`cockpit.chart.type.${graphType}`);
  const rangeLabel = t(`cockpit.chart.rangeLong.${settings.range}`);
  const chartName = t('cockpit.chart.name', {
    type: typeLabel,
    range: rangeLabel,
  });

  const maxPoint = points.reduce<(typeof points)[number] | undefined>((m, p) => (!m || p.value > m.value ? p : m), undefined);
  const summary =
    points.length > 0 && maxPoint
      ? t('cockpit.chart.summary', {
          count: points.length,
          first: formatGraphLabel(points[0].label, unit, locale),
          last: formatGraphLabel(points[points.length - 1].label, unit, locale),
          max: formatValue(maxPoint.value),
          maxLabel: formatGraphLabel(maxPoint.label, unit, locale),
        })
      : '';

  return (
    <ListPanel
      heading={t('cockpit.chart.heading')}
      headingId="cockpit-chart-heading"
      actions={
        <>
          {ageNote}
          {isStale && <Spinner size="sm" />}
        </>
      }
    >
      <ChartControls settings={settings} onSettingsChange={onSettingsChange} locations={locations} locationsFailed={locationsFailed} />

      <figure className="relative m-0 flex flex-col gap-2">
        <figcaption className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-sm font-medium text-muted">
            {typeLabel} · {rangeLabel}
          </span>
          {!isEmpty && (
            <Button variant="ghost" size="sm" aria-pressed={asTable} onPress={() => setAsTable((v) => !v)}>
              {asTable ? t('cockpit.chart.showChart') : t('cockpit.chart.showTable')}
            </Button>
          )}
        </figcaption>

        {isLoading && !data ? (
          <div className="flex h-[300px] items-center justify-center rounded-md bg-surface-2 motion-safe:animate-pulse">
            <Spinner showLabel />
          </div>
        ) : isError && !data ? (
          <div role="alert" className="flex h-[300px] flex-col items-center justify-center gap-3 rounded-md bg-surface-2 p-4 text-center">
            <p className="text-fg">{t('cockpit.chart.error')}</p>
            <Button variant="secondary" onPress={onRetry}>
              {t('cockpit.retry')}
            </Button>
          </div>
        ) : isEmpty ? (
          <div
            data-testid="chart-empty"
            className={cx(
              'flex h-[300px] flex-col items-center justify-center gap-1 rounded-md border border-dashed border-border p-4 text-center',
              isStale && 'opacity-50',
            )}
          >
            <p className="font-medium text-fg">{t('cockpit.chart.empty')}</p>
            <p className="text-sm text-muted">{t('cockpit.chart.emptyHint')}</p>
          </div>
        ) : (
          <>
            {!asTable && (
              <GraphChart
                points={points}
                unit={unit}
                integer={isUsers}
                name={chartName}
                summary={summary}
                formatValue={formatValue}
                formatTick={(v) => f.number(v, Number.isInteger(v) ? 0 : 2)}
                axisLabel={isUsers ? t('cockpit.chart.axisUsers') : 'kWh'}
                isStale={isStale}
              />
            )}
            {/* The same numbers as a table: always there for screen readers, on request for everyone. */}
            <ChartTable points={points} unit={unit} isUsers={isUsers} name={chartName} visible={asTable} />
          </>
        )}
      </figure>
    </ListPanel>
  );
}

/** The chart's settings: locations, graph type and range. */
function ChartControls({
  settings,
  onSettingsChange,
  locations,
  locationsFailed,
}: Pick<GraphPanelProps, 'settings' | 'onSettingsChange' | 'locations' | 'locationsFailed'>) {
  const t = useT();
  const locationItems = (locations ?? []).map((l) => ({
    id: l.locationId,
    label: l.locationName,
  }));
  const typeItems = graphTypes.map((id) => ({
    id,
    label: t(`cockpit.chart.type.${id}`),
  }));
  const rangeItems = chartRanges.map((id) => ({
    id,
    label: t(`cockpit.chart.ranges.${id}`),
  }));

  return (
    <div className="flex flex-wrap items-end gap-3">
      <MultiSelect
        label={t('cockpit.chart.locations')}
        items={locationItems}
        value={settings.locations}
        onChange={(value: Key[]) => onSettingsChange({ ...settings, locations: value.map(String) })}
        showAll
        placeholder={t('cockpit.chart.allLocations')}
        errorMessage={locationsFailed ? t('cockpit.chart.locationsError') : undefined}
        className="min-w-[220px] flex-1 sm:max-w-[320px]"
      />
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-fg">{t('cockpit.chart.graphType')}</span>
        <ToggleButtonGroup
          aria-label={t('cockpit.chart.graphType')}
          items={typeItems}
          value={settings.graphType}
          onChange={(id) => onSettingsChange({ ...settings, graphType: id as GraphType })}
        />
      </div>
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium text-fg">{t('cockpit.chart.range')}</span>
        <ToggleButtonGroup
          aria-label={t('cockpit.chart.range')}
          items={rangeItems}
          value={settings.range}
          onChange={(id) => onSettingsChange({ ...settings, range: id as ChartRange })}
        />
      </div>
    </div>
  );
}

/** The chart's numbers as a table: always there for screen readers, shown on request. */
function ChartTable({
  points,
  unit,
  isUsers,
  name,
  visible,
}: {
  points: GraphAnswer['graphUnits'];
  unit: GraphUnit;
  isUsers: boolean;
  name: string;
  visible: boolean;
}) {
  const t = useT();
  const f = useFormat();
  const { locale } = useLocale();
  return (
    <div className={visible ? 'max-h-[300px] overflow-y-auto rounded-md border border-border' : 'sr-only'}>
      <table data-testid="chart-table" className="w-full border-collapse text-start text-sm">
        <caption className="sr-only">{name}</caption>
        <thead className="sticky top-0 bg-surface-2">
          <tr>
            <th scope="col" className="px-3 py-2 text-start font-semibold">
              {unit === 'MONTHS' ? t('cockpit.chart.columnMonth') : t('cockpit.chart.columnDay')}
            </th>
            <th scope="col" className="px-3 py-2 text-end font-semibold">
              {isUsers ? t('cockpit.chart.columnUsers') : t('cockpit.chart.columnEnergy')}
            </th>
          </tr>
        </thead>
        <tbody>
          {points.map((p) => (
            <tr key={p.label} className="border-t border-border">
              <th scope="row" className="px-3 py-2 text-start font-normal">
                {formatGraphLabel(p.label, unit, locale)}
              </th>
              <td className="px-3 py-2 text-end tabular-nums">{isUsers ? f.number(p.value) : f.number(p.value, 2)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
