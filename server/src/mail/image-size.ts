/**
 * The pixel count an image declares in its header (PNG IHDR, JPEG SOF, HEIC ispe), read without
 * decoding anything: a 1 MB PNG can declare 16000 × 16000 pixels and take GBs once decoded, so the
 * declared size is checked before any decoder sees the file. `undefined` when the header holds none.
 */
export function declaredPixels(ext: string, bytes: Uint8Array): number | undefined {
  switch (ext) {
    case 'png':
      return pngPixels(bytes);
    case 'jpg':
      return jpegPixels(bytes);
    case 'heic':
      return heicPixels(bytes);
    default:
      return undefined;
  }
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const ascii = (bytes: Uint8Array, at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));

/** The first chunk after the 8-byte signature must be IHDR: width and height as 32-bit big-endian. */
function pngPixels(bytes: Uint8Array): number | undefined {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') return undefined;
  const v = view(bytes);
  return v.getUint32(16) * v.getUint32(20);
}

/** Start-of-frame markers (C0–CF without C4 DHT, C8 JPG and CC DAC): height and width after the precision byte. */
const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Walks the marker segments up to the scan; the largest frame counts (a file may carry a thumbnail frame first). */
function jpegPixels(bytes: Uint8Array): number | undefined {
  const v = view(bytes);
  let at = 2;
  let largest: number | undefined;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return largest;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return largest;
    const length = v.getUint16(at + 2);
    if (isSof(marker) && at + 9 <= bytes.length) {
      const pixels = v.getUint16(at + 5) * v.getUint16(at + 7);
      largest = Math.max(largest ?? 0, pixels);
    }
    at += 2 + length;
  }
  return largest;
}

/** Every `ispe` property (image spatial extent: version and flags, width, height); the largest counts (a grid's). */
function heicPixels(bytes: Uint8Array): number | undefined {
  const v = view(bytes);
  let largest: number | undefined;
  for (let at = 4; at + 16 <= bytes.length; at++) {
    if (bytes[at] === 0x69 && ascii(bytes, at, 4) === 'ispe') {
      largest = Math.max(largest ?? 0, v.getUint32(at + 8) * v.getUint32(at + 12));
    }
  }
  return largest;
}
