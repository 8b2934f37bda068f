import { SUPPORT_ATTACHMENT_MAX_BYTES } from '../../../contract/auth';

/** Spec 1 §2: pdf, png, jpg, jpeg, heic. The server checks the content; this is the early, friendly check. */
export const SUPPORT_ACCEPT = ['application/pdf', 'image/png', 'image/jpeg', 'image/heic', '.pdf', '.png', '.jpg', '.jpeg', '.heic'];
const EXTENSIONS = /\.(pdf|png|jpe?g|heic)$/i;
const TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/heic', 'image/heif', '']);

export type AttachmentCheck = 'ok' | 'invalidType' | 'tooLarge';

export function checkAttachment(file: Pick<File, 'name' | 'type' | 'size'>): AttachmentCheck {
  // Some browsers report HEIC with an empty type, so the name must match as well as the type.
  if (!EXTENSIONS.test(file.name) || !TYPES.has(file.type)) return 'invalidType';
  if (file.size > SUPPORT_ATTACHMENT_MAX_BYTES) return 'tooLarge';
  return 'ok';
}

/** The support call takes the file as an array of byte values (spec 1 §3). */
export async function toByteValues(file: Blob): Promise<number[]> {
  return Array.from(new Uint8Array(await file.arrayBuffer()));
}
