import { createFileRoute } from '@tanstack/react-router';
import { keyParam, optionalText, searchChoice, searchParams } from '../../../ui/list-search';
import { StationDetailPage } from '../../../features/stations/station-detail-page';
import type { SettableConnectorStatus } from '../../../../contract/enums';
import { StationActions, type StationReopen } from '../../../features/stations/station-actions';
import { stationDetailQueryOptions } from '../../../features/stations/api/station-queries';
import { loadQuery } from '../../../offline/query-runtime';

/** `?edit=parking-lot&lot=P12` or `?edit=availability&status=IDLE`: open that form with the value (outbox 'Erneut bearbeiten'). */
const search = searchParams({
  edit: searchChoice(['parking-lot', 'availability']),
  lot: optionalText(20),
  // Spelled out (type-checked against the contract): the route tree is in the first route's bundle.
  status: searchChoice(['IDLE', 'CONNECTED_UNAVAILABLE'] satisfies SettableConnectorStatus[]),
});

function StationDetailRoute() {
  const { stationId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const reopen: StationReopen | undefined =
    search.edit === 'parking-lot'
      ? { edit: 'parking-lot', lot: search.lot }
      : search.edit === 'availability'
        ? { edit: 'availability', status: search.status }
        : undefined;
  // A new id is a new page: no filter or paging state carries over from the previous station.
  return (
    <StationDetailPage
      key={stationId}
      connectorId={stationId}
      renderActions={(station) => (
        <StationActions station={station} reopen={reopen} onReopened={() => void navigate({ search: {}, replace: true })} />
      )}
    />
  );
}

export const Route = createFileRoute('/_app/stationen/$stationId')({
  params: keyParam('stationId'),
  validateSearch: search,
  // The history below loads with its own date range once the page shows.
  loader: ({ params }) => loadQuery(stationDetailQueryOptions(params.stationId)),
  component: StationDetailRoute,
});
