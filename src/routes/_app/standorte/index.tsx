import { createFileRoute } from '@tanstack/react-router';
import { LocationListPage } from '../../../features/locations/location-list-page';

export const Route = createFileRoute('/_app/standorte/')({ component: LocationListPage });
