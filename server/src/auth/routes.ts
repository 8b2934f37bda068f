import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';

import {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  emailSchema,
  loginRequestSchema,
  refreshRequestSchema,
} from '../../../contract/auth';
import { PASSWORD_RESET_TTL_SECONDS, resetPasswordRequestSchema } from '../../../contract/password-reset';
import { isUniqueViolation } from '../db/pg-errors';
import { dashboardUsers, passwordResetTokens } from '../db/schema';
import { ApiError } from '../http/errors';
import { ok } from '../http/respond';
import { transactional } from '../http/transaction';
import { routeTable } from '../http/route-table';
import { parseBody, parseWith } from '../http/validate';
import { enqueueMail } from '../mail/outbox';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { loadAuthUser } from './scope';
import { issueTokenPair, opaqueToken, revokeUserTokens, rotateRefreshToken, sha256, verifyAccessTokenIgnoringExpiry } from './tokens';

const byEmail = (email: string) => eq(sql`lower(${dashboardUsers.email})`, email.trim().toLowerCase());

/** User service (spec 1 §7): sign-in, tokens, passwords, e-mail change. */
export const authRoutes = routeTable('userService', [
  {
    method: 'POST',
    path: '/login',
    access: 'public',
    handler: async (c) => {
      const body = await parseBody(c, loginRequestSchema);
      const db = c.var.db;
      const [row] = await db.select().from(dashboardUsers).where(byEmail(body.username));
      if (!row) {
        await burnPasswordCheck(body.password);
        throw new ApiError(401, 'UNAUTHORIZED', 'Invalid user credentials');
      }
      if (!(await verifyPassword(body.password, row.passwordHash))) {
        throw new ApiError(401, 'UNAUTHORIZED', 'Invalid user credentials');
      }
      if (!row.verified) throw new ApiError(401, 'USER_NOT_VERIFIED', 'Account is not verified');
      const user = await loadAuthUser(db, row.id);
      if (!user) throw new ApiError(401, 'UNAUTHORIZED', 'Invalid user credentials');
      return ok(c, await issueTokenPair(db, c.var.env, user));
    },
  },

  {
    method: 'POST',
    path: '/refresh-token',
    access: 'public',
    handler: async (c) => {
      const body = await parseBody(c, refreshRequestSchema);
      const db = c.var.db;
      const { sub } = await verifyAccessTokenIgnoringExpiry(c.var.env, body.currentAccessToken);
      const user = await loadAuthUser(db, sub);
      if (!user || !user.verified) throw new ApiError(401, 'TOKEN_INVALID', 'Unknown or inactive user');
      const result = await rotateRefreshToken(db, c.var.env, user, body.currentRefreshToken);
      if (!result.ok) {
        // The family revocation on reuse must survive the error answer.
        if (result.reason === 'reused') c.set('commitOnError', true);
        const code = result.reason === 'expired' ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID';
        throw new ApiError(401, code, `Refresh token ${result.reason}`);
      }
      return ok(c, result.pair);
    },
  },

  {
    method: 'GET',
    path: '/logout/:sub',
    access: 'user',
    before: [transactional],
    handler: async (c) => {
      const { user } = c.var.auth;
      if (c.req.param('sub') !== user.id) throw new ApiError(403, 'FORBIDDEN', 'Can only log out yourself');
      await revokeUserTokens(c.var.db, user.id);
      return ok(c, true);
    },
  },

  {
    method: 'GET',
    path: '/forget-password/:email',
    access: 'public',
    before: [transactional],
    handler: async (c) => {
      const email = parseWith(emailSchema, decodeURIComponent(c.req.param('email') ?? ''));
      const db = c.var.db;
      const env = c.var.env;
      const [row] = await db.select().from(dashboardUsers).where(byEmail(email));
      if (!row) throw new ApiError(404, 'USER_NOT_FOUND', 'No account with this e-mail');
      if (!row.verified) throw new ApiError(409, 'USER_NOT_VERIFIED', 'Account is not activated');
      const now = new Date();
      // A new request supersedes older links.
      await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, row.id), isNull(passwordResetTokens.usedAt)));
      const token = opaqueToken();
      await db.insert(passwordResetTokens).values({
        id: randomUUID(),
        userId: row.id,
        tokenHash: sha256(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000),
      });
      const link = `${env.PUBLIC_URL}/passwort-vergessen?token=${encodeURIComponent(token)}`;
      await enqueueMail(db, {
        to: row.email,
        from: env.MAIL_FROM,
        subject: 'CPO Cockpit: Passwort zurücksetzen',
        text: [
          `Hallo ${row.firstName} ${row.lastName},`,
          '',
          'wir haben eine Anfrage erhalten, das Passwort für Ihr CPO-Cockpit-Konto zurückzusetzen.',
          'Über den folgenden Link können Sie ein neues Passwort vergeben. Der Link ist eine Stunde gültig und nur einmal verwendbar:',
          '',
          link,
          '',
          'Falls Sie diese Anfrage nicht gestellt haben, können Sie diese E-Mail ignorieren; Ihr Passwort bleibt unverändert.',
          '',
          'Viele Grüße',
          'Ihr CPO-Cockpit-Team',
        ].join('\n'),
      });
      return ok(c, true);
    },
  },

  {
    method: 'POST',
    path: '/reset-password',
    access: 'public',
    handler: async (c) => {
      const body = await parseBody(c, resetPasswordRequestSchema);
      const db = c.var.db;
      const now = new Date();
      const [used] = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(
          and(
            eq(passwordResetTokens.tokenHash, sha256(body.token)),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, now),
          ),
        )
        .returning({ userId: passwordResetTokens.userId });
      if (!used) throw new ApiError(400, 'TOKEN_INVALID', 'Reset link is invalid, used or expired');
      await db
        .update(dashboardUsers)
        .set({ passwordHash: await hashPassword(body.newPassword), updatedAt: now })
        .where(eq(dashboardUsers.id, used.userId));
      // Whoever knew the old password loses their sessions.
      await revokeUserTokens(db, used.userId, undefined, now);
      return ok(c, true);
    },
  },

  {
    method: 'PUT',
    path: '/change-password',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, changePasswordRequestSchema);
      const { user, sessionFamilyId } = c.var.auth;
      if (body.username.toLowerCase() !== user.email.toLowerCase()) {
        throw new ApiError(403, 'FORBIDDEN', 'Can only change your own password');
      }
      const db = c.var.db;
      await db
        .update(dashboardUsers)
        .set({ passwordHash: await hashPassword(body.newPassword), updatedAt: new Date() })
        .where(eq(dashboardUsers.id, user.id));
      await revokeUserTokens(db, user.id, sessionFamilyId);
      return ok(c, true);
    },
  },

  {
    method: 'POST',
    path: '/cpos/dashboard-update-user-email',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, changeEmailRequestSchema);
      const { user } = c.var.auth;
      if (body.oldEmail.toLowerCase() !== user.email.toLowerCase()) {
        throw new ApiError(403, 'FORBIDDEN', 'Can only change your own e-mail');
      }
      const db = c.var.db;
      const [taken] = await db
        .select({ id: dashboardUsers.id })
        .from(dashboardUsers)
        .where(and(byEmail(body.newEmail), ne(dashboardUsers.id, user.id)));
      if (taken) throw new ApiError(409, 'DUPLICATED_EMAIL', 'E-mail already in use');
      try {
        await db.update(dashboardUsers).set({ email: body.newEmail, updatedAt: new Date() }).where(eq(dashboardUsers.id, user.id));
      } catch (err) {
        // Lost a race against another account taking the address: the unique index decides.
        if (isUniqueViolation(err)) throw new ApiError(409, 'DUPLICATED_EMAIL', 'E-mail already in use');
        throw err;
      }
      return ok(c, true);
    },
  },
]);
