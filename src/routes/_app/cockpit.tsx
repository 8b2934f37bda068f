import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { cockpitSearch } from '../../features/cockpit/api/cockpit-search';
import { graphQueryOptions } from '../../features/cockpit/api/cockpit-queries';
import { CockpitPage } from '../../features/cockpit/cockpit-page';
import { berlinToday, buildGraphParams, normalizeLocations } from '../../features/cockpit/graph-params';
import { historyParams } from '../../features/cockpit/history-search';
import { locationDropdownQueryOptions } from '../../features/locations/api/location-queries';
import { loadQuery, queryClient } from '../../offline/query-runtime';
import { chargingHistoryQueryOptions } from '../../shared/charging-requests/charging-request-queries';

function CockpitRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CockpitPage search={search} onSearchChange={(next) => void navigate({ search: next })} />;
}

export const Route = createFileRoute('/_app/cockpit')({
  validateSearch: cockpitSearch,
  // Defaults stay out of the URL: the plain /cockpit is the 7-day energy chart of every location
  // and the charging requests of the last 7 days, all statuses, page 1.
  search: { middlewares: [stripSearchParams(cockpitSearch.defaults)] },
  // The chart's settings are no loader deps: a new setting keeps the page on screen (the chart dims
  // its old bars until the new ones arrive) instead of holding the navigation for the loader.
  loaderDeps: ({ search: { range: _range, graphType: _graphType, locations: _locations, ...history } }) => history,
  // The KPIs and the chart of the URL's settings (they need the caller's locations first) and the
  // charging-request page the URL asks for.
  loader: async ({ deps, location }) => {
    const history = loadQuery(chargingHistoryQueryOptions(historyParams(deps)));
    // The location's search as parsed from the URL, read like the route reads it.
    const chart = cockpitSearch(location.search as Parameters<typeof cockpitSearch>[0]);
    const dropdown = locationDropdownQueryOptions();
    await loadQuery(dropdown);
    const available = (queryClient.getQueryData(dropdown.queryKey) ?? []).map((l) => l.locationId);
    const settings = { ...chart, locations: normalizeLocations(chart.locations, available) };
    await Promise.all([loadQuery(graphQueryOptions(buildGraphParams(settings, berlinToday()))), history]);
  },
  component: CockpitRoute,
});
