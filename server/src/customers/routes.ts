import * as z from 'zod/mini';
import { pageQuerySchema } from '../../../contract/common';
import { createDashboardUserBodySchema, customerIdSchema, validateEmailBodySchema } from '../../../contract/customers';
import { findUserByEmail } from '../auth/queries';
import { foundOr404 } from '../auth/scope';
import { ok, paged } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { addDashboardUser, createCustomer } from './handlers';
import { customerDetail, findCustomerById, listCustomers, listDashboardUsers } from './queries';

const customerParams = z.object({ id: customerIdSchema });

/**
 * Customer management (spec 3 §7), platform admins only: operators and partners get 403. The
 * creation of a customer and of a further dashboard user share one call (`isNewCustomer`); the
 * resend of a customer's invitation is the contracts' `/send-invitation-email/{contractKey}`
 * (contracts/routes.ts), which serves both kinds of contract key.
 */
export const customerRoutes = [
  ...routeTable('bff', [
    {
      method: 'GET',
      path: '/cpos/get-all-customer',
      access: 'admin',
      handler: async (c) => {
        const { page, size } = parseQuery(c, pageQuerySchema);
        const { total, rows } = await listCustomers(c.get('db'), page, size);
        return paged(c, total, rows);
      },
    },
    {
      method: 'GET',
      path: '/cpos/get-customer/:id',
      access: 'admin',
      handler: async (c) => {
        const { id } = parseParams(c, customerParams);
        return ok(c, customerDetail(await foundOr404('customer', id, findCustomerById(c.get('db'), id))));
      },
    },
    {
      method: 'GET',
      path: '/cpos/get-dashboard-user/:id',
      access: 'admin',
      handler: async (c) => {
        const { id } = parseParams(c, customerParams);
        const { page, size } = parseQuery(c, pageQuerySchema);
        const customer = await foundOr404('customer', id, findCustomerById(c.get('db'), id));
        const { total, rows } = await listDashboardUsers(c.get('db'), customer.customerId, page, size);
        return paged(c, total, rows);
      },
    },
    // Whether a customer number or an e-mail is still free, for the create wizard's checks: a boolean
    // (true: free) in data.data, like the end-customer id check (spec 2 §7). A free number used to be
    // read from the detail's 404, which the browser logs as an error on the happy path.
    {
      method: 'POST',
      path: '/cpos/customer-id/:id/validate',
      access: 'admin',
      transaction: false,
      handler: async (c) => {
        const { id } = parseParams(c, customerParams);
        return ok(c, !(await findCustomerById(c.get('db'), id)));
      },
    },
    {
      method: 'POST',
      path: '/cpos/validate-email',
      access: 'admin',
      transaction: false,
      handler: async (c) => {
        const { email } = await parseBody(c, validateEmailBodySchema);
        return ok(c, !(await findUserByEmail(c.get('db'), email)));
      },
    },
    {
      method: 'POST',
      path: '/cpos/create-dashboard-user',
      access: 'admin',
      handler: async (c) => {
        const body = await parseBody(c, createDashboardUserBodySchema);
        const created = body.isNewCustomer
          ? await createCustomer(c.get('db'), c.get('env'), body)
          : await addDashboardUser(c.get('db'), c.get('env'), body);
        return ok(c, created);
      },
    },
  ]),
];
