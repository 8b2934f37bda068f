import { createFileRoute } from '@tanstack/react-router';
import { keyParam } from '../../../ui/list-search';
import { customerDetailQueryOptions } from '../../../features/customers/api/customer-queries';
import { CustomerDetailPage } from '../../../features/customers/customer-detail-page';
import { adminOnly } from '../../../layout/admin-gate';
import { loadQuery } from '../../../offline/query-runtime';

function CustomerDetailRoute() {
  const { customerId } = Route.useParams();
  // A new id is a new page: no dialog or paging carries over from the previous customer.
  return <CustomerDetailPage key={customerId} customerId={customerId} />;
}

export const Route = createFileRoute('/_app/customers/$customerId')({
  params: keyParam('customerId'),
  beforeLoad: adminOnly('customers.detail.title'),
  loader: ({ params }) => loadQuery(customerDetailQueryOptions(params.customerId)),
  component: CustomerDetailRoute,
});
