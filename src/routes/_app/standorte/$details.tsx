import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod';
import { LocationDetailPage } from '../../../features/locations/location-detail-page';

// A location id is an opaque string from the server; anything empty or absurdly long is not one.
const paramsSchema = z.object({ details: z.string().trim().min(1).max(100) });

function LocationDetailRoute() {
  const { details } = Route.useParams();
  // A new id is a new page: no edit dialog or state carries over from the previous location.
  return <LocationDetailPage key={details} locationId={details} />;
}

export const Route = createFileRoute('/_app/standorte/$details')({
  params: { parse: (raw) => paramsSchema.parse(raw), stringify: (p) => p },
  component: LocationDetailRoute,
});
