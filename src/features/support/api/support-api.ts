import * as z from 'zod/mini';
import type { MailSendRequest } from '../../../../contract/auth';
import { plainWrite } from '../../../api/mutations';

/** POST /bff/mail/send: the support mail, with the attachment as byte values (spec 1 §3); no screen shows it. */
export const sendSupportMailMutation = () =>
  plainWrite({
    mutationKey: ['support', 'mail'],
    request: (body: MailSendRequest) => ({ service: 'bff', path: '/mail/send', method: 'POST', body }),
    schema: z.unknown(),
    refreshes: () => [],
  });
