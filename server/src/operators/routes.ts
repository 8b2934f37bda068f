import * as z from 'zod/mini';
import { pageQuerySchema } from '../../../contract/common';
import { createOperatorBodySchema, updateErpBodySchema, updateOperatorBodySchema } from '../../../contract/operator-writes';
import { paged } from '../http/respond';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { okWithVersion, versionToCheck } from '../http/versions';
import { getOperatorDetail, listOperators } from './queries';
import { routeTable } from '../http/route-table';
import { foundOr404 } from '../auth/scope';
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
        return okWithVersion(c, created, created.version);
      },
    },

    {
      method: 'PUT',
      path: '/cpos/update-operator-information',
      access: 'user',
      handler: async (c) => {
        const body = await parseBody(c, updateOperatorBodySchema);
        const updated = await updateOperator(c.get('db'), c.get('auth').scope, body, versionToCheck(c, body));
        return okWithVersion(c, updated, updated.version);
      },
    },

    {
      method: 'GET',
      path: '/cpos/:id/operator-details',
      access: 'user',
      handler: async (c) => {
        const { id } = parseParams(c, idParams);
        const detail = await foundOr404('operator', id, getOperatorDetail(c.get('db'), c.get('auth').scope, id));
        return okWithVersion(c, detail, detail.version);
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
        const updated = await updateErpInformation(c.get('db'), c.get('auth').scope, body, versionToCheck(c, body));
        return okWithVersion(c, updated, updated.version);
      },
    },
  ]),
];
