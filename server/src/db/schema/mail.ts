import { check, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { bytea, tsz, inList } from './columns';

/** The mail outbox: mails are written in the request's transaction and sent by `mail/sender.ts`. */

export const mailStatuses = ['queued', 'sending', 'sent', 'failed'] as const;

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    attachmentName: text('attachment_name'),
    attachmentMimeType: text('attachment_mime_type'),
    attachment: bytea('attachment'),
    status: text('status').$type<(typeof mailStatuses)[number]>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    sentAt: tsz('sent_at'),
    /** When a sender claimed it ('sending'); a claim older than the sender's timeout is taken again. */
    claimedAt: tsz('claimed_at'),
    /**
     * The Message-ID header, fixed when the mail is queued: a mail sent again after a crash (the
     * outbox sends at least once) carries the same one, so the receiver can drop the copy.
     */
    messageId: text('message_id').notNull(),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.id), check('mail_outbox_status_chk', inList('status', mailStatuses))],
);
