import { createFileRoute } from '@tanstack/react-router';
import { noOperatorFilters, operatorListSearchSchema } from '../../../features/operators/api/operator-keys';
import { operatorListQueryOptions } from '../../../features/operators/api/operator-queries';
import { OperatorListPage } from '../../../features/operators/operator-list-page';
import { loadQuery } from '../../../offline/query-runtime';
import { toListSearch } from '../../../ui/list-search';

function OperatorListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <OperatorListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/betreiber/')({
  validateSearch: operatorListSearchSchema,
  // Defaults stay out of the URL: the first page at the default size is plain /betreiber.
  search: { middlewares: [({ search, next }) => toListSearch(next(search), noOperatorFilters)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(operatorListQueryOptions(deps)),
  component: OperatorListRoute,
});
