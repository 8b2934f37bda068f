import jpeg from 'jpeg-js';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';

/**
 * Whether an attachment is what its first bytes claim, by parsing it whole with a library for the
 * format: a PDF must load as a document with at least one page (a PDF header in front of HTML is
 * not a PDF), an image must decode. Limits keep a crafted file from taking the server's memory.
 */
export async function parsesAs(ext: string, bytes: Uint8Array): Promise<boolean> {
  try {
    switch (ext) {
      case 'pdf': {
        const doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false, ignoreEncryption: true });
        return doc.getPageCount() > 0;
      }
      case 'png':
        PNG.sync.read(Buffer.from(bytes));
        return true;
      case 'jpg':
        jpeg.decode(bytes, { maxResolutionInMP: 100, maxMemoryUsageInMB: 512, useTArray: true });
        return true;
      case 'heic': {
        // Loaded when a HEIC photo arrives: libheif's WASM memory is ~25 MB the idle server need not hold.
        const { default: decodeHeic } = await import('heic-decode');
        const image = await decodeHeic({ buffer: bytes });
        return image.width > 0 && image.height > 0;
      }
      default:
        return false;
    }
  } catch {
    return false;
  }
}
