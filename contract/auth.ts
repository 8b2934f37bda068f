import * as z from 'zod';
import { customerTypeSchema } from './common';

/** Spec 1 §5: e-mail required, max 255, e-mail pattern. Shared by client forms and server. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const emailSchema = z.string().trim().min(1, 'required').max(255, 'max255').regex(EMAIL_PATTERN, 'email');

/** Spec 1 §5: at least 10 characters with a digit, a lowercase and an uppercase letter. */
export const PASSWORD_MIN = 10;
export const isStrongPassword = (p: string) => p.length >= PASSWORD_MIN && /\d/.test(p) && /[a-z]/.test(p) && /[A-Z]/.test(p);

export const loginRequestSchema = z.object({
  username: emailSchema,
  password: z.string().min(1, 'required').max(255, 'max255'),
  origin: z.literal('dashboard').default('dashboard'),
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
  currentAccessToken: z.string().min(1),
  currentRefreshToken: z.string().min(1),
  origin: z.literal('dashboard').default('dashboard'),
});

export const changePasswordRequestSchema = z.object({
  username: emailSchema,
  newPassword: z.string().max(255).refine(isStrongPassword, 'weakPassword'),
  origin: z.literal('dashboard').default('dashboard'),
});

export const changeEmailRequestSchema = z
  .object({
    oldEmail: emailSchema,
    newEmail: emailSchema,
    origin: z.literal('dashboard').default('dashboard'),
  })
  .refine((v) => v.oldEmail.toLowerCase() !== v.newEmail.toLowerCase(), {
    message: 'newemailsameasold',
    path: ['newEmail'],
  });

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
  c_o: z.string().optional().default(''),
  street_name: z.string(),
  house_number: z.string().optional().default(''),
  postcode: z.string(),
  city: z.string(),
  country: z.string(),
  cpo_id: z.array(z.string()),
  createManualEndCustomerId: z.boolean(),
  resource_access: z.object({
    admin_oli_move: z.object({ roles: z.array(z.string()) }).optional(),
    dashboard_oli_move: z.object({ roles: z.array(z.string()) }).optional(),
  }),
  exp: z.number(),
  iat: z.number().optional(),
});
export type TokenClaims = z.infer<typeof tokenClaimsSchema>;

/** Support mail (spec 1 §3): attachments as an array of byte values. */
export const SUPPORT_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const supportAttachmentTypes = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic'] as const;
/** A value that becomes a mail header: a line break in it would start a header of its own. */
const headerValue = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !/[\r\n]/.test(s), 'lineBreak');

export const SUPPORT_SUBJECT_MAX = 255;
export const mailSendRequestSchema = z.object({
  subject: headerValue(SUPPORT_SUBJECT_MAX).pipe(z.string().trim().min(1, 'required')),
  body: z.string().trim().min(1, 'required').max(20000),
  attachments: z.array(z.number().int().min(0).max(255)).max(SUPPORT_ATTACHMENT_MAX_BYTES, 'tooLarge').optional(),
  attachmentName: headerValue(255).optional(),
  senderEmailAddress: emailSchema,
  senderFullName: headerValue(255).pipe(z.string().trim().min(1)),
});
export type MailSendRequest = z.input<typeof mailSendRequestSchema>;
