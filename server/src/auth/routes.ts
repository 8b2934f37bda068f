import {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  emailSchema,
  loginRequestSchema,
  refreshRequestSchema,
} from '../../../contract/auth';
import { resetPasswordRequestSchema } from '../../../contract/password-reset';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import { clientAddress } from '../http/request';
import { parseBody, parseWith } from '../http/validate';
import { changeEmail, changePassword, refreshTokens, requestPasswordReset, resetPassword, signIn, signOut } from './handlers';

/** User service (spec 1 §7): sign-in, tokens, passwords, e-mail change. */
export const authRoutes = routeTable('userService', [
  {
    method: 'POST',
    path: '/login',
    access: 'public',
    transaction: false,
    handler: async (c) => ok(c, await signIn(c.get('db'), c.get('env'), await parseBody(c, loginRequestSchema), clientAddress(c))),
  },
  {
    method: 'POST',
    path: '/refresh-token',
    access: 'public',
    handler: async (c) => {
      const body = await parseBody(c, refreshRequestSchema);
      return ok(c, await refreshTokens(c.get('db'), c.get('env'), body, () => c.set('commitOnError', true)));
    },
  },
  {
    method: 'GET',
    path: '/logout/:sub',
    access: 'user',
    // A GET that writes (spec 1 §7): in a transaction like every write.
    transaction: true,
    handler: async (c) => {
      await signOut(c.get('db'), c.get('auth'), c.req.param('sub'));
      return ok(c, true);
    },
  },
  {
    method: 'GET',
    path: '/forget-password/:email',
    access: 'public',
    handler: async (c) => {
      // Hono hands the parameter over decoded already.
      await requestPasswordReset(c.get('db'), c.get('env'), parseWith(emailSchema, c.req.param('email') ?? ''), clientAddress(c));
      return ok(c, true);
    },
  },
  {
    method: 'POST',
    path: '/reset-password',
    access: 'public',
    transaction: false,
    handler: async (c) => {
      await resetPassword(c.get('db'), await parseBody(c, resetPasswordRequestSchema), clientAddress(c));
      return ok(c, true);
    },
  },
  {
    method: 'PUT',
    path: '/change-password',
    access: 'user',
    transaction: false,
    handler: async (c) => {
      await changePassword(c.get('db'), c.get('auth'), await parseBody(c, changePasswordRequestSchema), clientAddress(c));
      return ok(c, true);
    },
  },
  {
    method: 'POST',
    path: '/cpos/dashboard-update-user-email',
    access: 'user',
    handler: async (c) => {
      await changeEmail(c.get('db'), c.get('auth'), await parseBody(c, changeEmailRequestSchema));
      return ok(c, true);
    },
  },
]);
