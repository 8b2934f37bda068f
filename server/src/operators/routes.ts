import * as z from 'zod/mini';
import { pageQuerySchema } from '../../../contract/common';
import { ok, paged } from '../http/respond';
import { parseParams, parseQuery } from '../http/validate';
import { getOperatorDetail, listOperators } from './queries';
import { routeTable } from '../http/route-table';
import { operatorNotFound } from '../locations/handlers';

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });

/** BFF operator reads (spec 1 §7, spec 3 §7). */
export const operatorRoutes = routeTable('bff', [
  {
    method: 'GET',
    path: '/cpos',
    access: 'user',
    handler: async (c) => {
      const { page, size } = parseQuery(c, pageQuerySchema);
      const { total, rows } = await listOperators(c.var.db, c.var.auth.scope, page, size);
      return paged(c, total, rows);
    },
  },

  {
    method: 'GET',
    path: '/cpos/:id/operator-details',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, idParams);
      const detail = await getOperatorDetail(c.var.db, c.var.auth.scope, id);
      if (!detail) throw operatorNotFound(id);
      return ok(c, detail);
    },
  },
]);
