import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { locationDropdownQueryOptions } from '../../../features/locations/api/location-queries';
import { userListSearch } from '../../../features/users/api/user-search';
import { userListQueryOptions } from '../../../features/users/api/user-queries';
import { UserListPage } from '../../../features/users/user-list-page';
import { loadQuery } from '../../../offline/query-runtime';

function UserListRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <UserListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/nutzer/')({
  validateSearch: userListSearch,
  // Defaults stay out of the URL: an unfiltered list is plain /nutzer, a shared link stays short.
  search: { middlewares: [stripSearchParams(userListSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => Promise.all([loadQuery(userListQueryOptions(deps)), loadQuery(locationDropdownQueryOptions())]),
  component: UserListRoute,
});
