import { createFileRoute } from '@tanstack/react-router';
import { cockpitSearchSchema, noCockpitFilters } from '../../features/cockpit/api/cockpit-keys';
import { graphQueryOptions } from '../../features/cockpit/api/cockpit-queries';
import { CockpitPage } from '../../features/cockpit/cockpit-page';
import { historyParams } from '../../features/cockpit/components/charging-history';
import { DEFAULT_CHART_SETTINGS, berlinToday, buildGraphParams, normalizeLocations } from '../../features/cockpit/graph-params';
import { locationDropdownQueryOptions } from '../../features/locations/api/location-queries';
import { loadQuery, queryClient } from '../../offline/query-runtime';
import { chargingHistoryQueryOptions } from '../../shared/charging-requests/charging-request-queries';
import { toListSearch } from '../../ui/list-search';

function CockpitRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CockpitPage history={{ search, onSearchChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/cockpit')({
  validateSearch: cockpitSearchSchema,
  // Defaults stay out of the URL: the plain /cockpit is the last 7 days, all statuses, page 1.
  search: { middlewares: [({ search, next }) => toListSearch(next(search), noCockpitFilters)] },
  loaderDeps: ({ search }) => search,
  // The KPIs and the chart with their default settings (they need the caller's locations first),
  // and the charging-request page the URL asks for.
  loader: async ({ deps }) => {
    const history = loadQuery(chargingHistoryQueryOptions(historyParams(deps)));
    const dropdown = locationDropdownQueryOptions();
    await loadQuery(dropdown);
    const available = (queryClient.getQueryData(dropdown.queryKey) ?? []).map((l) => l.locationId);
    const settings = { ...DEFAULT_CHART_SETTINGS, locations: normalizeLocations(DEFAULT_CHART_SETTINGS.locations, available) };
    await Promise.all([loadQuery(graphQueryOptions(buildGraphParams(settings, berlinToday()))), history]);
  },
  component: CockpitRoute,
});
