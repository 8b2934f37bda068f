import { and, asc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema/mail';

const MAX_ATTEMPTS = 5;
/** Mails one flush sends at most. */
const BATCH = 50;
/**
 * One mail's SMTP exchange may take this long in all (connect, greeting, every command, the data);
 * past it the try counts as failed. The socket timeouts below end the exchange itself about then.
 */
export const SEND_TIMEOUT_MS = 60_000;
/**
 * A mail claimed this long ago by a sender that never finished is sent again. Above the send timeout
 * with room for the status update, so a live sender's claim is never taken while it still sends;
 * short, so a crash delays a mail (a password reset) by two minutes rather than ten.
 */
export const CLAIM_TIMEOUT_SECONDS = 120;
/** nodemailer's defaults wait up to 2 min to connect and 10 min on a silent socket; a URL's query can still set them. */
const smtpTimeouts = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000, dnsTimeout: 15_000 };

type Mail = typeof mailOutbox.$inferSelect;

/** What nodemailer sends for a stored mail: the stored Message-ID, so every try of it carries the same one. */
function message(mail: Mail) {
  return {
    messageId: mail.messageId,
    from: mail.fromAddress,
    to: mail.toAddress,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.textBody,
    attachments:
      mail.attachment && mail.attachmentName
        ? [{ filename: mail.attachmentName, content: mail.attachment, contentType: mail.attachmentMimeType ?? undefined }]
        : undefined,
  };
}

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
  const transport = opts.transport ?? (opts.smtpUrl ? nodemailer.createTransport({ url: opts.smtpUrl, ...smtpTimeouts }) : undefined);
  const log = opts.log ?? ((m) => console.warn(m));
  let running = false;

  /** The exchange, ended as failed after SEND_TIMEOUT_MS whatever the peer does. */
  async function send(mailer: Transporter, mail: Mail) {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`SMTP send took over ${SEND_TIMEOUT_MS} ms`)), SEND_TIMEOUT_MS);
    });
    try {
      await Promise.race([deadline, mailer.sendMail(message(mail))]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Takes the oldest queued mail for this sender alone: one short statement marks it 'sending'
   * (FOR UPDATE SKIP LOCKED, so several server instances on one PostgreSQL never take the same
   * mail). A claim left by a sender that died is taken again after CLAIM_TIMEOUT_SECONDS: a sender
   * killed after the SMTP server accepted the mail but before marking it sent leaves it 'sending', so
   * it goes out again, with the same Message-ID (at least once, never lost).
   */
  async function claim(failed: readonly number[]): Promise<Mail | undefined> {
    const next = opts.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          or(
            eq(mailOutbox.status, 'queued'),
            and(eq(mailOutbox.status, 'sending'), lt(mailOutbox.claimedAt, sql`now() - make_interval(secs => ${CLAIM_TIMEOUT_SECONDS})`)),
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
          await send(transport, mail);
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
