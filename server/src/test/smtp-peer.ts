import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server for tests (server tests and the e2e journeys): `smtp-server` receives what
 * the mail sender's SMTP client (nodemailer) sends, without TLS or auth, and `mailparser` decodes
 * each message (subject, text body, attachments), so a test reads what a recipient would.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** Each attachment with its decoded bytes. */
  attachments: { filename?: string; contentType: string; size: number; content: Buffer }[];
  raw: string;
}

export interface SmtpPeer {
  port: number;
  /** For SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The first mail (already here or still to come) that `match` accepts. */
  waitFor(match: (m: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A peer on `port` (0: any free one); `onMail` sees each mail as it arrives. */
export async function startSmtpPeer(port = 0, onMail?: (mail: ReceivedMail) => void): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];

  const accept = (mail: ReceivedMail) => {
    mails.push(mail);
    onMail?.(mail);
    for (const w of [...waiters]) {
      if (w.match(mail)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(mail);
      }
    }
  };

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            accept({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: parsed.subject ?? '',
              text: (parsed.text ?? '').replace(/\r\n/g, '\n'),
              attachments: parsed.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                size: a.size,
                content: a.content,
              })),
              raw: raw.toString('utf8'),
            });
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `smtp://127.0.0.1:${actual}`,
    mails,
    waitFor: (match, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        const found = mails.find(match);
        if (found) return resolve(found);
        const waiter = { match, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) {
            waiters.splice(i, 1);
            reject(new Error(`no matching mail within ${timeoutMs} ms (got ${mails.length})`));
          }
        }, timeoutMs).unref();
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
