import type { z } from 'zod';
import type {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  loginRequestSchema,
  refreshRequestSchema,
} from '../../../contract/auth';
import { PASSWORD_RESET_TTL_SECONDS, type resetPasswordRequestSchema } from '../../../contract/password-reset';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/pg-errors';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { enqueueMail } from '../mail/outbox';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import { consumeResetToken, emailTaken, findUserByEmail, replaceResetToken, setEmail, setPasswordHash } from './queries';
import { loadAuthUser, type AuthContext } from './scope';
import { issueTokenPair, opaqueToken, revokeUserTokens, rotateRefreshToken, sha256, verifyAccessTokenIgnoringExpiry } from './tokens';

/** The rules of the user service (spec 1 §4/§5/§7) and the errors that say why not. */

const invalidCredentials = () => new ApiError(401, 'UNAUTHORIZED', 'Invalid user credentials');

export async function signIn(db: Db, env: Env, body: z.output<typeof loginRequestSchema>) {
  const row = await findUserByEmail(db, body.username);
  if (!row) {
    // As long as a real check, so the answer time does not tell which accounts exist.
    await burnPasswordCheck(body.password);
    throw invalidCredentials();
  }
  if (!(await verifyPassword(body.password, row.passwordHash))) throw invalidCredentials();
  if (!row.verified) throw new ApiError(401, 'USER_NOT_VERIFIED', 'Account is not verified');
  const user = await loadAuthUser(db, row.id);
  if (!user) throw invalidCredentials();
  return issueTokenPair(db, env, user);
}

/**
 * A new token pair for the current one. `onReuse` runs when a spent refresh token comes back: the
 * family is revoked, and that revocation must survive the error answer.
 */
export async function refreshTokens(db: Db, env: Env, body: z.output<typeof refreshRequestSchema>, onReuse: () => void) {
  const { sub } = await verifyAccessTokenIgnoringExpiry(env, body.currentAccessToken);
  const user = await loadAuthUser(db, sub);
  if (!user || !user.verified) throw new ApiError(401, 'TOKEN_INVALID', 'Unknown or inactive user');
  const result = await rotateRefreshToken(db, env, user, body.currentRefreshToken);
  if (!result.ok) {
    if (result.reason === 'reused') onReuse();
    throw new ApiError(401, result.reason === 'expired' ? 'TOKEN_EXPIRED' : 'TOKEN_INVALID', `Refresh token ${result.reason}`);
  }
  return result.pair;
}

export async function signOut(db: Db, auth: AuthContext, sub: string | undefined) {
  if (sub !== auth.user.id) throw new ApiError(403, 'FORBIDDEN', 'Can only log out yourself');
  await revokeUserTokens(db, auth.user.id);
}

/** Mails a one-hour, one-time reset link; a new request supersedes older links. */
export async function requestPasswordReset(db: Db, env: Env, email: string) {
  const row = await findUserByEmail(db, email);
  if (!row) throw new ApiError(404, 'USER_NOT_FOUND', 'No account with this e-mail');
  if (!row.verified) throw new ApiError(409, 'USER_NOT_VERIFIED', 'Account is not activated');
  const now = new Date();
  const token = opaqueToken();
  await replaceResetToken(db, row.id, sha256(token), now, new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000));
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
}

export async function resetPassword(db: Db, body: z.output<typeof resetPasswordRequestSchema>) {
  const now = new Date();
  const userId = await consumeResetToken(db, sha256(body.token), now);
  if (!userId) throw new ApiError(400, 'TOKEN_INVALID', 'Reset link is invalid, used or expired');
  await setPasswordHash(db, userId, await hashPassword(body.newPassword), now);
  // Whoever knew the old password loses their sessions.
  await revokeUserTokens(db, userId, undefined, now);
}

export async function changePassword(db: Db, auth: AuthContext, body: z.output<typeof changePasswordRequestSchema>) {
  if (body.username.toLowerCase() !== auth.user.email.toLowerCase())
    throw new ApiError(403, 'FORBIDDEN', 'Can only change your own password');
  await setPasswordHash(db, auth.user.id, await hashPassword(body.newPassword));
  // Other sessions end; this one goes on.
  await revokeUserTokens(db, auth.user.id, auth.sessionFamilyId);
}

export async function changeEmail(db: Db, auth: AuthContext, body: z.output<typeof changeEmailRequestSchema>) {
  if (body.oldEmail.toLowerCase() !== auth.user.email.toLowerCase())
    throw new ApiError(403, 'FORBIDDEN', 'Can only change your own e-mail');
  const duplicate = () => new ApiError(409, 'DUPLICATED_EMAIL', 'E-mail already in use');
  if (await emailTaken(db, body.newEmail, auth.user.id)) throw duplicate();
  try {
    await setEmail(db, auth.user.id, body.newEmail);
  } catch (err) {
    // Lost a race against another account taking the address: the unique index decides.
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}
