import { randomUUID } from 'node:crypto';
import type { Db } from './client';
import { mailOutbox } from './schema/mail';

export interface OutgoingMail {
  to: string;
  from: string;
  replyTo?: string;
  subject: string;
  text: string;
  attachment?: { name: string; mimeType: string; content: Buffer };
}

/** The domain of the sender's address (`Name <a@host>` or `a@host`), where a Message-ID's right part belongs (RFC 5322 §3.6.4). */
export function messageIdDomain(from: string): string {
  const address = /<([^>]*)>/.exec(from)?.[1] ?? from;
  const host = address.slice(address.lastIndexOf('@') + 1).trim();
  return /^[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/.test(host) && address.includes('@') ? host : 'cockpit.invalid';
}

/**
 * Mail is written in the request's transaction, so it goes out only if the request committed. Its
 * Message-ID is fixed here, not by the SMTP client at each try: the outbox sends at least once, and
 * a copy sent again after a crash must carry the same id for the receiver to drop it.
 */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<number> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      fromAddress: mail.from,
      replyTo: mail.replyTo,
      subject: mail.subject,
      textBody: mail.text,
      attachmentName: mail.attachment?.name,
      attachmentMimeType: mail.attachment?.mimeType,
      attachment: mail.attachment?.content,
      messageId: `<${randomUUID()}@${messageIdDomain(mail.from)}>`,
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}
