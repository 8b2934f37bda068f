import { createFileRoute } from '@tanstack/react-router';
import { locationListSearchSchema, noLocationFilters } from '../../../features/locations/api/location-keys';
import { locationListQueryOptions } from '../../../features/locations/api/location-queries';
import { LocationListPage } from '../../../features/locations/location-list-page';
import { loadQuery } from '../../../offline/query-runtime';
import { toListSearch } from '../../../ui/list-search';

function LocationListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <LocationListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/standorte/')({
  validateSearch: locationListSearchSchema,
  // Defaults stay out of the URL: an unfiltered list is plain /path, a shared link stays short.
  search: { middlewares: [({ search, next }) => toListSearch(next(search), noLocationFilters)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(locationListQueryOptions(deps)),
  component: LocationListRoute,
});
