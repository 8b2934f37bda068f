import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { pageSearch } from '../../ui/list-search';
import { rfidListQueryOptions } from '../../features/rfid/api/rfid-queries';
import { RfidPage } from '../../features/rfid/rfid-page';
import { adminOnly } from '../../layout/admin-gate';
import { loadQuery } from '../../offline/query-runtime';

function RfidRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <RfidPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/rfid')({
  validateSearch: pageSearch,
  search: { middlewares: [stripSearchParams(pageSearch.defaults)] },
  beforeLoad: adminOnly('rfid.title'),
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(rfidListQueryOptions(deps)),
  component: RfidRoute,
});
