import { createFileRoute } from '@tanstack/react-router';
import { keyParam, optionalText, searchChoice, searchParams } from '../../../ui/list-search';
import { userDetailQueryOptions } from '../../../features/users/api/user-queries';
import { UserDetailPage } from '../../../features/users/user-detail-page';
import { loadQuery } from '../../../offline/query-runtime';

/** `?edit=tariff&draft=…`: open the tariff change with what the user entered in that write (outbox 'Erneut bearbeiten'). */
const search = searchParams({ edit: searchChoice(['tariff']), draft: optionalText(100) });

function UserDetailRoute() {
  const { id } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // A new id is a new page: no dialog or state carries over from the previous user.
  return (
    <UserDetailPage
      key={id}
      contractKey={id}
      reopen={search.edit ? { edit: search.edit, draft: search.draft } : undefined}
      onReopened={() => void navigate({ search: {}, replace: true })}
    />
  );
}

export const Route = createFileRoute('/_app/nutzer/$id')({
  params: keyParam('id'),
  validateSearch: search,
  loader: ({ params }) => loadQuery(userDetailQueryOptions(params.id)),
  component: UserDetailRoute,
});
