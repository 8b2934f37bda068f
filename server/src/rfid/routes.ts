import { pageQuerySchema } from '../../../contract/common';
import { saveRfidBodySchema } from '../../../contract/rfid';
import { ok, paged } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody, parseQuery } from '../http/validate';
import { saveRfidTags } from './handlers';
import { listRfidTags } from './queries';

/** RFID card management (spec 2 §7), platform admins only, on the contract management service. */
export const rfidRoutes = routeTable('contractManagement', [
  {
    method: 'GET',
    path: '/auth/get-rfid-tags',
    access: 'admin',
    handler: async (c) => {
      const { page, size } = parseQuery(c, pageQuerySchema);
      const { total, rows } = await listRfidTags(c.get('db'), page, size);
      return paged(c, total, rows);
    },
  },
  {
    method: 'POST',
    path: '/auth/save-rfid-tags',
    access: 'admin',
    handler: async (c) => ok(c, { saved: await saveRfidTags(c.get('db'), await parseBody(c, saveRfidBodySchema)) }),
  },
]);
