import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { billListParams } from '../../features/bills/api/bill-params';
import { billListQueryOptions } from '../../features/bills/api/bill-queries';
import { billListSearch } from '../../features/bills/api/bill-search';
import { BillListPage } from '../../features/bills/bill-list-page';
import { loadQuery } from '../../offline/query-runtime';

function BillListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <BillListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/rechnungen')({
  validateSearch: billListSearch,
  // Defaults stay out of the URL: the default range and no filter is plain /rechnungen.
  search: { middlewares: [stripSearchParams(billListSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(billListQueryOptions(billListParams(deps))),
  component: BillListRoute,
});
