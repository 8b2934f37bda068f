import { randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { CONTRACT_PDF_MAX_BYTES } from '../../../contract/contracts';
import type { Db } from '../db/client';
import { cleanFileName } from '../http/file-name';
import { ApiError } from '../http/errors';
import { checkUpload, uploadRefusal } from '../mail/attachment-check';
import { insertFile } from './queries';

/** The contract PDF of the wizard (spec 2 §5): checked by content and kept in `files`. */

/** The PDF of the wizard: base64 bytes that must be a PDF by content (not by name), at most 3 MB. */
export async function readPdf(base64: string | null | undefined): Promise<Buffer | undefined> {
  if (!base64) return undefined;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > CONTRACT_PDF_MAX_BYTES)
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', '3mb', undefined, [{ path: 'contractInfo.contractPdfInByteArrayForm', message: '3mb' }]);
  const type = await fileTypeFromBuffer(bytes);
  // The route parsed the file before its transaction (`mail/upload-gate.ts`): this finds its verdict kept.
  const refusal = uploadRefusal(
    type?.ext === 'pdf' ? await checkUpload('pdf', bytes) : 'invalid',
    'contractInfo.contractPdfInByteArrayForm',
    'pdfOnly',
  );
  if (refusal) throw refusal;
  return bytes;
}

const pdfFileName = (name: string | null, contractNumber: string) => {
  const base = cleanFileName(name) || `Vertrag ${contractNumber}`;
  return base.toLowerCase().endsWith('.pdf') ? base : `${base}.pdf`;
};

/** Keeps the PDF under the name the user gave (or one made from the contract number); answers its file id. */
export async function storePdf(db: Db, pdf: Buffer, name: string | null | undefined, contractNumber: string): Promise<string> {
  const id = randomUUID();
  await insertFile(db, {
    id,
    fileName: pdfFileName(name ?? null, contractNumber),
    mimeType: 'application/pdf',
    size: pdf.length,
    content: pdf,
  });
  return id;
}
