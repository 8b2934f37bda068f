import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/**
 * The one CSV writer of every export that people open in German Excel (issue 25): UTF-8 with BOM
 * (else Excel reads it as Windows-1252), `;` (Excel's separator under a German locale), CRLF,
 * decimal comma, dd.MM.yyyy. Every text cell is escaped here, so no export can forget it: a cell
 * Excel or LibreOffice would run as a formula (=, +, -, @, tab or CR first) is prefixed with an
 * apostrophe and so kept as text (OWASP's advice for CSV injection). Numbers and dates are built by
 * the helpers below and are the only cells that pass unescaped, so a negative amount stays a number.
 */

/** A cell the writer must not escape: a number or date already in its German form. */
export interface FormattedCell {
  readonly formatted: string;
}
export type CsvCell = string | null | undefined | FormattedCell;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell as Excel must show it: as text, never as a formula. */
export const safeCell = (v: string | null | undefined) => {
  const s = v ?? '';
  return FORMULA_START.test(s) ? `'${s}` : s;
};

const cell = (v: CsvCell) => (v !== null && typeof v === 'object' ? v.formatted : safeCell(v));

/**
 * A decimal with `digits` places and a comma. A string (a numeric column as PostgreSQL sends it,
 * '12.5') is rounded half up in decimal, never through a binary float; a number is rounded by toFixed.
 */
export function decimal(v: string | number, digits: number): FormattedCell {
  if (typeof v === 'number') return { formatted: v.toFixed(digits).replace('.', ',') };
  return { formatted: fixedDecimal(v, digits).replace('.', ',') };
}

/** '12.345' to 2 places → '12.35' (half up, away from zero), exactly. */
export function fixedDecimal(v: string, digits: number): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(v.trim());
  if (!m) throw new Error('not a decimal');
  const [, sign, whole, frac = ''] = m;
  const scaled = BigInt(whole + frac.padEnd(digits + 1, '0').slice(0, digits + 1));
  const rounded = (scaled + 5n) / 10n;
  const s = rounded.toString().padStart(digits + 1, '0');
  const text = digits ? `${s.slice(0, -digits)}.${s.slice(-digits)}` : s;
  return rounded === 0n ? text : `${sign}${text}`;
}

/** yyyy-MM-dd → dd.MM.yyyy; empty stays empty. */
export const day = (iso: string | null | undefined): FormattedCell => ({
  formatted: iso ? iso.slice(0, 10).split('-').reverse().join('.') : '',
});

const berlin = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
/** An instant as Berlin wall time, dd.MM.yyyy HH:mm. */
export const dateTime = (iso: string | Date | null | undefined): FormattedCell => ({
  formatted: iso ? berlin.format(typeof iso === 'string' ? new Date(iso) : iso).replace(',', '') : '',
});

/**
 * The file as a web stream: the header line, then each record as the generator yields it. The
 * generator is pulled only as fast as the client reads (stream backpressure), and returns when the
 * client goes away, so no further page is read for a download nobody receives.
 */
export function germanCsv(columns: readonly string[], records: AsyncIterable<readonly CsvCell[]>): ReadableStream<Uint8Array> {
  async function* cells() {
    for await (const r of records) yield r.map(cell);
  }
  // A lone CR or LF inside a cell is quoted too: unquoted, Excel would start a new row there.
  const csv = stringify({
    delimiter: ';',
    bom: true,
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    quoted_match: /[\r\n]/,
  });
  const source = Readable.from(cells());
  source.on('error', (e) => csv.destroy(e));
  csv.on('close', () => source.destroy());
  return Readable.toWeb(source.pipe(csv)) as ReadableStream<Uint8Array>;
}
