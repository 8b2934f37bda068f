import { mailSendRequestSchema, SUPPORT_ATTACHMENT_MAX_BYTES } from '../../../contract/auth';
import { ApiError } from '../http/errors';
import { ok } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseWith, readJson } from '../http/validate';
import { attachmentTypeMessage, queueSupportMail, supportAttachmentTypes } from './handlers';
import { checkUploadFirst } from './upload-gate';

/** The support mail's attachment, when the body carries one that can be bytes at all (else zod refuses it). */
function findAttachment(body: unknown) {
  const attachments = (body as { attachments?: unknown } | null)?.attachments;
  if (!Array.isArray(attachments) || attachments.length === 0 || attachments.length > SUPPORT_ATTACHMENT_MAX_BYTES) return undefined;
  if (!attachments.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) return undefined;
  return {
    bytes: Uint8Array.from(attachments as number[]),
    path: 'attachments',
    allowed: supportAttachmentTypes,
    typeMessage: attachmentTypeMessage,
  };
}

export const mailRoutes = routeTable('bff', [
  {
    method: 'POST',
    path: '/mail/send',
    access: 'user',
    // The attachment (≤ 5 MB) travels as a JSON array of bytes.
    bodyLimit: 'upload',
    checkUpload: checkUploadFirst(findAttachment),
    handler: async (c) => {
      const raw = await readJson(c);
      // Checked before zod so a huge array is refused without validating millions of numbers.
      const attachments = (raw as { attachments?: unknown } | null)?.attachments;
      if (Array.isArray(attachments) && attachments.length > SUPPORT_ATTACHMENT_MAX_BYTES) {
        throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `Attachment exceeds ${SUPPORT_ATTACHMENT_MAX_BYTES} bytes`);
      }
      await queueSupportMail(c.get('db'), c.get('env'), c.get('auth'), parseWith(mailSendRequestSchema, raw));
      return ok(c, true);
    },
  },
]);
