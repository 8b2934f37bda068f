import { describe, expect, it } from 'vitest';
import { checkAttachment, toByteValues } from './attachment';

describe('support attachment', () => {
  it('accepts pdf and images', () => {
    expect(checkAttachment({ name: 'a.pdf', type: 'application/pdf', size: 10 })).toBe('ok');
    expect(checkAttachment({ name: 'Foto.JPEG', type: 'image/jpeg', size: 10 })).toBe('ok');
    expect(checkAttachment({ name: 'IMG_1.heic', type: '', size: 10 })).toBe('ok');
  });
  it('refuses other types, also when only the name pretends', () => {
    expect(checkAttachment({ name: 'notes.txt', type: 'text/plain', size: 10 })).toBe('invalidType');
    expect(checkAttachment({ name: 'evil.pdf', type: 'application/x-msdownload', size: 10 })).toBe('invalidType');
  });
  it('refuses files over 5 MB', () => {
    expect(checkAttachment({ name: 'big.pdf', type: 'application/pdf', size: 5 * 1024 * 1024 + 1 })).toBe('tooLarge');
  });
  it('turns a file into byte values', async () => {
    expect(await toByteValues(new Blob([new Uint8Array([37, 80, 68, 70])]))).toEqual([37, 80, 68, 70]);
  });
});
