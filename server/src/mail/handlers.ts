import { fileTypeFromBuffer } from 'file-type';
import type { z } from 'zod/mini';
import type { mailSendRequestSchema } from '../../../contract/auth';
import type { AuthContext } from '../auth/scope';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { cleanFileName } from '../http/file-name';
import { checkThrottles, hitThrottle, type ThrottleRule } from '../http/throttle';
import { checkUpload, uploadLimitsOf, uploadRefusal } from './attachment-check';
import { enqueueMail } from '../db/mail-outbox';

/** Support mails per account: enough for a bad day in the field, not for filling the support inbox. */
export const supportMailKey = (userId: string) => `support-mail:${userId}`;

export const supportMailLimit: ThrottleRule = { limit: 10, windowSeconds: 3600, blockSeconds: 3600, maxBlockSeconds: 6 * 3600 };

/** The support mail (spec 1 §7 `/mail/send`): what may be attached and what the support team gets. */

/** Support attachments are typed by their bytes, never by the name the browser sent. */
const allowedByExt: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  heic: 'image/heic',
};

export const supportAttachmentTypes = Object.keys(allowedByExt);
export const attachmentTypeMessage = 'Attachment must be a PDF, PNG, JPEG or HEIC file';

/** The type by the first bytes, then the whole file parsed as that type (`attachment-check.ts`). */
async function detectAttachmentType(env: Env, bytes: Uint8Array): Promise<{ ext: string; mime: string }> {
  const type = await fileTypeFromBuffer(bytes);
  const mime = type && allowedByExt[type.ext];
  if (!type || !mime) throw new ApiError(400, 'UNSUPPORTED_FILE_TYPE', attachmentTypeMessage);
  const refusal = uploadRefusal(await checkUpload(type.ext, bytes, uploadLimitsOf(env)), 'attachments', attachmentTypeMessage);
  if (refusal) throw refusal;
  return { ext: type.ext, mime };
}

function attachmentFileName(requested: string | undefined, ext: string): string {
  // Keep the user's name, minus path parts, control and bidi characters, but make the extension tell the truth.
  const base = cleanFileName(requested) || 'Anhang';
  const current = base.split('.').pop()?.toLowerCase();
  const same = current === ext || (ext === 'jpg' && current === 'jpeg');
  return same ? base : `${base}.${ext}`;
}

/**
 * Queues the user's message to the support address, with its attachment typed and parsed by its
 * bytes; counts against the account's hourly limit (in the write's transaction; a refused
 * attachment counts too, in the route's check before it: `upload-gate.ts`).
 */
export async function queueSupportMail(db: Db, env: Env, auth: AuthContext, body: z.output<typeof mailSendRequestSchema>) {
  const limitKey = supportMailKey(auth.user.id);
  await checkThrottles(db, [limitKey]);
  let attachment: { name: string; mimeType: string; content: Buffer } | undefined;
  if (body.attachments && body.attachments.length > 0) {
    const content = Buffer.from(body.attachments);
    const type = await detectAttachmentType(env, content);
    attachment = { name: attachmentFileName(body.attachmentName, type.ext), mimeType: type.mime, content };
  }
  const { user } = auth;
  await hitThrottle(db, limitKey, supportMailLimit);
  await enqueueMail(db, {
    to: env.SUPPORT_EMAIL,
    from: env.MAIL_FROM,
    replyTo: body.senderEmailAddress,
    subject: `[Support] ${body.subject}`,
    text: [
      `Von: ${body.senderFullName} <${body.senderEmailAddress}>`,
      `Konto: ${user.email} (Kunde ${user.customerId})`,
      '',
      body.body,
    ].join('\n'),
    attachment,
  });
}
