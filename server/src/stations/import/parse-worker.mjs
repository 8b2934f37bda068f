// @ts-check
/**
 * Reads a station import's file (`README.md` beside this file) in a worker thread of its own
 * (`parse-file.ts` starts it with a CPU-time and a memory limit and ends it when either is exceeded),
 * so a large or crafted file costs this thread, never the server's event loop. Answers the rows as
 * trimmed strings by column, or what is wrong with the file as a whole.
 * Plain JavaScript: Node 20 gives a worker thread no module hooks, so tsx cannot load TypeScript here.
 * Each format's library is imported only for a file of that format: a worker starts per file, and
 * loading SheetJS and exceljs for every CSV made a busy machine run out of the time limit.
 */
import { Buffer } from 'node:buffer';
import { readlinkSync } from 'node:fs';
import { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { createInflateRaw } from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';

const port = parentPort;
if (!port) throw new Error('parse-worker.mjs must run in a worker thread');

/** Mirrors contract/station-import.ts (a worker cannot import TypeScript). */
const COLUMNS = ['locationId', 'operatorId', 'cpId', 'wallboxModel', 'connectorCount'];
const REQUIRED = ['locationId', 'wallboxModel', 'connectorCount'];
const SEPARATORS = [';', ',', '\t', '|'];
const PARKING_LOT = /^parkinglot(\d{1,2})$/;
const MAX_ZIP_ENTRIES = 2000;

class FileError extends Error {
  /** @param {string} code @param {Record<string, unknown>} detail */
  constructor(code, detail) {
    super(code);
    this.code = code;
    this.detail = detail;
  }
}

const parsingCode = { csv: 'ERROR_PARSING_CSV_FILE', xlsx: 'ERROR_PARSING_XLSX_FILE', xls: 'ERROR_PARSING_XLS_FILE' };

/**
 * Where each column is in the header row: `{ locationId: 0, …, lots: [index of parkingLot1, …] }`.
 * @param {string[]} header @param {'csv' | 'xlsx' | 'xls'} format
 */
function columnsOf(header, format) {
  /** @type {Record<string, number>} */
  const at = {};
  /** @type {number[]} */
  const lots = [];
  header.forEach((raw, i) => {
    const name = String(raw ?? '')
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase();
    const column = COLUMNS.find((c) => c.toLowerCase() === name);
    if (column && at[column] === undefined) at[column] = i;
    const lot = PARKING_LOT.exec(name);
    if (lot && Number(lot[1]) >= 1) lots[Number(lot[1]) - 1] ??= i;
  });
  const missing = REQUIRED.filter((c) => at[c] === undefined);
  if (missing.length > 0) throw new FileError(parsingCode[format], { reason: 'missingColumns', columns: missing });
  // parkingLot1, parkingLot3 without 2: connector 2 has no column, so it has no lot.
  return { at, lots: Array.from(lots, (i) => (i === undefined ? -1 : i)) };
}

/** @param {unknown} v */
function cellText(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    const o = /** @type {Record<string, unknown>} */ (v);
    if (Array.isArray(o.richText))
      return o.richText
        .map((t) => String(t?.text ?? ''))
        .join('')
        .trim();
    if ('result' in o) return cellText(o.result);
    if ('text' in o) return cellText(o.text);
  }
  return '';
}

/**
 * Collects the data rows under the row limit.
 * @param {'csv' | 'xlsx' | 'xls'} format @param {number} maxRows
 */
function rowCollector(format, maxRows) {
  /** @type {ReturnType<typeof columnsOf> | undefined} */
  let cols;
  /** @type {{ row: number; locationId: string; operatorId: string; cpId: string; wallboxModel: string; connectorCount: string; parkingLots: string[] }[]} */
  const rows = [];
  return {
    rows,
    /** @param {number} rowNumber @param {unknown[]} cells */
    add(rowNumber, cells) {
      const texts = cells.map(cellText);
      if (texts.every((t) => t === '')) return;
      if (!cols) {
        cols = columnsOf(texts, format);
        return;
      }
      if (rows.length >= maxRows) throw new FileError(parsingCode[format], { reason: 'tooManyRows', maxRows });
      const { at, lots } = cols;
      const get = (/** @type {string} */ c) => (at[c] === undefined ? '' : (texts[at[c]] ?? ''));
      const parkingLots = lots.map((i) => (i < 0 ? '' : (texts[i] ?? '')));
      while (parkingLots.length > 0 && parkingLots[parkingLots.length - 1] === '') parkingLots.pop();
      rows.push({
        row: rowNumber,
        locationId: get('locationId'),
        operatorId: get('operatorId'),
        cpId: get('cpId'),
        wallboxModel: get('wallboxModel'),
        connectorCount: get('connectorCount'),
        parkingLots,
      });
    },
    finish() {
      if (!cols || rows.length === 0) throw new FileError(parsingCode[format], { reason: 'empty' });
      return rows;
    },
  };
}

/** Valid UTF-8 is UTF-8; anything else is what German Excel writes, Windows-1252. @param {Uint8Array} bytes */
async function decodeText(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    const { default: iconv } = await import('iconv-lite');
    return iconv.decode(Buffer.from(bytes), 'win1252');
  }
}

/** @param {string} text @param {string} separator */
async function readCsv(text, separator, maxRows) {
  // The header alone first: a file written with another separator than the configured one would
  // only miss columns, which says less than naming the separator it uses.
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const splits = (/** @type {string} */ s) => firstLine.split(s).map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase());
  const hasColumns = (/** @type {string} */ s) => REQUIRED.every((c) => splits(s).includes(c.toLowerCase()));
  if (!hasColumns(separator)) {
    const other = SEPARATORS.find((s) => s !== separator && hasColumns(s));
    if (other) throw new FileError('CSV_SEPARATOR_NOT_SUPPORTED', { separator, fileSeparator: other });
  }
  const collect = rowCollector('csv', maxRows);
  const { parse: parseCsv } = await import('csv-parse');
  const parser = Readable.from([text]).pipe(
    parseCsv({ delimiter: separator, bom: true, relax_column_count: true, max_record_size: 64 * 1024 }),
  );
  // Rows as a spreadsheet numbers them: a quoted line break stays in its cell, an empty line is a row.
  let row = 0;
  try {
    for await (const record of parser) collect.add(++row, record);
  } catch (err) {
    if (err instanceof FileError) throw err;
    throw new FileError('ERROR_PARSING_CSV_FILE', { reason: 'unreadable' });
  }
  return collect.finish();
}

/**
 * A zip bomb is refused before exceljs inflates anything: the central directory's declared sizes
 * and entry count first, then every entry inflated once into nothing, counting bytes, so headers
 * that lie about the sizes are caught as well.
 * @param {Uint8Array} bytes @param {number} maxUncompressed
 */
async function checkZip(bytes, maxUncompressed) {
  const { default: yauzl } = await import('yauzl');
  return new Promise((resolve, reject) => {
    const tooLarge = () => new FileError('ERROR_PARSING_XLSX_FILE', { reason: 'tooLarge' });
    yauzl.fromBuffer(Buffer.from(bytes), { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(new FileError('ERROR_PARSING_XLSX_FILE', { reason: 'unreadable' }));
      let entries = 0;
      let declared = 0;
      let inflated = 0;
      let failed = false;
      const fail = (/** @type {Error} */ e) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(e instanceof FileError ? e : new FileError('ERROR_PARSING_XLSX_FILE', { reason: 'unreadable' }));
      };
      zip.on('error', fail);
      zip.on('end', () => resolve(undefined));
      zip.on('entry', (/** @type {import('yauzl').Entry} */ entry) => {
        entries++;
        declared += entry.uncompressedSize;
        if (entries > MAX_ZIP_ENTRIES || declared > maxUncompressed) return fail(tooLarge());
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        // Inflated here, not by yauzl, whose size check left a lying entry's stream hanging.
        zip.openReadStream(entry, { decompress: false }, (e, raw) => {
          if (e || !raw) return fail(e ?? new Error('no stream'));
          const stream = entry.compressionMethod === 8 ? raw.pipe(createInflateRaw()) : raw;
          raw.on('error', fail);
          stream.on('data', (/** @type {Buffer} */ chunk) => {
            inflated += chunk.length;
            if (inflated > maxUncompressed) {
              raw.destroy();
              stream.destroy();
              fail(tooLarge());
            }
          });
          stream.on('error', fail);
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.readEntry();
    });
  });
}

/** @param {Uint8Array} bytes @param {number} maxRows @param {number} maxUncompressed */
async function readXlsx(bytes, maxRows, maxUncompressed) {
  await checkZip(bytes, maxUncompressed);
  const collect = rowCollector('xlsx', maxRows);
  const { default: ExcelJS } = await import('exceljs');
  try {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'ignore',
    });
    for await (const sheet of reader) {
      for await (const row of sheet) collect.add(row.number, /** @type {unknown[]} */ (row.values).slice(1));
      break; // the first worksheet only: the template's second lists the wallbox models
    }
  } catch (err) {
    if (err instanceof FileError) throw err;
    throw new FileError('ERROR_PARSING_XLSX_FILE', { reason: 'unreadable' });
  }
  return collect.finish();
}

/** @param {Uint8Array} bytes @param {number} maxRows */
async function readXls(bytes, maxRows) {
  const collect = rowCollector('xls', maxRows);
  const XLSX = await import('@e965/xlsx');
  try {
    // sheetRows: SheetJS stops there, so a sheet of a million rows is not read whole for the limit's sake.
    const book = XLSX.read(bytes, { type: 'array', dense: true, sheetRows: maxRows + 2, cellFormula: false, cellHTML: false });
    const sheet = book.Sheets[book.SheetNames[0] ?? ''];
    if (!sheet) throw new Error('no sheet');
    /** @type {unknown[][]} */
    const rows = XLSX.utils.sheet_to_json(sheet, { header: 1, raw: false, defval: '', blankrows: true });
    const origin = XLSX.utils.decode_range(sheet['!ref'] ?? 'A1').s.r;
    rows.forEach((cells, i) => collect.add(origin + i + 1, cells));
  } catch (err) {
    if (err instanceof FileError) throw err;
    throw new FileError('ERROR_PARSING_XLS_FILE', { reason: 'unreadable' });
  }
  return collect.finish();
}

/** @param {{ bytes: Uint8Array; separator: string; maxRows: number; maxUncompressed: number }} input */
async function read({ bytes, separator, maxRows, maxUncompressed }) {
  const type = await fileTypeFromBuffer(bytes);
  if (type?.ext === 'xlsx' || type?.ext === 'zip') return { format: 'xlsx', rows: await readXlsx(bytes, maxRows, maxUncompressed) };
  if (type?.ext === 'cfb' || type?.ext === 'xls') return { format: 'xls', rows: await readXls(bytes, maxRows) };
  if (bytes.length === 0) throw new FileError('ERROR_PARSING_CSV_FILE', { reason: 'empty' });
  // Text has no magic bytes; a NUL says it is some binary file file-type does not know.
  if (type || bytes.includes(0)) throw new FileError('UNSUPPORTED_FILE_TYPE', {});
  return { format: 'csv', rows: await readCsv(await decodeText(bytes), separator, maxRows) };
}

// The thread's /proc entry (`<pid>/task/<tid>`), so parse-file.ts can limit its CPU time; none off Linux.
try {
  port.postMessage({ thread: readlinkSync('/proc/thread-self') });
} catch {
  // no /proc: the wall clock limits the parse
}

try {
  port.postMessage({ ok: true, ...(await read(/** @type {any} */ (workerData))) });
} catch (err) {
  port.postMessage(
    err instanceof FileError ? { ok: false, code: err.code, detail: err.detail } : { ok: false, code: 'UPLOAD_NOT_READABLE', detail: {} },
  );
}
