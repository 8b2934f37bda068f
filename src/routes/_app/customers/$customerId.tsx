import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { customerDetailQueryOptions } from '../../../features/customers/api/customer-queries';
import { CustomerDetailPage } from '../../../features/customers/customer-detail-page';
import { loadQuery } from '../../../offline/query-runtime';

const paramsSchema = z.object({ customerId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

function CustomerDetailRoute() {
  const { customerId } = Route.useParams();
  // A new id is a new page: no dialog or paging carries over from the previous customer.
  return <CustomerDetailPage key={customerId} customerId={customerId} />;
}

export const Route = createFileRoute('/_app/customers/$customerId')({
  params: { parse: (raw) => paramsSchema.parse(raw), stringify: (p) => p },
  loader: ({ params, context }) => (context.session.isAdmin ? loadQuery(customerDetailQueryOptions(params.customerId)) : undefined),
  component: CustomerDetailRoute,
});
