import { regenerateBillsBodySchema } from '../../../contract/bills';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody } from '../http/validate';
import { regenerateBills } from './regenerate';

/** The bills area's calls on the booking service (spec 3 §7; issue 24). */
export const billRoutes = routeTable('bookingService', [
  // The bill run's: regenerate one GENERATED bill from today's data (admins).
  {
    method: 'POST',
    path: '/bookings/regenerate-bills',
    access: 'admin',
    handler: async (c) => {
      const body = await parseBody(c, regenerateBillsBodySchema);
      return ok(c, await regenerateBills(c.get('db'), body));
    },
  },
]);
