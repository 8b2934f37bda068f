import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { downloadSearch } from '../../features/downloads/api/download-search';
import { DownloadCenterPage } from '../../features/downloads/download-center-page';
import { locationDropdownQueryOptions } from '../../features/locations/api/location-queries';
import { loadQuery } from '../../offline/query-runtime';

function DownloadCenterRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // Each change of a field replaces the entry: the back button leaves the page, not one keystroke.
  return <DownloadCenterPage search={search} onChange={(next) => void navigate({ search: next, replace: true })} />;
}

export const Route = createFileRoute('/_app/downloadcenter')({
  validateSearch: downloadSearch,
  search: { middlewares: [stripSearchParams(downloadSearch.defaults)] },
  loader: () => loadQuery(locationDropdownQueryOptions()),
  component: DownloadCenterRoute,
});
