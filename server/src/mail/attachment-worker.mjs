// @ts-check
/**
 * Parses one uploaded file in a worker thread of its own (`attachment-check.ts` starts it with a
 * time and a memory limit and ends it when either is exceeded), so a crafted file costs this
 * thread, never the server's event loop. Answers one verdict: 'ok', 'invalid' or 'active-content'.
 * Plain JavaScript: Node 20 gives a worker thread no module hooks, so tsx cannot load TypeScript here.
 */
import { Buffer } from 'node:buffer';
import { parentPort, workerData } from 'node:worker_threads';
import jpeg from 'jpeg-js';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib';
import { PNG } from 'pngjs';

const port = parentPort;
if (!port) throw new Error('attachment-worker.mjs must run in a worker thread');

/** Names that make a PDF run code or start programs when opened (an /OpenAction or /AA points at one of these). */
const ACTIVE_NAMES = new Set(['/JS', '/JavaScript', '/Launch']);

/** Whether any object of the document (object streams included, names with #xx escapes decoded) names an active feature. */
function hasActiveContent(/** @type {PDFDocument} */ doc) {
  /** @type {unknown[]} */
  const stack = doc.context.enumerateIndirectObjects().map(([, obj]) => obj);
  let seen = 0;
  while (stack.length > 0) {
    const obj = stack.pop();
    if (++seen > 5_000_000) return true;
    if (obj instanceof PDFName) {
      if (ACTIVE_NAMES.has(obj.asString())) return true;
    } else if (obj instanceof PDFStream) {
      stack.push(obj.dict);
    } else if (obj instanceof PDFDict) {
      for (const [key, value] of obj.entries()) {
        stack.push(key, value);
      }
    } else if (obj instanceof PDFArray) {
      for (const value of obj.asArray()) stack.push(value);
    }
  }
  return false;
}

/** @param {string} ext @param {Uint8Array} bytes @param {number} maxPixels @returns {Promise<'ok' | 'invalid' | 'active-content'>} */
async function verdict(ext, bytes, maxPixels) {
  try {
    switch (ext) {
      case 'pdf': {
        const doc = await PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false, ignoreEncryption: true });
        if (doc.getPageCount() === 0) return 'invalid';
        return hasActiveContent(doc) ? 'active-content' : 'ok';
      }
      case 'png':
        PNG.sync.read(Buffer.from(bytes));
        return 'ok';
      case 'jpg':
        jpeg.decode(bytes, { maxResolutionInMP: maxPixels / 1e6, maxMemoryUsageInMB: 512, useTArray: true });
        return 'ok';
      case 'heic': {
        const { default: decodeHeic } = await import('heic-decode');
        const image = await decodeHeic({ buffer: bytes });
        return image.width > 0 && image.height > 0 ? 'ok' : 'invalid';
      }
      default:
        return 'invalid';
    }
  } catch {
    return 'invalid';
  }
}

const { ext, bytes, maxPixels } = /** @type {{ ext: string; bytes: Uint8Array; maxPixels: number }} */ (workerData);
port.postMessage(await verdict(ext, bytes, maxPixels));
