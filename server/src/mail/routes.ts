import { fileTypeFromBuffer } from 'file-type';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { mailSendRequestSchema, SUPPORT_ATTACHMENT_MAX_BYTES } from '../../../contract/auth';
import { ApiError } from '../http/errors';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import type { AppBindings } from '../http/types';
import { parseWith, readJson } from '../http/validate';
import { enqueueMail } from './outbox';

/** Support attachments are typed by their bytes, never by the name the browser sent. */
const allowedByExt: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  heic: 'image/heic',
};

export async function detectAttachmentType(bytes: Uint8Array): Promise<{ ext: string; mime: string } | undefined> {
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

/** The body limit of the mail route, read before anything else (BODY_LIMIT_BYTES). */
const mailBodyLimit: MiddlewareHandler<AppBindings> = (c, next) =>
  bodyLimit({
    maxSize: c.var.env.BODY_LIMIT_BYTES,
    onError: () => {
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large');
    },
  })(c, next);

export const mailRoutes = routeTable('bff', [
  {
    method: 'POST',
    path: '/mail/send',
    access: 'user',
    before: [mailBodyLimit],
    handler: async (c) => {
      const raw = await readJson(c);
      // Checked before zod so a huge array is refused without validating millions of numbers.
      const attachments = (raw as { attachments?: unknown } | null)?.attachments;
      if (Array.isArray(attachments) && attachments.length > SUPPORT_ATTACHMENT_MAX_BYTES) {
        throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `Attachment exceeds ${SUPPORT_ATTACHMENT_MAX_BYTES} bytes`);
      }
      const body = parseWith(mailSendRequestSchema, raw);
      const env = c.var.env;
      let attachment: { name: string; mimeType: string; content: Buffer } | undefined;
      if (body.attachments && body.attachments.length > 0) {
        const content = Buffer.from(body.attachments);
        const type = await detectAttachmentType(content);
        if (!type) {
          throw new ApiError(400, 'UNSUPPORTED_FILE_TYPE', 'Attachment must be a PDF, PNG, JPEG or HEIC file');
        }
        attachment = { name: attachmentFileName(body.attachmentName, type.ext), mimeType: type.mime, content };
      }
      const { user } = c.var.auth;
      await enqueueMail(c.var.db, {
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
      return ok(c, true);
    },
  },
]);
