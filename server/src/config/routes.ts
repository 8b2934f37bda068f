import type { RuntimeConfig } from '../../../contract/config';
import { defaultRuntimeConfig } from '../../../contract/config';
import type { Env } from '../env';
import { routeTable } from '../http/route-table';

export function runtimeConfig(env: Env): RuntimeConfig {
  return {
    services: defaultRuntimeConfig.services,
    csvSeparator: env.CSV_SEPARATOR,
    redoSepaIntervalMinutes: env.REDO_SEPA_INTERVAL_MINUTES,
    version: env.APP_VERSION,
    links: { imprint: env.IMPRINT_URL, privacy: env.PRIVACY_URL, contact: env.CONTACT_URL },
  };
}

/** The PWA reads its service bases and settings at start, so one build serves any deployment. */
export const configRoutes = routeTable('root', [
  {
    method: 'GET',
    path: '/config.json',
    access: 'public',
    handler: (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.json(runtimeConfig(c.get('env')));
    },
  },
]);
