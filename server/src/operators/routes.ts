import * as z from 'zod/mini';
import { pageQuerySchema } from '../../../contract/common';
import { createOperatorBodySchema, updateErpBodySchema, updateOperatorBodySchema } from '../../../contract/operators';
import { etagFor } from '../../../contract/stations';
import { ok, paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { expectedVersion } from '../http/versions';
import { getOperatorDetail, listOperators } from './queries';
import { routeTable } from '../http/route-table';
import { operatorNotFound } from '../locations/handlers';
import { createOperator, updateErpInformation, updateOperator } from './handlers';

const idParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });

/**
 * Operator routes (spec 1 §7, spec 3 §7): reads, creation and the two updates on the BFF, the ERP
 * values on the booking service. Who may create is a rule of the handler (Operator-type accounts
 * may not), the rest is the caller's scope.
 */
export const operatorRoutes = [
  ...routeTable('bff', [
    {
      method: 'GET',
      path: '/cpos',
      access: 'user',
      handler: async (c) => {
        const { page, size } = parseQuery(c, pageQuerySchema);
        const { total, rows } = await listOperators(c.get('db'), c.get('auth').scope, page, size);
        return paged(c, total, rows);
      },
    },

    {
      method: 'POST',
      path: '/cpos/create-operator',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, createOperatorBodySchema);
        const created = await createOperator(c.get('db'), c.get('auth'), body);
        c.header('ETag', etagFor(created.version));
        return ok(c, created);
      },
    },

    {
      method: 'PUT',
      path: '/cpos/update-operator-information',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, updateOperatorBodySchema);
        const version = body.version ?? expectedVersion(c.req.header('if-match'));
        const updated = await updateOperator(c.get('db'), c.get('auth').scope, body, version);
        c.header('ETag', etagFor(updated.version));
        return ok(c, updated);
      },
    },

    {
      method: 'GET',
      path: '/cpos/:id/operator-details',
      access: 'user',
      handler: async (c) => {
        const { id } = parseParams(c, idParams);
        const detail = await getOperatorDetail(c.get('db'), c.get('auth').scope, id);
        if (!detail) throw operatorNotFound(id);
        if (detail.version !== undefined) c.header('ETag', etagFor(detail.version));
        return ok(c, detail);
      },
    },
  ]),

  ...routeTable('bookingService', [
    {
      method: 'PUT',
      path: '/bookings/update-erp-information',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, updateErpBodySchema);
        const version = body.version ?? expectedVersion(c.req.header('if-match'));
        const updated = await updateErpInformation(c.get('db'), c.get('auth').scope, body, version);
        c.header('ETag', etagFor(updated.version));
        return ok(c, updated);
      },
    },
  ]),
];
