import { asc, eq, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';

const MAX_ATTEMPTS = 5;

export interface MailSender {
  /** Sends queued mails once; returns how many went out. */
  flush(): Promise<number>;
  stop(): void;
}

/**
 * Drains the outbox through SMTP. Without a transport the mails stay queued (visible in the
 * database), which is what development and tests want.
 */
export function createMailSender(opts: {
  db: Db;
  smtpUrl?: string;
  transport?: Transporter;
  intervalMs?: number;
  log?: (msg: string) => void;
}): MailSender {
  const transport = opts.transport ?? (opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : undefined);
  const log = opts.log ?? ((m) => console.warn(m));
  let running = false;

  async function flush(): Promise<number> {
    if (!transport || running) return 0;
    running = true;
    let sent = 0;
    try {
      const queued = await opts.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.status, 'queued'))
        .orderBy(asc(mailOutbox.id))
        .limit(50);
      for (const mail of queued) {
        try {
          await transport.sendMail({
            from: mail.fromAddress,
            to: mail.toAddress,
            replyTo: mail.replyTo ?? undefined,
            subject: mail.subject,
            text: mail.textBody,
            attachments:
              mail.attachment && mail.attachmentName
                ? [
                    {
                      filename: mail.attachmentName,
                      content: mail.attachment,
                      contentType: mail.attachmentMimeType ?? undefined,
                    },
                  ]
                : undefined,
          });
          await opts.db
            .update(mailOutbox)
            .set({ status: 'sent', sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1` })
            .where(eq(mailOutbox.id, mail.id));
          sent++;
        } catch (err) {
          const attempts = mail.attempts + 1;
          log(`mail ${mail.id} failed (attempt ${attempts}): ${(err as Error).message}`);
          await opts.db
            .update(mailOutbox)
            .set({
              attempts,
              lastError: String((err as Error).message).slice(0, 1000),
              status: attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
            })
            .where(eq(mailOutbox.id, mail.id));
        }
      }
    } finally {
      running = false;
    }
    return sent;
  }

  const timer = transport && opts.intervalMs ? setInterval(() => void flush().catch(log), opts.intervalMs) : undefined;
  timer?.unref();
  return { flush, stop: () => timer && clearInterval(timer) };
}
