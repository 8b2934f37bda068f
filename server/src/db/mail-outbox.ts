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

/** Mail is written in the request's transaction, so it goes out only if the request committed. */
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
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}
