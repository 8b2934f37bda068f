import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../db/client';
import { contracts, files } from '../db/schema/contracts';
import { cleanFileName } from '../http/file-name';
import { contractBody, contractPlace, type ContractPlace } from '../test/contract-fixtures';
import { createHarness, type Harness } from '../test/harness';

/** How the stored contract PDF is named and served: no bidi tricks in its name, a download unless asked to view, never run as a page. */

let h: Harness;
let token: string;
let own: ContractPlace;
const base = '/contract-management';
/** Every bidirectional control the server strips. */
const bidi = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C'];

beforeAll(async () => {
  h = await createHarness();
  token = (await h.login('operator')).access_token;
  own = await contractPlace(h, token);
});
afterAll(() => h?.close());

async function createWithPdf(pdfName: string) {
  const doc = await PDFDocument.create();
  doc.addPage();
  const b = contractBody(own);
  b.contractInfo = {
    ...b.contractInfo,
    contractPDF: pdfName,
    contractPdfInByteArrayForm: Buffer.from(await doc.save()).toString('base64'),
  };
  const res = await h.request('POST', `${base}/create-contract`, { body: b, token });
  expect(res.status).toBe(200);
  const key = res.body.data.contractKey as string;
  const [row] = await h.db
    .select({ contractId: contracts.contractId, fileName: files.fileName })
    .from(contracts)
    .innerJoin(files, eq(files.id, contracts.contractPdfFileId))
    .where(eq(contracts.contractKey, key));
  return { key, ...row };
}

const getPdf = (key: string, contractId: string, query = '') =>
  h.app.request(`${base}/pdf/${key}?verificationId=${contractId}${query}`, { headers: { authorization: `Bearer ${token}` } });

describe('file names', () => {
  it('strips every bidirectional control, path parts and control characters', () => {
    expect(cleanFileName(`rechnung${bidi.join('')}.pdf`)).toBe('rechnung.pdf');
    expect(cleanFileName('rechnung\u202Efdp.exe')).toBe('rechnungfdp.exe');
    expect(cleanFileName('../a\\b\u0000c.pdf')).toBe('.._a_bc.pdf');
    // Letters of right-to-left scripts stay: only the invisible controls go.
    expect(cleanFileName('عقد.pdf')).toBe('عقد.pdf');
    expect(cleanFileName(` ${bidi.join('')} `)).toBe('');
  });

  it('a contract PDF is stored and served without them', async () => {
    const { key, contractId, fileName } = await createWithPdf('vertrag\u202Efdp.exe');
    expect(fileName).toBe('vertragfdp.exe.pdf');
    const detail = await h.request('GET', `${base}/contract/id/${key}`, { token });
    expect(detail.body.data.contractInfo.contractPDF).toBe('vertragfdp.exe.pdf');

    // A name stored before the fix is still served clean.
    await h.db.update(files).set({ fileName: 'alt\u2067fdp.exe\u2069.pdf' }).where(eq(files.fileName, fileName));
    const res = await getPdf(key, contractId);
    expect(res.status).toBe(200);
    const disposition = decodeURIComponent(res.headers.get('content-disposition') ?? '');
    expect(disposition).toContain('altfdp.exe.pdf');
    expect(disposition).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
  });

  it('migration 0009 cleans the names stored before', async () => {
    const { fileName } = await createWithPdf('vorher.pdf');
    await h.db.update(files).set({ fileName: 'vor\u202Eher.pdf' }).where(eq(files.fileName, fileName));
    const statements = readFileSync(path.join(migrationsFolder, '0009_clean_bidi_file_names.sql'), 'utf8').split(
      '--> statement-breakpoint',
    );
    for (const statement of statements) await h.db.execute(sql.raw(statement));
    const left = await h.db
      .select({ n: sql<number>`count(*)::int` })
      .from(files)
      .where(sql`${files.fileName} ~ '[\u202A-\u202E]'`);
    expect(left[0].n).toBe(0);
    expect((await h.db.select().from(files).where(eq(files.fileName, 'vorher.pdf'))).length).toBe(1);
  });
});

describe('GET /contract-management/pdf/{key}', () => {
  it('answers a download unless the caller asks to view it; nosniff and a sandboxing policy always', async () => {
    const { key, contractId } = await createWithPdf('Vertrag.pdf');
    const download = await getPdf(key, contractId);
    const viewed = await getPdf(key, contractId, '&view=true');
    const notViewed = await getPdf(key, contractId, '&view=false');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="Vertrag\.pdf"/);
    expect(notViewed.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(viewed.headers.get('content-disposition')).toMatch(/^inline; filename="Vertrag\.pdf"/);
    for (const res of [download, viewed, notViewed]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      const policy = (res.headers.get('content-security-policy') ?? '').split(';').map((d) => d.trim());
      expect(policy).toContain('sandbox');
      expect(policy).toContain("default-src 'none'");
    }
    const bad = await h.request('GET', `${base}/pdf/${key}?verificationId=${contractId}&view=yes`, { token });
    expect(bad.status).toBe(400);
    expect(bad.body.errorCodeResponse).toBe('VALIDATION_ERROR');
  });
});
