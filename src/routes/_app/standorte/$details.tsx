import { createFileRoute } from '@tanstack/react-router';
import { keyParam } from '../../../ui/list-search';
import { Suspense, lazy } from 'react';
import { LocationDetailPage } from '../../../features/locations/location-detail-page';
import { StationsTable } from '../../../features/stations/stations-table';
import { useT } from '../../../i18n/i18n-context';
import { locationDetailQueryOptions } from '../../../features/locations/api/location-queries';
import { loadQuery } from '../../../offline/query-runtime';

// The users table loads with its tab, the wizard only when someone opens it.
const UsersTable = lazy(() => import('../../../features/users/users-table').then((m) => ({ default: m.UsersTable })));
const CreateStationsWizard = lazy(() =>
  import('../../../features/stations/create-stations-wizard').then((m) => ({ default: m.CreateStationsWizard })),
);

function LocationDetailRoute() {
  const t = useT();
  const { details } = Route.useParams();
  // A new id is a new page: no edit dialog or state carries over from the previous location.
  // The stations area provides the location's stations table and the creation wizard, the users
  // area the users table (the one of /nutzer, restricted to this location).
  return (
    <LocationDetailPage
      key={details}
      locationId={details}
      renderStations={(location) => <StationsTable locationId={location.locationId} heading={t('locations.detail.stationsHeading')} />}
      renderUsers={(location) => <UsersTable locationId={location.locationId} heading={t('locations.detail.usersHeading')} />}
      renderCreateStations={({ location, isOpen, onClose }) => (
        <Suspense fallback={null}>
          <CreateStationsWizard
            isOpen={isOpen}
            onClose={onClose}
            fixedLocation={{ locationId: location.locationId, locationName: location.locationName }}
          />
        </Suspense>
      )}
    />
  );
}

export const Route = createFileRoute('/_app/standorte/$details')({
  params: keyParam('details'),
  loader: ({ params }) => loadQuery(locationDetailQueryOptions(params.details)),
  component: LocationDetailRoute,
});
