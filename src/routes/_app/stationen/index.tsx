import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { locationDropdownQueryOptions, wallboxTypesQueryOptions } from '../../../features/locations/api/location-queries';
import { stationListSearch } from '../../../features/stations/api/station-search';
import { stationListQueryOptions } from '../../../features/stations/api/station-queries';
import { StationListPage } from '../../../features/stations/station-list-page';
import { loadQuery } from '../../../offline/query-runtime';

function StationListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <StationListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/stationen/')({
  validateSearch: stationListSearch,
  // Defaults stay out of the URL: an unfiltered list is plain /path, a shared link stays short.
  search: { middlewares: [stripSearchParams(stationListSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) =>
    Promise.all([
      loadQuery(stationListQueryOptions(deps)),
      loadQuery(locationDropdownQueryOptions()),
      loadQuery(wallboxTypesQueryOptions()),
    ]),
  component: StationListRoute,
});
