import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod';
import { StationDetailPage } from '../../../features/stations/station-detail-page';
import { StationActions } from '../../../features/stations/station-actions';
import { stationDetailQueryOptions } from '../../../features/stations/api/station-queries';
import { loadQuery } from '../../../offline/query-runtime';

// A connector id is an opaque string from the server; anything empty or absurdly long is not one.
const paramsSchema = z.object({ stationId: z.string().trim().min(1).max(100) });

function StationDetailRoute() {
  const { stationId } = Route.useParams();
  // A new id is a new page: no filter or paging state carries over from the previous station.
  return <StationDetailPage key={stationId} connectorId={stationId} renderActions={(station) => <StationActions station={station} />} />;
}

export const Route = createFileRoute('/_app/stationen/$stationId')({
  params: { parse: (raw) => paramsSchema.parse(raw), stringify: (p) => p },
  // The history below loads with its own date range once the page shows.
  loader: ({ params }) => loadQuery(stationDetailQueryOptions(params.stationId)),
  component: StationDetailRoute,
});
