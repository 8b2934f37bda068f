import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { locationListSearch } from '../../../features/locations/api/location-search';
import { locationListQueryOptions } from '../../../features/locations/api/location-queries';
import { LocationListPage } from '../../../features/locations/location-list-page';
import { loadQuery } from '../../../offline/query-runtime';

function LocationListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <LocationListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/standorte/')({
  validateSearch: locationListSearch,
  // Defaults stay out of the URL: an unfiltered list is plain /path, a shared link stays short.
  search: { middlewares: [stripSearchParams(locationListSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(locationListQueryOptions(deps)),
  component: LocationListRoute,
});
