import * as z from 'zod/mini';
import { customerTypeSchema } from './common';

/** Spec 1 §5: e-mail required, max 255, e-mail pattern. Shared by client forms and server. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const emailSchema = z
  .string()
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(255, 'max255'), z.regex(EMAIL_PATTERN, 'email'));

/** Spec 1 §5: at least 10 characters with a digit, a lowercase and an uppercase letter. */
export const PASSWORD_MIN = 10;
export const isStrongPassword = (p: string) => p.length >= PASSWORD_MIN && /\d/.test(p) && /[a-z]/.test(p) && /[A-Z]/.test(p);

export const loginRequestSchema = z.object({
  username: emailSchema,
  password: z.string().check(z.minLength(1, 'required'), z.maxLength(255, 'max255')),
  origin: z._default(z.literal('dashboard'), 'dashboard'),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const tokenPairSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number(),
  refresh_expires_in: z.number(),
  token_type: z.literal('Bearer'),
});
export type TokenPair = z.infer<typeof tokenPairSchema>;

export const refreshRequestSchema = z.object({
  currentAccessToken: z.string().check(z.minLength(1)),
  currentRefreshToken: z.string().check(z.minLength(1)),
  origin: z._default(z.literal('dashboard'), 'dashboard'),
});

/**
 * `PUT /change-password`. The spec's payload has no `currentPassword`; it is added here because
 * without it a stolen access token takes the account over. A wrong one answers 403
 * WRONG_CURRENT_PASSWORD and counts like a wrong sign-in (its limits, 429 when exhausted).
 */
export const changePasswordRequestSchema = z.object({
  username: emailSchema,
  currentPassword: z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : undefined) })
    .check(z.minLength(1, 'required'), z.maxLength(255, 'max255')),
  newPassword: z.string().check(z.maxLength(255), z.refine(isStrongPassword, 'weakPassword')),
  origin: z._default(z.literal('dashboard'), 'dashboard'),
});

export const changeEmailRequestSchema = z
  .object({
    oldEmail: emailSchema,
    newEmail: emailSchema,
    origin: z._default(z.literal('dashboard'), 'dashboard'),
  })
  .check(
    z.refine((v) => v.oldEmail.toLowerCase() !== v.newEmail.toLowerCase(), {
      message: 'newemailsameasold',
      path: ['newEmail'],
    }),
  );

/** Claims of the access token (spec 1 §3). `cpo_id` lists the caller's operators, first one is "their own". */
export const tokenClaimsSchema = z.object({
  sub: z.string(),
  name: z.string(),
  email: z.string(),
  preferred_username: z.string(),
  role_company: z.string(),
  customer_id: z.string(),
  customer_type: customerTypeSchema,
  company_name: z.string(),
  c_o: z._default(z.optional(z.string()), ''),
  street_name: z.string(),
  house_number: z._default(z.optional(z.string()), ''),
  postcode: z.string(),
  city: z.string(),
  country: z.string(),
  cpo_id: z.array(z.string()),
  createManualEndCustomerId: z.boolean(),
  resource_access: z.object({
    admin_oli_move: z.optional(z.object({ roles: z.array(z.string()) })),
    dashboard_oli_move: z.optional(z.object({ roles: z.array(z.string()) })),
  }),
  exp: z.number(),
  iat: z.optional(z.number()),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

/** Support mail (spec 1 §3): attachments as an array of byte values. */
export const SUPPORT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const supportAttachmentTypes = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'] as const;
/** A value that becomes a mail header: a line break in it would start a header of its own. */
const headerValue = (max: number) =>
  z.string().check(
    z.maxLength(max),
    z.refine((s) => !/[\r\n]/.test(s), 'lineBreak'),
  );

export const SUPPORT_SUBJECT_MAX = 255;
export const mailSendRequestSchema = z.object({
  subject: z.pipe(headerValue(SUPPORT_SUBJECT_MAX), z.string().check(z.trim(), z.minLength(1, 'required'))),
  body: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(20000)),
  attachments: z.optional(z.array(z.int().check(z.gte(0), z.lte(255))).check(z.maxLength(SUPPORT_ATTACHMENT_MAX_BYTES, 'tooLarge'))),
  attachmentName: z.optional(headerValue(255)),
  senderEmailAddress: emailSchema,
  senderFullName: z.pipe(headerValue(255), z.string().check(z.trim(), z.minLength(1))),
});
export type MailSendRequest = z.input<typeof mailSendRequestSchema>;
