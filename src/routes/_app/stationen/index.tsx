import { createFileRoute } from '@tanstack/react-router';
import { StationListPage } from '../../../features/stations/station-list-page';

export const Route = createFileRoute('/_app/stationen/')({ component: StationListPage });
