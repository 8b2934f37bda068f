import type { KpiInformation } from '../../../../contract/cockpit';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { LoadError } from '../../../ui/load-error';
import { cx } from '../../../ui/class-names';

export interface KpiCardsProps {
  kpis: KpiInformation | undefined;
  isLoading: boolean;
  isError: boolean;
  /** New figures for another range or locations are on their way. */
  isStale: boolean;
  onRetry: () => void;
  /** 'letzte 7 Tage': energy and sales count over the chart's range. */
  rangeLabel: string;
}

/** The four KPI tiles; energy and sales follow the chart's range, licences and users are current totals. */
export function KpiCards({ kpis, isLoading, isError, isStale, onRetry, rangeLabel }: KpiCardsProps) {
  const t = useT();
  const f = useFormat();
  const tiles = [
    {
      id: 'energy',
      label: t('cockpit.kpi.energy'),
      value: kpis && f.kwh(kpis.totalEnergyCharged),
      note: rangeLabel,
    },
    {
      id: 'revenue',
      label: t('cockpit.kpi.revenue'),
      value: kpis && f.money(kpis.totalRevenue),
      note: rangeLabel,
    },
    {
      id: 'licenses',
      label: t('cockpit.kpi.licenses'),
      value: kpis && f.number(kpis.totalWallboxLicenses),
      note: t('cockpit.kpi.currentTotal'),
    },
    {
      id: 'users',
      label: t('cockpit.kpi.users'),
      value: kpis && f.number(kpis.totalEndUsers),
      note: t('cockpit.kpi.currentTotal'),
    },
  ];

  return (
    <section aria-labelledby="cockpit-kpi-heading" className="flex flex-col gap-3">
      <h2 id="cockpit-kpi-heading" className="sr-only">
        {t('cockpit.kpi.heading')}
      </h2>
      {isError && !kpis && <LoadError message={t('cockpit.kpi.error')} onRetry={onRetry} />}
      <dl aria-busy={isLoading || isStale} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {tiles.map((tile) => (
          <div
            key={tile.id}
            data-testid={`kpi-${tile.id}`}
            className="flex min-w-0 flex-col gap-1 rounded-lg border border-border bg-surface p-4 shadow-sm"
          >
            <dt className="text-sm font-medium text-muted">{tile.label}</dt>
            <dd className={cx('text-2xl font-semibold tabular-nums text-fg transition-opacity', isStale && 'opacity-50')}>
              {tile.value ?? (isLoading ? <Skeleton /> : '–')}
            </dd>
            <dd className="text-xs text-muted">{tile.note}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Skeleton() {
  const t = useT();
  return (
    <span className="block h-8 w-3/4 animate-pulse rounded bg-surface-2 motion-reduce:animate-none">
      <span className="sr-only">{t('ui.common.loading')}</span>
    </span>
  );
}
