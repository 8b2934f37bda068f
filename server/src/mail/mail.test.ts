import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { desc, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SUPPORT_ATTACHMENT_MAX_BYTES } from '../../../contract/auth';
import { createApp } from '../app';
import { throttles } from '../db/schema/http';
import { mailOutbox } from '../db/schema/mail';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { enqueueMail, messageIdDomain } from '../db/mail-outbox';
import { CLAIM_TIMEOUT_SECONDS, SEND_TIMEOUT_MS, createMailSender } from './sender';
import { startSmtpPeer } from '../test/smtp-peer';

let h: Harness;
let token: string;
beforeAll(async () => {
  h = await createHarness();
  token = (await h.login('operator')).access_token;
});
afterAll(() => h?.close());

let pdf: Buffer;
beforeAll(async () => {
  const doc = await PDFDocument.create();
  doc.addPage();
  pdf = Buffer.from(await doc.save());
});
const heic = readFileSync(fileURLToPath(new URL('./fixtures/tiny.heic', import.meta.url)));
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const payload = (extra: object = {}) => ({
  subject: 'Ladestation defekt',
  body: 'Die Ladestation am Parkplatz 12 reagiert nicht.',
  senderEmailAddress: demoAccounts.operator.email,
  senderFullName: 'Olaf Betreiber',
  ...extra,
});
const lastMail = async () => (await h.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(1))[0];

describe('POST /bff/mail/send', () => {
  it('queues a support mail without attachment', async () => {
    const res = await h.request('POST', '/bff/mail/send', { token, body: payload() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: true });
    const mail = await lastMail();
    expect(mail).toMatchObject({ toAddress: h.env.SUPPORT_EMAIL, replyTo: demoAccounts.operator.email, status: 'queued' });
    expect(mail.attachment).toBeNull();
  });

  it('accepts a real PDF and a real PNG, typed by content', async () => {
    const r1 = await h.request('POST', '/bff/mail/send', {
      token,
      body: payload({ attachments: [...pdf], attachmentName: 'rechnung.pdf' }),
    });
    expect(r1.status).toBe(200);
    const m1 = await lastMail();
    expect(m1.attachmentMimeType).toBe('application/pdf');
    expect(m1.attachmentName).toBe('rechnung.pdf');
    expect(Buffer.compare(m1.attachment!, pdf)).toBe(0);

    // A PNG sent under a misleading name keeps its name but gets the true extension.
    const r2 = await h.request('POST', '/bff/mail/send', {
      token,
      body: payload({ attachments: [...png], attachmentName: 'foto.pdf' }),
    });
    expect(r2.status).toBe(200);
    const m2 = await lastMail();
    expect(m2.attachmentMimeType).toBe('image/png');
    expect(m2.attachmentName).toBe('foto.pdf.png');
  });

  it('parses every attachment whole: a PDF header in front of HTML, a PDF without pages and a cut image are refused; a HEIC photo is taken', async () => {
    const before = await lastMail();
    const refused = [
      Buffer.from('%PDF-1.4\n<html><body><script>alert(document.cookie)</script></body></html>\n%%EOF\n'),
      Buffer.from(
        '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
      ),
      png.subarray(0, png.length - 12),
      heic.subarray(0, heic.length - 200),
    ];
    for (const bytes of refused) {
      const res = await h.request('POST', '/bff/mail/send', {
        token,
        body: payload({ attachments: [...bytes], attachmentName: 'anhang.pdf' }),
      });
      expect(res.status).toBe(400);
      expect(res.body.errorCodeResponse).toBe('UNSUPPORTED_FILE_TYPE');
    }
    expect((await lastMail()).id).toBe(before.id);
    const photo = await h.request('POST', '/bff/mail/send', {
      token,
      body: payload({ attachments: [...heic], attachmentName: 'IMG_0001.HEIC' }),
    });
    expect(photo.status).toBe(200);
    expect((await lastMail()).attachmentMimeType).toBe('image/heic');
  });

  it('refuses line breaks in what becomes a mail header', async () => {
    for (const extra of [
      { subject: 'Hallo\r\nBcc: alle@example.com' },
      { senderFullName: 'Olaf\nBcc: x@example.com' },
      { attachmentName: 'a\r\nb.pdf' },
    ]) {
      const res = await h.request('POST', '/bff/mail/send', { token, body: payload(extra) });
      expect(res.status).toBe(400);
      expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
    }
  });

  it('limits support mails per account and hour: the 11th is refused with 429 and not queued', async () => {
    const partner = (await h.login('partner')).access_token;
    for (let i = 0; i < 10; i++) expect((await h.request('POST', '/bff/mail/send', { token: partner, body: payload() })).status).toBe(200);
    const before = await lastMail();
    const eleventh = await h.request('POST', '/bff/mail/send', { token: partner, body: payload() });
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.errorCodeResponse).toBe('TOO_MANY_REQUESTS');
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await lastMail()).id).toBe(before.id);
    // Another account is not affected.
    expect((await h.request('POST', '/bff/mail/send', { token, body: payload() })).status).toBe(200);
  });

  it('refuses a text file named .pdf with 400 UNSUPPORTED_FILE_TYPE and stores nothing', async () => {
    const before = await lastMail();
    const res = await h.request('POST', '/bff/mail/send', {
      token,
      body: payload({ attachments: [...Buffer.from('just some text, not a pdf')], attachmentName: 'evil.pdf' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('UNSUPPORTED_FILE_TYPE');
    expect((await lastMail()).id).toBe(before.id);
  });

  it('refuses an attachment over the limit with 413', async () => {
    const attachments = new Array(SUPPORT_ATTACHMENT_MAX_BYTES + 1).fill(0);
    const res = await h.request('POST', '/bff/mail/send', { token, body: payload({ attachments }) });
    expect(res.status).toBe(413);
    expect(res.body.errorCodeResponse).toBe('PAYLOAD_TOO_LARGE');
  });

  it('refuses a body over the body limit early with 413', async () => {
    const small = createApp({ db: h.db, env: { ...h.env, UPLOAD_BODY_LIMIT_BYTES: 1024 }, log: () => {} });
    const body = JSON.stringify(payload({ attachments: [...pdf, ...new Array(2000).fill(1)] }));
    const res = await small.request('/bff/mail/send', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).errorCodeResponse).toBe('PAYLOAD_TOO_LARGE');
  });

  it('requires a bearer token and a valid payload', async () => {
    expect((await h.request('POST', '/bff/mail/send', { body: payload() })).status).toBe(401);
    const res = await h.request('POST', '/bff/mail/send', { token, body: payload({ subject: '' }) });
    expect(res.status).toBe(400);
    expect(res.body.issues[0].path).toBe('subject');
  });
});

describe('support attachment names', () => {
  beforeEach(async () => {
    await h.db.delete(throttles);
  });
  it('are stored without bidirectional controls, so the name tells the type it shows', async () => {
    const res = await h.request('POST', '/bff/mail/send', {
      token,
      body: payload({ attachments: [...pdf], attachmentName: 'rechnung\u202Efdp.exe' }),
    });
    expect(res.status).toBe(200);
    expect((await lastMail()).attachmentName).toBe('rechnungfdp.exe.pdf');
    const isolates = await h.request('POST', '/bff/mail/send', {
      token,
      body: payload({ attachments: [...png], attachmentName: '\u2067\u200F\u061C\u2069' }),
    });
    expect(isolates.status).toBe(200);
    expect((await lastMail()).attachmentName).toBe('Anhang.png');
  });
});

describe('mail sender', () => {
  // These tests queue mails through the API as the same account; the hourly limit is tested above.
  beforeEach(async () => {
    await h.db.delete(throttles);
  });
  it('sends queued mails through the transport and marks them sent; failures stay queued', async () => {
    const sent: { to?: unknown; attachments?: unknown }[] = [];
    let fail = true;
    const transport = {
      sendMail: async (m: { to?: unknown; attachments?: unknown }) => {
        if (fail) {
          fail = false;
          throw new Error('smtp down');
        }
        sent.push(m);
        return {};
      },
    };
    const sender = createMailSender({ db: h.db, transport: transport as never, log: () => {} });
    const first = await sender.flush();
    const queuedBefore = await h.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'queued'));
    expect(queuedBefore.length).toBe(1);
    expect(queuedBefore[0].attempts).toBe(1);
    const second = await sender.flush();
    expect(first + second).toBe(sent.length);
    expect(await h.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'queued'))).toHaveLength(0);
    expect(sent.some((m) => Array.isArray(m.attachments))).toBe(true);
    sender.stop();
  });

  it('two senders on one database (two server instances) send each queued mail exactly once', async () => {
    for (let i = 0; i < 12; i++) {
      await enqueueMail(h.db, {
        to: 'support@cockpit.example',
        from: 'noreply@cockpit.example',
        subject: `[Support] Parallel ${i}`,
        text: 'x',
      });
    }
    const subjects: string[] = [];
    // A transport that takes its time, so the two flushes really overlap.
    const transport = {
      sendMail: async (m: { subject?: string }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        subjects.push(String(m.subject));
        return {};
      },
    };
    const a = createMailSender({ db: h.db, transport: transport as never, log: () => {} });
    const b = createMailSender({ db: h.db, transport: transport as never, log: () => {} });
    const [fromA, fromB] = await Promise.all([a.flush(), b.flush()]);
    const parallel = subjects.filter((s) => s.includes('Parallel'));
    expect(parallel).toHaveLength(12);
    expect(new Set(parallel).size).toBe(12);
    expect(fromA + fromB).toBe(subjects.length);
    expect(fromA).toBeGreaterThan(0);
    expect(fromB).toBeGreaterThan(0);
    expect(await h.db.select().from(mailOutbox).where(eq(mailOutbox.status, 'queued'))).toHaveLength(0);
  });

  it('takes a mail again whose sender died while sending, once its claim is old', async () => {
    const res = await h.request('POST', '/bff/mail/send', { token, body: payload({ subject: 'Verwaist' }) });
    expect(res.status).toBe(200);
    const mail = await lastMail();
    // As a sender that crashed after claiming leaves it.
    await h.db
      .update(mailOutbox)
      .set({ status: 'sending', attempts: 1, claimedAt: new Date(Date.now() - (CLAIM_TIMEOUT_SECONDS + 5) * 1000) })
      .where(eq(mailOutbox.id, mail.id));
    const subjects: string[] = [];
    const sender = createMailSender({
      db: h.db,
      transport: { sendMail: async (m: { subject?: string }) => subjects.push(String(m.subject)) } as never,
    });
    expect(await sender.flush()).toBe(1);
    expect(subjects).toEqual(['[Support] Verwaist']);
    expect((await lastMail()).status).toBe('sent');
  });

  it('a mail whose sender died after the SMTP server took it goes out again, with the same Message-ID', async () => {
    const peer = await startSmtpPeer();
    try {
      const id = await enqueueMail(h.db, { to: 'ops@cockpit.example', from: h.env.MAIL_FROM, subject: 'Zweimal zugestellt', text: 'x' });
      const [stored] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
      expect(stored.messageId).toMatch(/^<[0-9a-f-]{36}@cockpit\.example>$/);
      const headerOf = (raw: string) => /^Message-ID:\s*(.*?)\r?$/im.exec(raw)?.[1];
      const copies = () => peer.mails.filter((m) => m.subject === 'Zweimal zugestellt');

      await createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} }).flush();
      expect(copies()).toHaveLength(1);
      // The crash: the SMTP server has the mail, the 'sent' update never ran.
      const crashed = (secondsAgo: number) =>
        h.db
          .update(mailOutbox)
          .set({ status: 'sending', sentAt: null, claimedAt: new Date(Date.now() - secondsAgo * 1000) })
          .where(eq(mailOutbox.id, id));
      // A claim younger than the timeout may belong to a sender still talking to the SMTP server.
      await crashed(CLAIM_TIMEOUT_SECONDS - 10);
      await createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} }).flush();
      expect(copies()).toHaveLength(1);

      await crashed(CLAIM_TIMEOUT_SECONDS + 5);
      await createMailSender({ db: h.db, smtpUrl: peer.url, log: () => {} }).flush();
      expect(copies()).toHaveLength(2);
      expect(copies().map((m) => headerOf(m.raw))).toEqual([stored.messageId, stored.messageId]);
      expect((await h.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0].status).toBe('sent');
    } finally {
      await peer.close();
    }
  });

  it('claims time out only after a send could have ended', () => {
    expect(CLAIM_TIMEOUT_SECONDS * 1000).toBeGreaterThan(SEND_TIMEOUT_MS + 30_000);
    expect(messageIdDomain('CPO Cockpit <no-reply@mail.example.org>')).toBe('mail.example.org');
    expect(messageIdDomain('no-reply@example.org')).toBe('example.org');
    expect(messageIdDomain('kein Absender')).toBe('cockpit.invalid');
    expect(messageIdDomain('a@b@c>@x y')).toBe('cockpit.invalid');
  });
});
