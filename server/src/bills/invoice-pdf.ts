import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import { create, type Font as FontkitFont } from 'fontkit';
import PDFDocument from 'pdfkit';
import { centsToNumeric, type BillLine } from './compute';
import { printedLine } from './printed-line';

/**
 * The invoice PDF of a bill (issue 24): A4 in the layout of a German business letter (DIN 5008:
 * sender line and address in the envelope window, the invoice's data beside it), from the
 * operator's template (header and footer lines, contact person, payment data), with the fields
 * § 14 UStG requires, and optionally the proof of every charging request of the period on the
 * following pages, the table's header repeated on each. Noto Sans is embedded, so umlauts, ß and €
 * render in every viewer. In German, the language of the invoices' recipients.
 */

export interface InvoiceAddress {
  name: string;
  careOf?: string | null;
  street: string;
  zipCode: string;
  city: string;
  /** ISO 3166 alpha-2; DE unless told. */
  countryCode?: string;
}

/** What the operator or the contract lacks is left out of the text, never printed empty. */
export type InvoicePayment =
  | { kind: 'SEPA'; creditorId?: string; mandateReference?: string; maskedIban?: string; collectionDate?: string }
  | { kind: 'BANK_TRANSFER'; iban: string; bic?: string; bankName?: string; dueDate: string }
  | { kind: 'CARD' }
  | { kind: 'NONE' };

export interface InvoiceHistoryRow {
  start: Date;
  end: Date | null;
  place: string;
  energyKwh: string;
  costCents: bigint;
}

export interface InvoiceDocument {
  /** `iban`: the account the operator's bills are paid to (its payment data), the one IBAN the template may name. */
  issuer: InvoiceAddress & { vatId?: string | null; taxNumber?: string | null; iban?: string | null };
  /** The operator's template: up to four lines each. */
  headerLines: readonly string[];
  footerLines: readonly string[];
  contact?: { name: string; position?: string | null; phone?: string | null; email?: string | null };
  /**
   * The end customer. A business customer: the company is the buyer (BT-44) and `name` the person
   * to its attention; its VAT id is BT-48.
   */
  recipient: InvoiceAddress & { companyName?: string | null; vatId?: string | null };
  /** The buyer's own reference for the invoice (BT-10), e.g. a public buyer's Leitweg-ID. */
  buyerReference?: string | null;
  /** Where the bill is mailed to (not printed). */
  recipientEmail?: string;
  billNumber: string;
  /** Berlin dates, yyyy-MM-dd. */
  invoiceDate: string;
  periodStart: string;
  periodEnd: string;
  endCustomerId: string;
  lines: readonly BillLine[];
  vatPercent: number;
  netCents: bigint;
  vatCents: bigint;
  grossCents: bigint;
  payment: InvoicePayment;
  /** The charging-history proof, when the operator includes it. */
  history?: readonly InvoiceHistoryRow[];
}

const require = createRequire(import.meta.url);
/**
 * Noto Sans as TrueType, parsed once per process and shared by every document (pdfkit takes a
 * fontkit font; each document still embeds its own subset). Not WOFF: fontkit inflates a WOFF's whole
 * glyph table (in JavaScript) for every glyph it reads; and a font parsed per document decodes its
 * OpenType layout tables anew each time. Both were most of a bill's drawing time and of the render
 * worker's garbage (bench/README.md, zip of 500 bills).
 */
let parsed: { regular: FontkitFont; bold: FontkitFont } | undefined;
const ttf = (file: string) => create(readFileSync(require.resolve(`@expo-google-fonts/noto-sans/${file}`))) as FontkitFont;
const fonts = () => (parsed ??= { regular: ttf('400Regular/NotoSans_400Regular.ttf'), bold: ttf('700Bold/NotoSans_700Bold.ttf') });

const mm = (n: number) => (n * 72) / 25.4;
const PAGE = { width: mm(210), height: mm(297), left: mm(25), right: mm(20), bottom: mm(30) };
const CONTENT_WIDTH = PAGE.width - PAGE.left - PAGE.right;
const GREY = '#555555';

const euro = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' });
/** One formatter per digit count: each holds ICU memory outside the heap until collected (`berlinDate`). */
const decimals = new Map<number, Intl.NumberFormat>();
const decimal = (digits: number) => {
  let format = decimals.get(digits);
  if (!format)
    decimals.set(digits, (format = new Intl.NumberFormat('de-DE', { minimumFractionDigits: digits, maximumFractionDigits: digits })));
  return format;
};
/** Exact: Intl formats the decimal text itself, never a float. */
const money = (cents: bigint) => euro.format(centsToNumeric(cents) as `${number}`);
/** An IBAN as it is printed: groups of four. */
const groupsOfFour = (iban: string) => iban.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');
const germanDate = (iso: string) => iso.split('-').reverse().join('.');
const berlinDateTime = new Intl.DateTimeFormat('de-DE', {
  timeZone: 'Europe/Berlin',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const berlin = (d: Date | null) => (d ? berlinDateTime.format(d).replace(',', '') : '–');

/** A decimal text ('12.345') in German format with its own decimals ('12,345'). */
const decimalText = (text: string) => decimal(text.split('.')[1]?.length ?? 0).format(text as `${number}`);
const units = {
  DAY: ['Tag', 'Tage'],
  MON: ['Monat', 'Monate'],
  KWH: ['kWh', 'kWh'],
  C62: ['Vorgang', 'Vorgänge'],
} as const;
const unitWord = (unit: keyof typeof units, quantity: string) => units[unit][quantity === '1' ? 0 : 1];

/**
 * A line's text, quantity and unit price as the invoice shows them: quantity × price / base is the
 * printed amount (`printedLine`, the same figures as the e-invoice's).
 */
export function describeLine(line: BillLine): [string, string, string] {
  const span = `${germanDate(line.from)} – ${germanDate(line.to)}`;
  const p = printedLine(line);
  const price = `${decimalText(p.price)} €`;
  switch (line.kind) {
    case 'fixed':
      if (p.monthFraction) return [`Grundgebühr ${span}`, `${p.quantity}/${p.base} Monate`, `${price} / Monat`];
      return [
        `Grundgebühr ${span}`,
        `${p.quantity} ${unitWord(p.unit, p.quantity)}`,
        p.base === '1' ? `${price} / Monat` : `${price} / ${p.base} Tage`,
      ];
    case 'energy':
      return [`Geladene Energie ${span}`, `${decimalText(p.quantity)} kWh`, `${price} / kWh`];
    case 'per-request':
      return [`Ladevorgänge ${span}`, `${p.quantity} ${unitWord(p.unit, p.quantity)}`, `${price} / Vorgang`];
    case 'onboarding':
      return ['Einrichtungsgebühr', '1', price];
  }
}

/** Why a 0 % bill carries no VAT (§ 14 Abs. 4 Nr. 8, § 14a UStG), with its EN 16931 category (BT-118, BT-120, BT-121). */
export interface VatExemption {
  category: 'AE' | 'E';
  code?: string;
  text: string;
}

/**
 * A 0 % bill to a business customer with a VAT id is a reverse charge (the customer owes the VAT:
 * § 13b UStG, Art. 196 of the VAT directive; category AE, VATEX-EU-AE, both VAT ids on the bill);
 * one to a customer without is a small business's tax-free supply (§ 19 Abs. 1 UStG since 2025;
 * category E, the reason as text: no VATEX code names it). ARCHITECTURE.md, "Money".
 */
export function vatExemption(inv: Pick<InvoiceDocument, 'vatPercent' | 'recipient'>): VatExemption | undefined {
  if (inv.vatPercent !== 0) return undefined;
  if (inv.recipient.vatId)
    return { category: 'AE', code: 'VATEX-EU-AE', text: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge, § 13b UStG).' };
  return { category: 'E', text: 'Steuerfrei nach § 19 Abs. 1 UStG (Kleinunternehmerregelung).' };
}

/** The IBANs a text names (compact), by their check digits, so a creditor id ('DE98ZZZ…') or a tax id is none. */
export function ibansIn(text: string): string[] {
  return [...text.toUpperCase().matchAll(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b/g)]
    .map((m) => m[0].replace(/ /g, ''))
    .filter((iban) => {
      const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
      return BigInt(digits) % 97n === 1n;
    });
}

/**
 * The template's lines as printed: one creditor account per invoice (issue 35), so a line naming an
 * IBAN other than the payment's (a bank transfer's, else the operator's, else the first the template
 * names) is left out.
 */
function templateLines(lines: readonly string[], inv: InvoiceDocument): string[] {
  const paid = inv.payment.kind === 'BANK_TRANSFER' ? ibansIn(inv.payment.iban)[0] : ibansIn(inv.issuer.iban ?? '')[0];
  const own = paid ?? [...inv.headerLines, ...inv.footerLines].flatMap(ibansIn)[0];
  return lines.filter(Boolean).filter((line) => ibansIn(line).every((iban) => iban === own));
}

/** The document information (the XMP metadata of the e-invoice says the same), in the invoice's language. */
export function documentInfo(inv: InvoiceDocument) {
  return {
    Title: `Rechnung ${inv.billNumber}`,
    Author: inv.issuer.name,
    Subject: `Rechnung ${inv.billNumber} vom ${germanDate(inv.invoiceDate)} von ${inv.issuer.name}`,
    Keywords: 'Rechnung, Factur-X, ZUGFeRD, EN 16931',
    Creator: 'CPO Cockpit',
    Producer: 'CPO Cockpit (pdfkit, e-invoice-eu, pdf-lib)',
  };
}

type Doc = PDFKit.PDFDocument;

function letterhead(doc: Doc, inv: InvoiceDocument) {
  const top = mm(15);
  doc.font('bold').fontSize(13).fillColor('black').text(inv.issuer.name, PAGE.left, top, { width: CONTENT_WIDTH, align: 'right' });
  doc.font('regular').fontSize(8.5).fillColor(GREY);
  // The name stands above in bold; a template line that only repeats it is not printed again.
  const same = (line: string) => line.trim().toLowerCase() === inv.issuer.name.trim().toLowerCase();
  for (const line of templateLines(inv.headerLines, inv).filter((l) => !same(l))) doc.text(line, { width: CONTENT_WIDTH, align: 'right' });
  // DIN 5008 form B: the sender line at 45 mm, the address field below it, in the envelope window.
  const sender = [inv.issuer.name, inv.issuer.street, `${inv.issuer.zipCode} ${inv.issuer.city}`].join(' · ');
  doc
    .fontSize(7)
    .fillColor(GREY)
    .text(sender, PAGE.left, mm(45), { width: mm(85), underline: true, lineBreak: false });
  doc
    .fontSize(10)
    .fillColor('black')
    .font('regular')
    .text(inv.recipient.companyName || inv.recipient.name, PAGE.left, mm(52), { width: mm(85) });
  if (inv.recipient.companyName) doc.text(inv.recipient.name, { width: mm(85) });
  if (inv.recipient.careOf) doc.text(`c/o ${inv.recipient.careOf}`, { width: mm(85) });
  doc.text(inv.recipient.street, { width: mm(85) });
  doc.text(`${inv.recipient.zipCode} ${inv.recipient.city}`, { width: mm(85) });

  const facts: [string, string][] = [
    ['Rechnungsnummer', inv.billNumber],
    ['Rechnungsdatum', germanDate(inv.invoiceDate)],
    ['Kundennummer', inv.endCustomerId],
    ['Leistungszeitraum', `${germanDate(inv.periodStart)} – ${germanDate(inv.periodEnd)}`],
  ];
  // § 14 UStG: the issuer's VAT id (else its tax number); a business customer's own beside it.
  if (inv.issuer.vatId) facts.push(['Unsere USt-IdNr.', inv.issuer.vatId]);
  else if (inv.issuer.taxNumber) facts.push(['Unsere Steuernummer', inv.issuer.taxNumber]);
  if (inv.recipient.vatId) facts.push(['Ihre USt-IdNr.', inv.recipient.vatId]);
  if (inv.buyerReference) facts.push(['Ihre Referenz', inv.buyerReference]);
  // Label and value side by side, the value wide enough for a long bill number on one line.
  let y = mm(52);
  const valueWidth = PAGE.width - PAGE.right - mm(142);
  for (const [label, value] of facts) {
    doc
      .fontSize(8.5)
      .fillColor(GREY)
      .text(label, mm(112), y, { width: mm(30) });
    doc.fillColor('black').text(value, mm(142), y, { width: valueWidth, align: 'right' });
    y += Math.max(13, doc.heightOfString(value, { width: valueWidth }) + 3);
  }
}

const columns = [
  { title: 'Pos.', width: mm(10), align: 'left' },
  { title: 'Beschreibung', width: mm(67), align: 'left' },
  { title: 'Menge', width: mm(28), align: 'right' },
  { title: 'Einzelpreis', width: mm(32), align: 'right' },
  { title: 'Betrag netto', width: CONTENT_WIDTH - mm(137), align: 'right' },
] as const;

type Widths = readonly { width: number; align: string }[];

/** The height of a row's tallest cell at the font and size set. */
const cellsHeight = (doc: Doc, cells: readonly string[], widths: Widths) =>
  Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: widths[i]!.width - 4 })));

function row(doc: Doc, cells: readonly string[], y: number, widths: Widths, bold = false, size = 9, gap = 5): number {
  let x = PAGE.left;
  let height = 0;
  doc
    .font(bold ? 'bold' : 'regular')
    .fontSize(size)
    .fillColor('black');
  cells.forEach((cell, i) => {
    const col = widths[i]!;
    const options = { width: col.width - 4, align: col.align as 'left' | 'right' };
    height = Math.max(height, doc.heightOfString(cell, options));
    doc.text(cell, x, y, options);
    x += col.width;
  });
  return y + height + gap;
}

function rule(doc: Doc, y: number, weight = 0.5) {
  doc
    .moveTo(PAGE.left, y)
    .lineTo(PAGE.width - PAGE.right, y)
    .lineWidth(weight)
    .strokeColor('#999999')
    .stroke();
}

function linesAndTotals(doc: Doc, inv: InvoiceDocument): number {
  doc.font('bold').fontSize(15).fillColor('black').text(`Rechnung ${inv.billNumber}`, PAGE.left, mm(100));
  doc.font('regular').fontSize(9.5).moveDown(0.6);
  doc.text('Für die Nutzung der Ladeinfrastruktur im Leistungszeitraum berechnen wir Ihnen:', { width: CONTENT_WIDTH });
  let y = doc.y + 10;
  y = row(
    doc,
    columns.map((c) => c.title),
    y,
    columns,
    true,
  );
  rule(doc, y - 3);
  inv.lines.forEach((line, i) => {
    const [text, quantity, unit] = describeLine(line);
    y = row(doc, [String(i + 1), text, quantity, unit, money(line.netCents)], y + 2, columns);
  });
  rule(doc, y);
  y += 6;
  const totals: [string, string, boolean][] = [
    ['Summe netto', money(inv.netCents), false],
    [inv.vatPercent === 0 ? 'Umsatzsteuer 0 %' : `zzgl. ${inv.vatPercent} % Umsatzsteuer`, money(inv.vatCents), false],
    ['Rechnungsbetrag', money(inv.grossCents), true],
  ];
  const totalColumns = [
    { width: CONTENT_WIDTH - mm(40), align: 'right' },
    { width: mm(40), align: 'right' },
  ];
  for (const [label, value, bold] of totals) {
    if (bold) rule(doc, y - 2, 1);
    y = row(doc, [label, value], y, totalColumns, bold);
  }
  const exemption = vatExemption(inv);
  if (exemption) {
    doc
      .font('regular')
      .fontSize(9.5)
      .fillColor('black')
      .text(exemption.text, PAGE.left, y + 4, { width: CONTENT_WIDTH });
    y = doc.y;
  }
  return y + 10;
}

function paymentAndContact(doc: Doc, inv: InvoiceDocument, top: number) {
  doc.font('regular').fontSize(9.5).fillColor('black');
  const p = inv.payment;
  let text: string;
  if (p.kind === 'SEPA') {
    const when = p.collectionDate ? `am ${germanDate(p.collectionDate)}` : 'zum Fälligkeitstag';
    const ids = [
      p.creditorId && `Gläubiger-Identifikationsnummer: ${p.creditorId}`,
      p.mandateReference && `Mandatsreferenz: ${p.mandateReference}`,
    ];
    text =
      `Der Rechnungsbetrag wird ${when} per SEPA-Lastschrift${p.maskedIban ? ` von Ihrem Konto ${p.maskedIban}` : ''} eingezogen.` +
      (ids.some(Boolean) ? ` ${ids.filter(Boolean).join(', ')}.` : '');
  } else if (p.kind === 'BANK_TRANSFER') {
    const bank = [p.bic && `BIC ${p.bic}`, p.bankName].filter(Boolean).join(', ');
    text =
      `Bitte überweisen Sie den Rechnungsbetrag bis zum ${germanDate(p.dueDate)} unter Angabe der Rechnungsnummer ` +
      `auf das Konto IBAN ${groupsOfFour(p.iban)}${bank ? ` (${bank})` : ''}.`;
  } else if (p.kind === 'CARD') {
    text = 'Der Rechnungsbetrag wird von Ihrer hinterlegten Karte abgebucht.';
  } else {
    text = 'Der Rechnungsbetrag ist sofort fällig.';
  }
  doc.text(text, PAGE.left, top, { width: CONTENT_WIDTH });
  if (inv.contact) {
    const c = inv.contact;
    const parts = [`Ihr Ansprechpartner: ${c.name}`, c.position, c.phone && `Telefon ${c.phone}`, c.email].filter((p): p is string => !!p);
    doc.moveDown(0.8).text(unbroken(doc, parts, CONTENT_WIDTH), { width: CONTENT_WIDTH });
  }
}

/**
 * Parts joined by ' · ', a new line only between parts: pdfkit breaks a line after a hyphen, and an
 * e-mail address ('anna-lena.kraus@…') must not be torn apart. The font and size must be set.
 */
function unbroken(doc: Doc, parts: readonly string[], width: number): string {
  const lines: string[] = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && doc.widthOfString(`${last} · ${part}`) < width - 1) lines[lines.length - 1] = `${last} · ${part}`;
    else lines.push(part);
  }
  return lines.join('\n');
}

const historyColumns = [
  { title: 'Nr.', width: mm(10), align: 'left' },
  { title: 'Beginn', width: mm(27), align: 'left' },
  { title: 'Ende', width: mm(27), align: 'left' },
  { title: 'Ladepunkt', width: mm(56), align: 'left' },
  { title: 'Energie', width: mm(22), align: 'right' },
  { title: 'Betrag netto', width: CONTENT_WIDTH - mm(142), align: 'right' },
] as const;
const HISTORY_SIZE = 8;
const HISTORY_GAP = 3;

/** Σ of kWh texts with 3 decimals, exactly. */
const kwhSum = (rows: readonly InvoiceHistoryRow[]) => {
  const wh = rows.reduce((sum, r) => {
    const [whole, fraction = ''] = r.energyKwh.split('.');
    return sum + BigInt(whole!) * 1000n + BigInt(fraction.padEnd(3, '0').slice(0, 3));
  }, 0n);
  return `${wh / 1000n}.${String(wh % 1000n).padStart(3, '0')}`;
};

function historyPages(doc: Doc, inv: InvoiceDocument, history: readonly InvoiceHistoryRow[]) {
  const heading = () => {
    doc.addPage();
    doc.font('bold').fontSize(12).fillColor('black').text('Nachweis der Ladevorgänge', PAGE.left, mm(20));
    doc.font('regular').fontSize(8.5).fillColor(GREY);
    doc.text(`zur Rechnung ${inv.billNumber}, Leistungszeitraum ${germanDate(inv.periodStart)} – ${germanDate(inv.periodEnd)}`);
    const y = row(
      doc,
      historyColumns.map((c) => c.title),
      doc.y + 8,
      historyColumns,
      true,
      HISTORY_SIZE,
      HISTORY_GAP + 2,
    );
    rule(doc, y - 3);
    return y + 2;
  };
  let y = heading();
  const kwh = (text: string) => `${decimal(3).format(text as `${number}`)} kWh`;
  history.forEach((r, i) => {
    const cells = [String(i + 1), berlin(r.start), berlin(r.end), r.place, kwh(r.energyKwh), money(r.costCents)];
    doc.font('regular').fontSize(HISTORY_SIZE);
    const height = cellsHeight(doc, cells, historyColumns);
    if (y + height > PAGE.height - PAGE.bottom - 10) y = heading();
    // Every other row shaded, so a long table reads along its lines.
    if (i % 2 === 1) doc.rect(PAGE.left, y - 1.5, CONTENT_WIDTH, height + HISTORY_GAP).fill('#f2f2f2');
    y = row(doc, cells, y, historyColumns, false, HISTORY_SIZE, HISTORY_GAP);
  });
  if (y > PAGE.height - PAGE.bottom - 30) y = heading();
  rule(doc, y);
  const total = history.reduce((sum, r) => sum + r.costCents, 0n);
  const count = `${history.length} ${history.length === 1 ? 'Ladevorgang' : 'Ladevorgänge'}`;
  y = row(doc, ['', 'Summe', '', count, kwh(kwhSum(history)), money(total)], y + 3, historyColumns, true, HISTORY_SIZE, HISTORY_GAP);
  doc
    .font('regular')
    .fontSize(HISTORY_SIZE)
    .fillColor(GREY)
    .text(
      'Die Beträge je Ladevorgang sind ihre Anteile an der Energiezeile ihres Tages, auf den Cent so verteilt, dass sie zusammen den Betrag der Zeile ergeben.',
      PAGE.left,
      y + 4,
      { width: CONTENT_WIDTH },
    );
}

/** Footer lines and the page number on every page (pages are buffered until then). */
function footers(doc: Doc, inv: InvoiceDocument) {
  const range = doc.bufferedPageRange();
  const lines = templateLines(inv.footerLines, inv);
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin must not open a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const top = PAGE.height - mm(22);
    doc
      .moveTo(PAGE.left, top - 4)
      .lineTo(PAGE.width - PAGE.right, top - 4)
      .lineWidth(0.5)
      .strokeColor('#bbbbbb')
      .stroke();
    doc.font('regular').fontSize(7).fillColor(GREY);
    lines.forEach((line, n) => doc.text(line, PAGE.left, top + n * 9, { width: CONTENT_WIDTH - mm(30), lineBreak: false }));
    doc.text(`Seite ${i - range.start + 1} von ${range.count}`, PAGE.width - PAGE.right - mm(30), top, { width: mm(30), align: 'right' });
    doc.page.margins.bottom = bottom;
  }
}

/** The invoice as a PDF stream (read it to the end; nothing is written to disk). */
export function invoicePdf(inv: InvoiceDocument): Readable {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: mm(20), left: PAGE.left, right: PAGE.right, bottom: PAGE.bottom },
    bufferPages: true,
    // PDF/A-3b of PDF 1.7, as the e-invoice's XMP metadata states (e-invoice.ts).
    pdfVersion: '1.7',
    info: documentInfo(inv),
    lang: 'de-DE',
  });
  const { regular, bold } = fonts();
  // pdfkit's types name only paths and bytes; its `PDFFontFactory.open` takes a fontkit font too.
  doc.registerFont('regular', regular as unknown as Buffer);
  doc.registerFont('bold', bold as unknown as Buffer);
  letterhead(doc, inv);
  paymentAndContact(doc, inv, linesAndTotals(doc, inv));
  if (inv.history && inv.history.length > 0) historyPages(doc, inv, inv.history);
  footers(doc, inv);
  doc.end();
  return doc;
}
