import * as z from 'zod/mini';
import type { MailSendRequest } from '../../../../contract/auth';
import { apiRequest } from '../../../api/client';

/** POST /bff/mail/send: the support mail, with the attachment as byte values (spec 1 §3). */
export function sendSupportMail(body: MailSendRequest): Promise<unknown> {
  return apiRequest({ service: 'bff', path: '/mail/send', method: 'POST', body, schema: z.unknown() });
}
