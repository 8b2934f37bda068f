import { createFileRoute } from '@tanstack/react-router';
import { CockpitPage } from '../../features/cockpit/cockpit-page';

export const Route = createFileRoute('/_app/cockpit')({ component: CockpitPage });
