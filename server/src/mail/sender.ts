import { and, asc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema/mail';

const MAX_ATTEMPTS = 5;
/** Mails one flush sends at most. */
const BATCH = 50;
/** A mail claimed this long ago by a sender that never finished is sent again. */
export const CLAIM_TIMEOUT_MINUTES = 10;

type Mail = typeof mailOutbox.$inferSelect;

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

  /**
   * Takes the oldest queued mail for this sender alone: one short statement marks it 'sending'
   * (FOR UPDATE SKIP LOCKED, so several server instances on one PostgreSQL never take the same
   * mail). A claim left by a sender that died is taken again after CLAIM_TIMEOUT_MINUTES.
   */
  async function claim(failed: readonly number[]): Promise<Mail | undefined> {
    const next = opts.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          or(
            eq(mailOutbox.status, 'queued'),
            and(eq(mailOutbox.status, 'sending'), lt(mailOutbox.claimedAt, sql`now() - make_interval(mins => ${CLAIM_TIMEOUT_MINUTES})`)),
          ),
          // A mail that failed in this flush waits for the next one.
          failed.length > 0 ? notInArray(mailOutbox.id, [...failed]) : undefined,
        ),
      )
      .orderBy(asc(mailOutbox.id))
      .limit(1)
      .for('update', { skipLocked: true });
    const [mail] = await opts.db
      .update(mailOutbox)
      .set({ status: 'sending', claimedAt: sql`now()`, attempts: sql`${mailOutbox.attempts} + 1` })
      .where(inArray(mailOutbox.id, next))
      .returning();
    return mail;
  }

  async function flush(): Promise<number> {
    if (!transport || running) return 0;
    running = true;
    let sent = 0;
    const failed: number[] = [];
    try {
      for (let i = 0; i < BATCH; i++) {
        const mail = await claim(failed);
        if (!mail) break;
        try {
          await transport.sendMail({
            from: mail.fromAddress,
            to: mail.toAddress,
            replyTo: mail.replyTo ?? undefined,
            subject: mail.subject,
            text: mail.textBody,
            attachments:
              mail.attachment && mail.attachmentName
                ? [{ filename: mail.attachmentName, content: mail.attachment, contentType: mail.attachmentMimeType ?? undefined }]
                : undefined,
          });
          await opts.db.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.id, mail.id));
          sent++;
        } catch (err) {
          failed.push(mail.id);
          log(`mail ${mail.id} failed (attempt ${mail.attempts}): ${(err as Error).message}`);
          await opts.db
            .update(mailOutbox)
            .set({
              lastError: String((err as Error).message).slice(0, 1000),
              status: mail.attempts >= MAX_ATTEMPTS ? 'failed' : 'queued',
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
