import { createFileRoute } from '@tanstack/react-router';
import { noRfidFilters, rfidListSearchSchema } from '../../features/rfid/api/rfid-keys';
import { rfidListQueryOptions } from '../../features/rfid/api/rfid-queries';
import { RfidPage } from '../../features/rfid/rfid-page';
import { loadQuery } from '../../offline/query-runtime';
import { toListSearch } from '../../ui/list-search';

function RfidRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <RfidPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app/rfid')({
  validateSearch: rfidListSearchSchema,
  search: { middlewares: [({ search, next }) => toListSearch(next(search), noRfidFilters)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps, context }) => (context.session.isAdmin ? loadQuery(rfidListQueryOptions(deps)) : undefined),
  component: RfidRoute,
});
