import { createFileRoute } from '@tanstack/react-router';
import { graphQueryOptions } from '../../features/cockpit/api/cockpit-queries';
import { CockpitPage } from '../../features/cockpit/cockpit-page';
import { DEFAULT_CHART_SETTINGS, berlinToday, buildGraphParams, normalizeLocations } from '../../features/cockpit/graph-params';
import { locationDropdownQueryOptions } from '../../features/locations/api/location-queries';
import { loadQuery, queryClient } from '../../offline/query-runtime';

export const Route = createFileRoute('/_app/cockpit')({
  // The KPIs and the chart with their default settings, which need the caller's locations first.
  loader: async () => {
    const dropdown = locationDropdownQueryOptions();
    await loadQuery(dropdown);
    const available = (queryClient.getQueryData(dropdown.queryKey) ?? []).map((l) => l.locationId);
    const settings = { ...DEFAULT_CHART_SETTINGS, locations: normalizeLocations(DEFAULT_CHART_SETTINGS.locations, available) };
    await loadQuery(graphQueryOptions(buildGraphParams(settings, berlinToday())));
  },
  component: CockpitPage,
});
