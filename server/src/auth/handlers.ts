import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod/mini';
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
import { checkThrottles, clearThrottle, countHits, hitThrottle, type ThrottleRule } from '../http/throttle';
import { enqueueMail } from '../db/mail-outbox';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords';
import {
  activateAccount,
  consumeResetToken,
  emailTaken,
  findPasswordHash,
  findUserByEmail,
  replaceResetToken,
  setEmail,
  setPasswordHash,
} from './queries';
import { loadAuthUser, type AuthContext } from './scope';
import { sha256 } from '../db/stored-hash';
import { issueTokenPair, opaqueToken, revokeUserTokens, rotateRefreshToken, verifyAccessTokenIgnoringExpiry } from './tokens';

/** The rules of the user service (spec 1 §4/§5/§7) and the errors that say why not. */

const invalidCredentials = () => new ApiError(401, 'UNAUTHORIZED', 'Invalid user credentials');

const minute = 60;
const hour = 3600;
/**
 * The limits of the anonymous calls (429 TOO_MANY_REQUESTS with Retry-After, each further block
 * twice as long): wrong passwords per account and address pair, and more loosely per address (an
 * office shares one); reset mails per address and per e-mail; wrong reset links per address. Wrong
 * passwords per account never refuse: a block per account would let anyone lock its owner out, so
 * they slow the wrong answers down instead (`loginAccountDelay`).
 */
export const authLimits = {
  loginPair: { limit: 5, windowSeconds: minute, blockSeconds: minute, maxBlockSeconds: hour },
  loginAddress: { limit: 20, windowSeconds: minute, blockSeconds: minute, maxBlockSeconds: hour },
  resetMailAccount: { limit: 3, windowSeconds: 15 * minute, blockSeconds: 15 * minute, maxBlockSeconds: 6 * hour },
  resetMailAddress: { limit: 10, windowSeconds: 15 * minute, blockSeconds: 15 * minute, maxBlockSeconds: 6 * hour },
  resetLinkAddress: { limit: 10, windowSeconds: 15 * minute, blockSeconds: 15 * minute, maxBlockSeconds: 6 * hour },
} satisfies Record<string, ThrottleRule>;

const accountKey = (kind: string, email: string) => `${kind}-account:${email.trim().toLowerCase()}`;
const addressKey = (kind: string, address: string) => `${kind}-address:${address}`;
const pairKey = (kind: string, email: string, address: string) => `${kind}-pair:${email.trim().toLowerCase()}|${address}`;

/**
 * The wait before a wrong password's answer, from the account's wrong passwords of the last 15
 * minutes, from every address: none for the first 5, then 0.5 s more for each, at most 5 s. A
 * guesser spread over many addresses gets each answer late; the owner's right password is
 * answered at once.
 */
export const loginAccountDelay = { windowSeconds: 15 * minute, free: 5, stepMs: 500, maxMs: 5000 };
export const accountDelayMs = (failures: number) =>
  Math.min(loginAccountDelay.maxMs, Math.max(0, failures - loginAccountDelay.free) * loginAccountDelay.stepMs);

/** A wrong password, at sign-in or as a password change's current one: the pair's, the address's and the account's counts, and the account's delay. */
async function countWrongPassword(db: Db, email: string, address: string) {
  await hitThrottle(db, pairKey('login', email, address), authLimits.loginPair);
  await hitThrottle(db, addressKey('login', address), authLimits.loginAddress);
  const failures = await countHits(db, accountKey('login', email), loginAccountDelay.windowSeconds);
  await sleep(accountDelayMs(failures));
}

/**
 * Sign-in, without a transaction: the password is checked (scrypt, tens of milliseconds) while no
 * lock is held; the failure counters are written whatever the answer.
 */
export async function signIn(db: Db, env: Env, body: z.output<typeof loginRequestSchema>, address: string) {
  const pair = pairKey('login', body.username, address);
  const from = addressKey('login', address);
  await checkThrottles(db, [pair, from]);
  const failed = async () => {
    await countWrongPassword(db, body.username, address);
    return invalidCredentials();
  };
  const row = await findUserByEmail(db, body.username);
  if (!row) {
    // As long as a real check, so the answer time does not tell which accounts exist.
    await burnPasswordCheck(body.password);
    throw await failed();
  }
  if (!(await verifyPassword(body.password, row.passwordHash))) throw await failed();
  if (!row.verified) throw new ApiError(401, 'USER_NOT_VERIFIED', 'Account is not verified');
  const user = await loadAuthUser(db, row.id);
  if (!user) throw invalidCredentials();
  await clearThrottle(db, pair);
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

/**
 * Mails a one-hour, one-time reset link; a new request supersedes older links. Every request counts
 * against the limits of its address and of the e-mail asked for, known or not.
 */
export async function requestPasswordReset(db: Db, env: Env, email: string, address: string) {
  const account = accountKey('reset-mail', email);
  const from = addressKey('reset-mail', address);
  await checkThrottles(db, [account, from]);
  await hitThrottle(db, account, authLimits.resetMailAccount);
  await hitThrottle(db, from, authLimits.resetMailAddress);
  const row = await findUserByEmail(db, email);
  if (!row) throw new ApiError(404, 'USER_NOT_FOUND', 'No account with this e-mail');
  if (!row.verified) throw new ApiError(409, 'USER_NOT_VERIFIED', 'Account is not activated');
  const now = new Date();
  const token = opaqueToken();
  await db.transaction(async (tx) => {
    await replaceResetToken(tx, row.id, sha256(token), now, new Date(now.getTime() + PASSWORD_RESET_TTL_SECONDS * 1000));
    await enqueueMail(tx, resetMail(env, row, token));
  });
}

function resetMail(env: Env, row: { email: string; firstName: string; lastName: string }, token: string) {
  const link = `${env.PUBLIC_URL}/passwort-vergessen?token=${encodeURIComponent(token)}`;
  return {
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
  };
}

/** The new password is hashed before the transaction opens; wrong links count against the address. */
export async function resetPassword(db: Db, body: z.output<typeof resetPasswordRequestSchema>, address: string) {
  const from = addressKey('reset-link', address);
  await checkThrottles(db, [from]);
  const passwordHash = await hashPassword(body.newPassword);
  const now = new Date();
  const done = await db.transaction(async (tx) => {
    const userId = await consumeResetToken(tx, sha256(body.token), now);
    if (!userId) return false;
    await setPasswordHash(tx, userId, passwordHash, now);
    // An invitation link (customers/handlers.ts) is a reset link of an account not yet activated.
    await activateAccount(tx, userId, now);
    // Whoever knew the old password loses their sessions, and their access tokens stop at once.
    await revokeUserTokens(tx, userId, undefined, now);
    return true;
  });
  if (!done) {
    await hitThrottle(db, from, authLimits.resetLinkAddress);
    throw new ApiError(400, 'TOKEN_INVALID', 'Reset link is invalid, used or expired');
  }
}

/** Only with the current password: an access token alone (stolen, or a device left signed in) does not take the account over. */
export async function changePassword(db: Db, auth: AuthContext, body: z.output<typeof changePasswordRequestSchema>, address: string) {
  if (body.username.toLowerCase() !== auth.user.email.toLowerCase())
    throw new ApiError(403, 'FORBIDDEN', 'Can only change your own password');
  await checkThrottles(db, [pairKey('login', auth.user.email, address), addressKey('login', address)]);
  const stored = await findPasswordHash(db, auth.user.id);
  if (!stored || !(await verifyPassword(body.currentPassword, stored))) {
    await countWrongPassword(db, auth.user.email, address);
    throw new ApiError(403, 'WRONG_CURRENT_PASSWORD', 'The current password is wrong');
  }
  const passwordHash = await hashPassword(body.newPassword);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, auth.user.id, passwordHash);
    // Other sessions end (their access tokens too, at once); this one goes on.
    await revokeUserTokens(tx, auth.user.id, auth.sessionFamilyId);
  });
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
