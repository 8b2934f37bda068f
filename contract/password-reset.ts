import * as z from 'zod/mini';
import { isStrongPassword } from './auth';

/**
 * Completes the forgot-password flow (spec 1 §7 only names the request): the mailed link carries
 * `token`; the page posts it with the new password to the user service's `/reset-password`.
 */
export const resetPasswordRequestSchema = z.object({
  token: z.string().check(z.minLength(1, 'required'), z.maxLength(200)),
  newPassword: z.string().check(z.maxLength(255), z.refine(isStrongPassword, 'weakPassword')),
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** Lifetime of a reset link. */
export const PASSWORD_RESET_TTL_SECONDS = 3600;
