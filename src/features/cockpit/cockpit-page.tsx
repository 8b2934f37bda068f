import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { useT } from '../../i18n/i18n-context';
import { PageHeader } from '../../ui/page-header';
import { Spinner } from '../../ui/spinner';
import { useSession } from '../../auth/session-context';
import { graphQueryOptions } from './api/cockpit-queries';
import type { CockpitSearch } from './api/cockpit-search';
import { locationDropdownQueryOptions } from '../locations/api/location-queries';
import { DataAgeNote } from '../../offline/data-age-note';
import { OfflineUnavailable, isWaitingOffline } from '../../layout/offline-unavailable';
import { GraphPanel } from './components/graph-panel';
import { KpiCards } from './components/kpi-cards';
import { greetingKey } from './greeting';
import { berlinToday, buildGraphParams, normalizeLocations, type ChartSettings } from './graph-params';

// The table, its search (date pickers, calendar) and the admin dialog are a chunk of their own,
// which keeps the route chunk in budget; the import starts with this module, not after the first render.
const historyModule = import('./components/charging-history');
const ChargingHistory = lazy(() => historyModule.then((m) => ({ default: m.ChargingHistory })));

export interface CockpitPageProps {
  /** The chart's settings and the charging-request search and paging, kept in the URL by the route. */
  search: CockpitSearch;
  onSearchChange: (next: CockpitSearch) => void;
}

export function CockpitPage({ search, onSearchChange }: CockpitPageProps) {
  const t = useT();
  const { claims, isAdmin } = useSession();
  const firstName = claims?.name.split(' ')[0] ?? '';
  // One 'today' per visit, so the range (and its cache key) does not move while the page is open.
  const [today] = useState(berlinToday);
  const settings: ChartSettings = { range: search.range, graphType: search.graphType, locations: search.locations };
  const setSettings = (next: ChartSettings) => onSearchChange({ ...search, ...next, locations: [...next.locations].sort() });

  const locations = useQuery(locationDropdownQueryOptions());
  const available = (locations.data ?? []).map((l) => l.locationId);
  const params = buildGraphParams(
    {
      ...settings,
      locations: normalizeLocations(settings.locations, available),
    },
    today,
  );
  const graph = useQuery(graphQueryOptions(params));
  // Placeholder data answers the previous question: label and format it by the params it came from.
  const [shown, setShown] = useState(params);
  if (!graph.isPlaceholderData && graph.data && JSON.stringify(shown) !== JSON.stringify(params)) setShown(params);
  const isStale = graph.isPlaceholderData && graph.isFetching;
  const retry = () => void graph.refetch();

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t(greetingKey(new Date().getHours()), { name: firstName })} description={t('cockpit.intro')} className="mb-0" />
      {isWaitingOffline(graph) ? (
        <OfflineUnavailable />
      ) : (
        <>
          <KpiCards
            kpis={graph.data?.kpiInformation}
            isLoading={graph.isPending}
            isError={graph.isError}
            isStale={isStale}
            onRetry={retry}
            rangeLabel={t(`cockpit.chart.rangeLong.${settings.range}`)}
          />
          <GraphPanel
            settings={settings}
            onSettingsChange={setSettings}
            locations={locations.data}
            locationsFailed={locations.isError && !locations.data}
            data={graph.data}
            unit={graph.isPlaceholderData ? shown.unit : params.unit}
            graphType={graph.isPlaceholderData ? shown.graphType : params.graphType}
            isLoading={graph.isPending}
            isError={graph.isError}
            isStale={isStale}
            onRetry={retry}
            ageNote={<DataAgeNote queryKey={graphQueryOptions(params).queryKey} />}
          />
        </>
      )}
      <Suspense
        fallback={
          <div className="flex min-h-48 items-center justify-center rounded-lg border border-border bg-surface">
            <Spinner showLabel />
          </div>
        }
      >
        <ChargingHistory isAdmin={isAdmin} search={search} onSearchChange={onSearchChange} />
      </Suspense>
    </div>
  );
}
