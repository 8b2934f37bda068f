import { createFileRoute } from '@tanstack/react-router';
import { keyParam, optionalText, searchChoice, searchParams } from '../../../ui/list-search';
import { OperatorDetailPage } from '../../../features/operators/operator-detail-page';
import { OperatorActions, type OperatorReopen } from '../../../features/operators/operator-actions';
import { operatorDetailQueryOptions } from '../../../features/operators/api/operator-queries';
import type { OperatorEdit } from '../../../features/operators/api/operator-writes';
import { loadQuery } from '../../../offline/query-runtime';

/** `?edit=billing&draft=…`: open that edit with what the user entered in that write (outbox 'Erneut bearbeiten'). */
const search = searchParams({
  // Spelled out (type-checked against the area's edits): the route tree is in the first route's bundle.
  edit: searchChoice(['address', 'billing', 'erp'] satisfies OperatorEdit[]),
  draft: optionalText(100),
});

function OperatorDetailRoute() {
  const { details } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const reopen: OperatorReopen | undefined = search.edit ? { edit: search.edit, draft: search.draft } : undefined;
  // A new id is a new page: no dialog or state carries over from the previous operator.
  return (
    <OperatorDetailPage
      key={details}
      cpoId={details}
      renderActions={(operator) => (
        <OperatorActions operator={operator} reopen={reopen} onReopened={() => void navigate({ search: {}, replace: true })} />
      )}
    />
  );
}

export const Route = createFileRoute('/_app/betreiber/$details')({
  params: keyParam('details'),
  validateSearch: search,
  loader: ({ params }) => loadQuery(operatorDetailQueryOptions(params.details)),
  component: OperatorDetailRoute,
});
