import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { pageSearch } from '../../../ui/list-search';
import { customerListQueryOptions } from '../../../features/customers/api/customer-queries';
import { CustomerListPage } from '../../../features/customers/customer-list-page';
import { loadQuery } from '../../../offline/query-runtime';

function CustomerListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CustomerListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/customers/')({
  validateSearch: pageSearch,
  search: { middlewares: [stripSearchParams(pageSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps, context }) => (context.session.isAdmin ? loadQuery(customerListQueryOptions(deps)) : undefined),
  component: CustomerListRoute,
});
