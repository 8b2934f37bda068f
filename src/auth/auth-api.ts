import { answerCheck, unknown } from '../api/answer-check';
import { apiRequest } from '../api/client';
import { ORIGIN_DASHBOARD } from './token-answers';
import { clearTokens, forgetDurableTokens } from './token-store';

const ok = answerCheck(unknown);

/**
 * Revokes the refresh tokens on the server, then forgets the session on this device: the durable
 * copy first (awaited), so a tab closed right after 'Abmelden' cannot bring the session back on
 * its next start. The local sign-out happens even when the server call fails (offline).
 */
export async function logout(sub: string | undefined): Promise<void> {
  try {
    if (sub) await apiRequest({ service: 'userService', path: `/logout/${encodeURIComponent(sub)}`, schema: ok });
  } catch {
    // Offline or the token already expired: the tokens are dropped locally all the same.
  } finally {
    await forgetDurableTokens();
    clearTokens('logout');
  }
}

export const requestPasswordReset = (email: string) =>
  apiRequest({ service: 'userService', path: `/forget-password/${encodeURIComponent(email.trim())}`, auth: false, schema: ok });

export const resetPassword = (token: string, newPassword: string) =>
  apiRequest({ service: 'userService', path: '/reset-password', method: 'POST', auth: false, body: { token, newPassword }, schema: ok });

export const changePassword = (username: string, currentPassword: string, newPassword: string) =>
  apiRequest({
    service: 'userService',
    path: '/change-password',
    method: 'PUT',
    body: { username, currentPassword, newPassword, origin: ORIGIN_DASHBOARD },
    schema: ok,
  });

export const changeEmail = (oldEmail: string, newEmail: string) =>
  apiRequest({
    service: 'userService',
    path: '/cpos/dashboard-update-user-email',
    method: 'POST',
    body: { oldEmail, newEmail: newEmail.trim(), origin: ORIGIN_DASHBOARD },
    schema: ok,
  });
