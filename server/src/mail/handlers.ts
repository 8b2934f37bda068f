import { fileTypeFromBuffer } from 'file-type';
import type { z } from 'zod';
import type { mailSendRequestSchema } from '../../../contract/auth';
import type { AuthContext } from '../auth/scope';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { enqueueMail } from './outbox';

/** The support mail (spec 1 §7 `/mail/send`): what may be attached and what the support team gets. */

/** Support attachments are typed by their bytes, never by the name the browser sent. */
const allowedByExt: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  heic: 'image/heic',
};

async function detectAttachmentType(bytes: Uint8Array): Promise<{ ext: string; mime: string } | undefined> {
  const type = await fileTypeFromBuffer(bytes);
  if (!type) return undefined;
  const mime = allowedByExt[type.ext];
  return mime ? { ext: type.ext, mime } : undefined;
}

function attachmentFileName(requested: string | undefined, ext: string): string {
  // Keep the user's name, minus path parts and control characters, but make the extension tell the truth.
  const base =
    (requested ?? '')
      .replace(/[/\\]/g, '_')
      .replace(/[\p{Cc}]/gu, '')
      .trim() || 'Anhang';
  const current = base.split('.').pop()?.toLowerCase();
  const same = current === ext || (ext === 'jpg' && current === 'jpeg');
  return same ? base : `${base}.${ext}`;
}

/** Queues the user's message to the support address, with its attachment typed by its bytes. */
export async function queueSupportMail(db: Db, env: Env, auth: AuthContext, body: z.output<typeof mailSendRequestSchema>) {
  let attachment: { name: string; mimeType: string; content: Buffer } | undefined;
  if (body.attachments && body.attachments.length > 0) {
    const content = Buffer.from(body.attachments);
    const type = await detectAttachmentType(content);
    if (!type) {
      throw new ApiError(400, 'UNSUPPORTED_FILE_TYPE', 'Attachment must be a PDF, PNG, JPEG or HEIC file');
    }
    attachment = { name: attachmentFileName(body.attachmentName, type.ext), mimeType: type.mime, content };
  }
  const { user } = auth;
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
