import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A real SMTP server for tests (server tests and the e2e journey): it speaks the protocol the
 * mail sender's SMTP client (nodemailer) uses over TCP (EHLO, MAIL, RCPT, DATA, RSET, QUIT; no TLS,
 * no auth) and keeps every message it accepts, decoded (subject, text body), so a test reads what
 * a recipient would. Written here instead of adding a dependency: a test peer needs no more.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
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

export async function startSmtpPeer(port = 0): Promise<SmtpPeer> {
  const mails: ReceivedMail[] = [];
  const waiters: { match: (m: ReceivedMail) => boolean; resolve: (m: ReceivedMail) => void }[] = [];
  const sockets = new Set<Socket>();

  const accept = (mail: ReceivedMail) => {
    mails.push(mail);
    for (const w of [...waiters]) {
      if (w.match(mail)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(mail);
      }
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = '';
    let inData = false;
    let data: string[] = [];
    let from = '';
    let to: string[] = [];
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 smtp-peer ESMTP ready');
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let at: number;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            accept(parseMessage(from, to, data.join('\r\n')));
            reply('250 2.0.0 Ok: queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') {
          reply('250-smtp-peer');
          reply('250 8BITMIME');
        } else if (verb === 'HELO' || verb === 'NOOP') reply('250 Ok');
        else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          to = [];
          reply('250 2.1.0 Ok');
        } else if (verb === 'RCPT') {
          to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          reply('250 2.1.5 Ok');
        } else if (verb === 'DATA') {
          inData = true;
          data = [];
          reply('354 End data with <CR><LF>.<CR><LF>');
        } else if (verb === 'RSET') {
          from = '';
          to = [];
          reply('250 Ok');
        } else if (verb === 'QUIT') {
          reply('221 Bye');
          socket.end();
        } else reply('502 5.5.2 Command not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as AddressInfo).port;
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Bytes of a latin1 string (as the socket read them) as UTF-8 text. */
const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return utf8(bytes);
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) of a header. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** Headers and the text body of a single-part message (what the mail sender sends without attachment). */
export function parseMessage(from: string, to: string[], raw: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = (split >= 0 ? raw.slice(0, split) : raw).replace(/\r\n[ \t]+/g, ' ');
  const body = split >= 0 ? raw.slice(split + 4) : '';
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
        : utf8(body);
  return { from, to, subject: decodeHeader(headers.get('subject') ?? ''), text: text.replace(/\r\n/g, '\n'), raw };
}
