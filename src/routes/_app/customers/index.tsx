import { createFileRoute } from '@tanstack/react-router';
import { customerListSearchSchema, noCustomerFilters } from '../../../features/customers/api/customer-keys';
import { customerListQueryOptions } from '../../../features/customers/api/customer-queries';
import { CustomerListPage } from '../../../features/customers/customer-list-page';
import { loadQuery } from '../../../offline/query-runtime';
import { toListSearch } from '../../../ui/list-search';

function CustomerListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <CustomerListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/customers/')({
  validateSearch: customerListSearchSchema,
  search: { middlewares: [({ search, next }) => toListSearch(next(search), noCustomerFilters)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps, context }) => (context.session.isAdmin ? loadQuery(customerListQueryOptions(deps)) : undefined),
  component: CustomerListRoute,
});
