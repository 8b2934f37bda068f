import { Readable } from 'node:stream';
import { berlinDate } from '../../../contract/contracts';
import iconv from 'iconv-lite';
import { fixedDecimal, safeCell } from '../bookings/german-csv';
import { ApiError } from '../http/errors';
import { invalidValue, type ErpAccounts, type ErpQuery, type ErpSource } from './erp';
import { postingsOf } from './erp-xml';
import type { ErpBill } from './queries';

/**
 * The DATEV 'Buchungsstapel' (EXTF format 700, data category 21, format version 13; issue 25):
 * the file German tax advisors import, made of the same postings as the ERP XML. Field list and
 * order: DATEV's 'DATEV-Format Buchungsstapel' description (developer.datev.de, dtvf/formate,
 * version 13: a header of 31 fields, 125 columns), cross-checked with open-source exporters (see
 * the README). Windows-1252, ';', CRLF, texts in quotes, amounts with a decimal comma and no sign.
 *
 * Each bill gives two lines on the end customer's debit account (Soll): its net against the net
 * ledger account and its VAT against the tax ledger account, so the bill's gross is on the debit
 * account and every line balances itself. The net line carries BU key 40 ('Aufhebung der
 * Automatik'): the VAT is posted explicitly, so an automatic revenue account must not add it again.
 * Stripe's bills (STRIPE_SEPA, STRIPE_CARD; issue 35) are posted the same way on the operator's
 * clearing account (Geldtransitkonto) instead of the debit account: Stripe holds the money, and
 * its payout is booked from there to the bank.
 */

export const DATEV_FORMAT = { version: 700, category: 21, name: 'Buchungsstapel', formatVersion: 13 } as const;

/** The 125 columns of format version 13, in DATEV's order. */
export const DATEV_COLUMNS = [
  'Umsatz (ohne Soll/Haben-Kz)',
  'Soll/Haben-Kennzeichen',
  'WKZ Umsatz',
  'Kurs',
  'Basis-Umsatz',
  'WKZ Basis-Umsatz',
  'Konto',
  'Gegenkonto (ohne BU-Schlüssel)',
  'BU-Schlüssel',
  'Belegdatum',
  'Belegfeld 1',
  'Belegfeld 2',
  'Skonto',
  'Buchungstext',
  'Postensperre',
  'Diverse Adressnummer',
  'Geschäftspartnerbank',
  'Sachverhalt',
  'Zinssperre',
  'Beleglink',
  ...[1, 2, 3, 4, 5, 6, 7, 8].flatMap((i) => [`Beleginfo - Art ${i}`, `Beleginfo - Inhalt ${i}`]),
  'KOST1 - Kostenstelle',
  'KOST2 - Kostenstelle',
  'Kost-Menge',
  'EU-Land u. UStID (Bestimmung)',
  'EU-Steuersatz (Bestimmung)',
  'Abw. Versteuerungsart',
  'Sachverhalt L+L',
  'Funktionsergänzung L+L',
  'BU 49 Hauptfunktionstyp',
  'BU 49 Hauptfunktionsnummer',
  'BU 49 Funktionsergänzung',
  ...Array.from({ length: 20 }, (_, i) => [`Zusatzinformation - Art ${i + 1}`, `Zusatzinformation- Inhalt ${i + 1}`]).flat(),
  'Stück',
  'Gewicht',
  'Zahlweise',
  'Forderungsart',
  'Veranlagungsjahr',
  'Zugeordnete Fälligkeit',
  'Skontotyp',
  'Auftragsnummer',
  'Buchungstyp',
  'USt-Schlüssel (Anzahlungen)',
  'EU-Land (Anzahlungen)',
  'Sachverhalt L+L (Anzahlungen)',
  'EU-Steuersatz (Anzahlungen)',
  'Erlöskonto (Anzahlungen)',
  'Herkunft-Kz',
  'Buchungs GUID',
  'KOST-Datum',
  'SEPA-Mandatsreferenz',
  'Skontosperre',
  'Gesellschaftername',
  'Beteiligtennummer',
  'Identifikationsnummer',
  'Zeichnernummer',
  'Postensperre bis',
  'Bezeichnung SoBil-Sachverhalt',
  'Kennzeichen SoBil-Buchung',
  'Festschreibung',
  'Leistungsdatum',
  'Datum Zuord. Steuerperiode',
  'Fälligkeit',
  'Generalumkehr (GU)',
  'Steuersatz',
  'Land',
  'Abrechnungsreferenz',
  'BVV-Position',
  'EU-Land u. UStID (Ursprung)',
  'EU-Steuersatz (Ursprung)',
  'Abw. Skontokonto',
] as const;

const col = (name: (typeof DATEV_COLUMNS)[number]) => DATEV_COLUMNS.indexOf(name);

/** The characters Windows-1252 has (iconv-lite answers U+FFFD for its five undefined bytes). */
const WIN1252 = new Set([...iconv.decode(Buffer.from(Array.from({ length: 256 }, (_, i) => i)), 'win1252')].filter((c) => c !== '\ufffd'));
/** Letters NFKD does not take apart, written as DATEV's importers read them. */
const LATIN_FALLBACK: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ħ: 'h',
  Ħ: 'H',
  ı: 'i',
  ŧ: 't',
  Ŧ: 'T',
  ĸ: 'k',
  ŋ: 'ng',
  Ŋ: 'NG',
  ə: 'e',
  Ə: 'E',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2212': '-',
  '\u2032': "'",
  '\u2033': '"',
};
const decomposed = (c: string) =>
  [...c.normalize('NFKD')]
    .filter((d) => !/\p{M}/u.test(d))
    .map((d) => (WIN1252.has(d) ? d : (LATIN_FALLBACK[d] ?? '?')))
    .join('');
/** Composed first ('Ǆ' is 'DŽ', both Windows-1252), then taken apart where still needed ('ő' is 'o'). */
const transliterateOne = (c: string) => [...c.normalize('NFKC')].map((d) => (WIN1252.has(d) ? d : decomposed(d))).join('');

/**
 * A text in the characters Windows-1252 has: what it lacks taken apart (NFKD: 'ő' is 'o', 'ﬁ' 'fi',
 * 'Ș' 'S') or written as the fallback table says ('ł' is 'l'); only what neither knows (Cyrillic,
 * an emoji) becomes '?'.
 */
export const toWin1252 = (v: string) => v.replace(/[^\p{ASCII}]/gu, (c) => (WIN1252.has(c) ? c : transliterateOne(c)));

/** A DATEV text: in Windows-1252, quoted, quotes doubled, kept as text for Excel too, cut to DATEV's length. */
export const datevText = (v: string, max = 60) => `"${safeCell(toWin1252(v)).slice(0, max).replaceAll('"', '""')}"`;

/** Berater and Mandant: the ERP value's client number written 'Beraternummer/Mandantennummer'. */
export function datevNumbers(a: ErpAccounts) {
  const m = /^(\d{4,7})\s*\/\s*(\d{1,5})$/.exec(a.clientNumber);
  if (!m)
    throw new ApiError(404, 'ERP_SYSTEM_PARAMETERS_NOT_FOUND', 'DATEV needs the consultant and the client number', {
      cpoId: a.cpoId,
      missing: 'consultantNumber',
      expected: 'Beraternummer/Mandantennummer',
    });
  // One 'Sachkontenlänge' in the header: every ledger account must have it.
  for (const field of ['taxLedgerAccountNr', 'clearingAccountNr'] as const) {
    const v = a[field];
    if (v !== undefined && v.length !== a.netLedgerAccountNr.length)
      throw invalidValue(field, `${a.netLedgerAccountNr.length} digits, as the net ledger account (DATEV Sachkontenlänge)`, {
        cpoId: a.cpoId,
        value: v,
      });
  }
  return { consultant: m[1], client: m[2] };
}

/**
 * DATEV's debtor accounts have one digit more than its ledger accounts (the header's
 * 'Sachkontenlänge'): with 4-digit ledger accounts, debtors are 10000–69999. Checks the client
 * number and the ledger accounts first (`datevNumbers`), before any bill is read. Stripe's bills
 * are posted on the clearing account, a ledger account, so no debtor's length matters then.
 */
export function datevDebtorDigits(a: ErpAccounts): number | undefined {
  datevNumbers(a);
  return a.clearingAccountNr === undefined ? a.netLedgerAccountNr.length + 1 : undefined;
}

/** A DATEV batch lies in one fiscal year: its document dates (DDMM) carry no year. */
export function assertOneYear(q: ErpQuery) {
  if (q.startDate.slice(0, 4) !== q.endDate.slice(0, 4))
    throw new ApiError(400, 'VALIDATION_ERROR', 'A DATEV batch covers one calendar year', undefined, [
      { path: 'endDate', message: 'datevOneYear' },
    ]);
}

const compact = (iso: string) => iso.replaceAll('-', '');

/** The header line: 31 fields, in the published order. */
export function datevHeader(q: ErpQuery, a: ErpAccounts, createdAt: Date) {
  const n = datevNumbers(a);
  const stamp = createdAt
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(0, 17);
  return [
    '"EXTF"',
    DATEV_FORMAT.version,
    DATEV_FORMAT.category,
    `"${DATEV_FORMAT.name}"`,
    DATEV_FORMAT.formatVersion,
    stamp,
    '',
    '"RE"',
    '"CPO Cockpit"',
    '""',
    n.consultant,
    n.client,
    `${q.startDate.slice(0, 4)}0101`,
    a.netLedgerAccountNr.length,
    compact(q.startDate),
    compact(q.endDate),
    datevText(`Rechnungen ${q.paymentMethod}`, 30),
    '""',
    1,
    0,
    0,
    '"EUR"',
    '',
    '""',
    '',
    '',
    '""',
    '',
    '',
    '',
    '""',
  ].join(';');
}

const amount = (c: bigint) => fixedDecimal(`${c / 100n}.${String(c % 100n).padStart(2, '0')}`, 2).replace('.', ',');

/**
 * A bill's lines (net, VAT), each of all 125 columns; a posting of 0,00 (the VAT of a 0 % bill,
 * both of a 0 € bill) is left out: DATEV refuses an amount of zero.
 */
export function datevLines(b: ErpBill, a: ErpAccounts): string[] {
  const [gross, net, vat] = postingsOf(b, a);
  const day = berlinDate(b.billGenerationDate);
  return [net, vat]
    .filter((p) => p.cents !== 0n)
    .map((p) => {
      const f: (string | number)[] = DATEV_COLUMNS.map(() => '');
      // A credit (a negative bill) turns the side, as DATEV's amounts carry no sign.
      f[col('Umsatz (ohne Soll/Haben-Kz)')] = amount(p.cents < 0n ? -p.cents : p.cents);
      f[col('Soll/Haben-Kennzeichen')] = p.cents < 0n ? '"H"' : '"S"';
      f[col('WKZ Umsatz')] = '"EUR"';
      f[col('Konto')] = gross.account;
      f[col('Gegenkonto (ohne BU-Schlüssel)')] = p.account;
      f[col('BU-Schlüssel')] = p.type === 'NET' ? '"40"' : '""';
      f[col('Belegdatum')] = `${day.slice(8, 10)}${day.slice(5, 7)}`;
      f[col('Belegfeld 1')] = datevText(b.billNumber, 36);
      f[col('Buchungstext')] = datevText(`${p.type === 'NET' ? 'Netto' : 'USt'} ${b.lastName}, ${b.firstName}`, 60);
      f[col('KOST1 - Kostenstelle')] = datevText(b.costCenterNumber!.trim(), 36);
      f[col('EU-Land u. UStID (Bestimmung)')] = euVatIdField(b.customerVatId ?? '');
      return f.join(';');
    });
}

/**
 * 'EU-Land u. UStID (Bestimmung)' takes an EU VAT id (a member state's code, then its number; at most
 * 15 characters), which DATEV checks on import. The contract's ERP 'vatId' is digits only (spec 2
 * §5), an id of the ERP's own, so it goes there only when it is one: never cut to fit and never as
 * a bare number (which DATEV refuses); the field is left empty otherwise, as for a domestic supply.
 */
const EU_VAT_ID = /^(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI)[0-9A-Z+*]{2,13}$/;
export function euVatIdField(vatId: string): string {
  const id = vatId.replace(/\s+/g, '').toUpperCase();
  return id.length <= 15 && EU_VAT_ID.test(id) ? datevText(id, 15) : '""';
}

async function* datevChunks(q: ErpQuery, source: ErpSource, createdAt: Date) {
  yield `${datevHeader(q, source.accounts, createdAt)}\r\n${DATEV_COLUMNS.join(';')}\r\n`;
  let lines: string[] = [];
  for await (const b of source.bills) {
    lines.push(...datevLines(b, source.accounts));
    if (lines.length >= 2000) {
      yield `${lines.join('\r\n')}\r\n`;
      lines = [];
    }
  }
  if (lines.length) yield `${lines.join('\r\n')}\r\n`;
}

/** The file as a web stream of Windows-1252 bytes. */
export function datevFile(q: ErpQuery, source: ErpSource, createdAt = new Date()): ReadableStream<Uint8Array> {
  async function* encoded() {
    for await (const text of datevChunks(q, source, createdAt)) yield iconv.encode(text, 'win1252');
  }
  return Readable.toWeb(Readable.from(encoded())) as ReadableStream<Uint8Array>;
}
