import { eq, like } from 'drizzle-orm';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardUsers } from '../db/schema/auth';
import { throttles } from '../db/schema/http';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let operator: string;
let partner: string;
beforeAll(async () => {
  // A short limit keeps the test quick; pdf-lib needs ~14 s for the fake below, far over it.
  h = await createHarness({ UPLOAD_CHECK_TIMEOUT_MS: 1500 });
  operator = (await h.login('operator')).access_token;
  partner = (await h.login('partner')).access_token;
});
afterAll(() => h?.close());

const payload = (attachments: Uint8Array) => ({
  subject: 'Ladestation defekt',
  body: 'Siehe Anhang.',
  senderEmailAddress: demoAccounts.operator.email,
  senderFullName: 'Olaf Betreiber',
  attachments: [...attachments],
  attachmentName: 'anhang.pdf',
});

/** `%PDF-` and 3 MB of filler: a header pdf-lib believes, and a body it searches for 14 s. */
const fakePdf = () => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 * 1024 * 1024 - 64, 'A')]);

async function pdfWith(change: (doc: PDFDocument) => void) {
  const doc = await PDFDocument.create();
  doc.addPage();
  change(doc);
  return Buffer.from(await doc.save());
}

describe('uploads are parsed off the event loop', () => {
  it("answers another tenant's list within a second while a fake PDF is checked, then refuses it with 422 UPLOAD_NOT_READABLE and counts it", async () => {
    const started = Date.now();
    const upload = h.request('POST', '/bff/mail/send', { token: operator, body: payload(fakePdf()) });
    let done = false;
    void upload.finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const t0 = Date.now();
      const list = await h.request('GET', '/bff/cpos', { token: partner });
      expect(list.status).toBe(200);
      waits.push(Date.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await upload;
    expect(res.status).toBe(422);
    expect(res.body.errorCodeResponse).toBe('UPLOAD_NOT_READABLE');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(waits.length).toBeGreaterThan(3);
    expect(Math.max(...waits)).toBeLessThan(1000);

    const [user] = await h.db.select().from(throttles).where(like(throttles.key, 'support-mail:%'));
    expect(user?.hits).toBe(1);
  });

  it('refuses the same fake as a contract PDF, before validating the rest of the body', async () => {
    const res = await h.request('POST', '/contract-management/create-contract', {
      token: operator,
      body: { contractInfo: { contractPdfInByteArrayForm: fakePdf().toString('base64') } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errorCodeResponse).toBe('UPLOAD_NOT_READABLE');
    expect(res.body.issues?.[0]?.path).toBe('contractInfo.contractPdfInByteArrayForm');
  });

  it('refuses PDFs with JavaScript or a launch action with 400 UPLOAD_ACTIVE_CONTENT, and takes a plain one', async () => {
    const withJs = await pdfWith((doc) => doc.addJavaScript('hello', 'app.alert("hi")'));
    const withLaunch = await pdfWith((doc) =>
      doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'Launch', F: PDFString.of('calc.exe') })),
    );
    // The name spelled with a #xx escape, as a filter that looks at raw bytes would miss it.
    const escaped = Buffer.from(
      (await pdfWith((doc) => doc.catalog.set(PDFName.of('OpenAction'), doc.context.obj({ S: 'Launch', F: PDFString.of('x') }))))
        .toString('latin1')
        .replace('/Launch', '/L#61unch'),
      'latin1',
    );
    for (const bytes of [withJs, withLaunch, escaped]) {
      const res = await h.request('POST', '/bff/mail/send', { token: partner, body: payload(bytes) });
      expect(res.status).toBe(400);
      expect(res.body.errorCodeResponse).toBe('UPLOAD_ACTIVE_CONTENT');
    }
    const plain = await h.request('POST', '/bff/mail/send', { token: partner, body: payload(await pdfWith(() => {})) });
    expect(plain.status).toBe(200);
    const [user] = await h.db.select().from(dashboardUsers).where(eq(dashboardUsers.email, demoAccounts.partner.email));
    const [hits] = await h.db
      .select()
      .from(throttles)
      .where(eq(throttles.key, `upload-refused:${user.id}`));
    expect(hits?.hits).toBe(3);
  });
});
