import { crc32, deflateRawSync } from 'node:zlib';
import * as XLSX from '@e965/xlsx';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { templateColumns } from '../../../contract/station-import';

/** Files for the station import's tests and bench, built in the test (never checked in). */

export type Cells = Record<string, string | number>;

const table = (rows: Cells[], columns: readonly string[] = templateColumns) => [
  [...columns],
  ...rows.map((r) => columns.map((c) => (r[c] === undefined ? '' : String(r[c])))),
];

const quoted = (value: string, separator: string) =>
  /["\r\n]/.test(value) || value.includes(separator) ? `"${value.replace(/"/g, '""')}"` : value;

/** A CSV as German Excel writes it: BOM, CRLF, quoted where needed; `encoding: 'win1252'` without a BOM. */
export function csvFile(
  rows: Cells[],
  opts: { separator?: string; encoding?: 'utf8' | 'win1252'; columns?: readonly string[] } = {},
): Buffer {
  const separator = opts.separator ?? ';';
  const text = table(rows, opts.columns)
    .map((line) => line.map((v) => quoted(v, separator)).join(separator))
    .join('\r\n');
  return opts.encoding === 'win1252' ? iconv.encode(`${text}\r\n`, 'win1252') : Buffer.from(`\uFEFF${text}\r\n`, 'utf8');
}

export async function xlsxFile(rows: Cells[], columns: readonly string[] = templateColumns): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Ladestationen');
  for (const line of table(rows, columns)) sheet.addRow(line);
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** The old binary format (BIFF8 in a CFB container), as Excel 97–2003 saves it. */
export function xlsFile(rows: Cells[]): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(table(rows)), 'Ladestationen');
  return Buffer.from(XLSX.write(book, { type: 'buffer', bookType: 'xls' }) as Uint8Array);
}

/**
 * A ZIP named like an XLSX whose one big entry inflates to `inflated` bytes of zeros (a zip bomb);
 * `declared` is the size its headers claim (a lying one makes only the inflating count catch it).
 */
export function zipBomb(inflated: number, declared = inflated): Buffer {
  const data = Buffer.alloc(inflated);
  const packed = deflateRawSync(data, { level: 9 });
  const crc = crc32(data);
  const entries = [
    { name: '[Content_Types].xml', body: Buffer.from('<Types/>'), packed: deflateRawSync(Buffer.from('<Types/>')) },
    { name: 'xl/worksheets/sheet1.xml', body: data, packed, crc, size: declared },
  ];
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const size = e.size ?? e.body.length;
    const sum = e.crc ?? crc32(e.body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(sum, 14);
    local.writeUInt32LE(e.packed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(sum, 16);
    central.writeUInt32LE(e.packed.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.packed);
    centrals.push(central, name);
    offset += 30 + name.length + e.packed.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** The 8-byte signature and an IHDR: what file-type needs to call it a PNG. */
export const pngBytes = () =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  ]);
