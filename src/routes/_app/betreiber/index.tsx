import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { pageSearch } from '../../../ui/list-search';
import { operatorListQueryOptions } from '../../../features/operators/api/operator-queries';
import { OperatorListPage } from '../../../features/operators/operator-list-page';
import { loadQuery } from '../../../offline/query-runtime';

function OperatorListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <OperatorListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/betreiber/')({
  validateSearch: pageSearch,
  // Defaults stay out of the URL: the first page at the default size is plain /betreiber.
  search: { middlewares: [stripSearchParams(pageSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(operatorListQueryOptions(deps)),
  component: OperatorListRoute,
});
