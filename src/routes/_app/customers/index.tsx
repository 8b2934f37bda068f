import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { pageSearch } from '../../../ui/list-search';
import { customerListQueryOptions } from '../../../features/customers/api/customer-queries';
import { CustomerListPage } from '../../../features/customers/customer-list-page';
import { adminOnly } from '../../../layout/admin-gate';
import { loadQuery } from '../../../offline/query-runtime';

function CustomerListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CustomerListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/customers/')({
  validateSearch: pageSearch,
  search: { middlewares: [stripSearchParams(pageSearch.defaults)] },
  beforeLoad: adminOnly('customers.list.title'),
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(customerListQueryOptions(deps)),
  component: CustomerListRoute,
});
