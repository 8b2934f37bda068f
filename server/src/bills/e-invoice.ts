import type { Invoice, InvoiceServiceOptions } from '@e-invoice-eu/core';
import { PDFDocument, PDFName, PDFRawStream, PDFRef } from 'pdf-lib';
import { centsToNumeric, type BillLine } from './compute';
import { eInvoiceCore, libraryRequire } from './e-invoice-library';
import type { InvoiceAddress, InvoiceDocument } from './invoice-pdf';

/**
 * The bill as an e-invoice (issue 24): Factur-X 1.0 / ZUGFeRD 2 in the profile EN 16931
 * ('Comfort'), i.e. the invoice PDF as PDF/A-3 with the CII XML (`factur-x.xml`) attached, made by
 * `@e-invoice-eu/core` from the same InvoiceDocument the PDF shows. German B2B invoices must be
 * receivable electronically from 2025 on; a private recipient simply sees the PDF.
 */

/** The Factur-X profile the stored PDFs follow (README). */
export const E_INVOICE_FORMAT = 'Factur-X-EN16931';

// The library logs its own warnings; a server log line may carry no invoice data, so they are dropped.
const quiet = { log: () => {}, warn: () => {}, error: () => {} };
const { FormatFactoryService, invoiceSchema, ValidationService } = eInvoiceCore;
const formats = new FormatFactoryService();
const validation = new ValidationService(quiet);

/** The ajv the library itself validates with (v8; the project's own top-level ajv is v6). */
type Validator = ((data: unknown) => boolean) & { errors?: unknown };
const Ajv2019 = libraryRequire('ajv/dist/2019').default as new (options: object) => { compile: (schema: object) => Validator };
const validators = new Map<string, Validator>();

/**
 * What the library's `InvoiceService.generate` does (2.3.4), with the invoice schema compiled once
 * per format instead of on every call: ajv's compile of the whole schema was most of a PDF's
 * memory churn and about half of its time (issue 24: a zip of 500 new PDFs, ARCHITECTURE.md).
 */
function generate(input: Invoice, options: InvoiceServiceOptions): Promise<string | Uint8Array> {
  const formatter = formats.createFormatService(options.format, quiet);
  const format = formats.normalizeFormat(options.format);
  let validate = validators.get(format);
  if (!validate) {
    const schema = structuredClone(invoiceSchema);
    formatter.patchSchema(schema);
    validate = new Ajv2019({ strict: true, allErrors: true, useDefaults: true }).compile(schema);
    validators.set(format, validate);
  }
  const invoice = validation.validate<Invoice>('invoice data', validate as never, structuredClone(input));
  formatter.fillInvoiceDefaults(invoice);
  return formatter.generate(invoice, { ...options, format });
}

type Lines = [Invoice['ubl:Invoice']['cac:InvoiceLine'][0], ...Invoice['ubl:Invoice']['cac:InvoiceLine']];
type AddressJson = Invoice['ubl:Invoice']['cac:AccountingSupplierParty']['cac:Party']['cac:PostalAddress'];

const amount = (cents: bigint) => centsToNumeric(cents);
const euro = (cents: bigint) => ({ value: amount(cents), currency: 'EUR' as const });
/** `n / 10^scale` as decimal text ('61725', 3 → '61.725'). */
const scaled = (n: bigint, scale: number) => {
  const s = n.toString().padStart(scale + 1, '0');
  return `${s.slice(0, -scale)}.${s.slice(-scale)}`;
};

function address(a: InvoiceAddress): AddressJson {
  return {
    'cbc:StreetName': a.street,
    ...(a.careOf ? { 'cbc:AdditionalStreetName': `c/o ${a.careOf}` } : {}),
    'cbc:CityName': a.city,
    'cbc:PostalZone': a.zipCode,
    'cac:Country': { 'cbc:IdentificationCode': (a.countryCode ?? 'DE') as 'DE' },
  };
}

/** A line's name, quantity with its UN/ECE unit and net unit price, as the PDF describes it. */
function lineItem(line: BillLine): { name: string; quantity: string; unit: string; price: string; perHundred?: boolean } {
  const span = `${line.from} – ${line.to}`;
  const { numerator, denominator } = line.quantity;
  switch (line.kind) {
    case 'fixed':
      // Months to 4 decimals: the net amount was computed from the exact fraction of days.
      return {
        name: `Grundgebühr ${span}`,
        quantity: scaled((numerator * 20000n + denominator) / (2n * denominator), 4),
        unit: 'MON',
        price: amount(line.unitPrice),
      };
    case 'energy':
      // The price per kWh has 4 decimals, the library's amounts 2: priced per 100 kWh (BT-149), exactly the same.
      return {
        name: `Geladene Energie ${span}`,
        quantity: scaled(numerator, 3),
        unit: 'KWH',
        price: amount(line.unitPrice),
        perHundred: true,
      };
    case 'per-request':
      return { name: `Ladevorgänge ${span}`, quantity: numerator.toString(), unit: 'C62', price: amount(line.unitPrice) };
    case 'onboarding':
      return { name: 'Einrichtungsgebühr', quantity: '1', unit: 'C62', price: amount(line.unitPrice) };
  }
}

/** Whether the bill's figures are complete and add up (net = Σ lines, gross = net + VAT): only then is it an e-invoice. */
export function isEInvoiceable(doc: InvoiceDocument): boolean {
  const sum = doc.lines.reduce((s, l) => s + l.netCents, 0n);
  return doc.lines.length > 0 && sum === doc.netCents && doc.netCents + doc.vatCents === doc.grossCents;
}

function paymentJson(doc: InvoiceDocument): Partial<Invoice['ubl:Invoice']> {
  const p = doc.payment;
  if (p.kind === 'SEPA') {
    return {
      'cbc:DueDate': p.collectionDate,
      'cac:PaymentMeans': [
        { 'cbc:PaymentMeansCode': '59', ...(p.mandateReference ? { 'cac:PaymentMandate': { 'cbc:ID': p.mandateReference } } : {}) },
      ],
      'cac:PaymentTerms': { 'cbc:Note': `Einzug per SEPA-Lastschrift${p.collectionDate ? ` am ${p.collectionDate}` : ''}.` },
    };
  }
  if (p.kind === 'BANK_TRANSFER') {
    return {
      'cbc:DueDate': p.dueDate,
      'cac:PaymentMeans': [
        {
          'cbc:PaymentMeansCode': '58',
          'cbc:PaymentID': doc.billNumber,
          'cac:PayeeFinancialAccount': {
            'cbc:ID': p.iban,
            'cbc:Name': doc.issuer.name,
            ...(p.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': p.bic } } : {}),
          },
        },
      ],
      'cac:PaymentTerms': { 'cbc:Note': `Zahlbar ohne Abzug bis ${p.dueDate}.` },
    };
  }
  if (p.kind === 'CARD')
    return { 'cac:PaymentMeans': [{ 'cbc:PaymentMeansCode': '54' }], 'cac:PaymentTerms': { 'cbc:Note': 'Zahlung per Karte.' } };
  return { 'cac:PaymentTerms': { 'cbc:Note': 'Sofort fällig.' } };
}

/** The invoice in the library's format (UBL-shaped JSON, from which it writes the CII XML). */
export function eInvoiceJson(doc: InvoiceDocument): Invoice {
  const issuer = doc.issuer;
  const vat = (percent: number) => ({
    'cbc:ID': 'S' as const,
    'cbc:Percent': String(percent),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' as const },
  });
  const taxSchemes = [
    ...(issuer.vatId ? [{ 'cbc:CompanyID': issuer.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] : []),
    ...(issuer.taxNumber ? [{ 'cbc:CompanyID': issuer.taxNumber, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
  ];
  const creditorId = doc.payment.kind === 'SEPA' ? doc.payment.creditorId : undefined;
  const lines = doc.lines.map((line, i) => {
    const item = lineItem(line);
    return {
      'cbc:ID': String(i + 1),
      'cbc:InvoicedQuantity': item.quantity,
      'cbc:InvoicedQuantity@unitCode': item.unit,
      'cbc:LineExtensionAmount': amount(line.netCents),
      'cbc:LineExtensionAmount@currencyID': 'EUR',
      'cac:Item': { 'cbc:Name': item.name, 'cac:ClassifiedTaxCategory': vat(doc.vatPercent) },
      'cac:Price': {
        'cbc:PriceAmount': item.price,
        'cbc:PriceAmount@currencyID': 'EUR',
        ...(item.perHundred ? { 'cbc:BaseQuantity': '100', 'cbc:BaseQuantity@unitCode': item.unit } : {}),
      },
    };
  }) as unknown as Lines;
  const net = euro(doc.netCents);
  const gross = euro(doc.grossCents);
  const invoice = {
    'cbc:ID': doc.billNumber,
    'cbc:IssueDate': doc.invoiceDate,
    'cbc:InvoiceTypeCode': '380',
    'cbc:DocumentCurrencyCode': 'EUR',
    'cbc:BuyerReference': doc.endCustomerId,
    'cac:InvoicePeriod': { 'cbc:StartDate': doc.periodStart, 'cbc:EndDate': doc.periodEnd },
    'cac:AccountingSupplierParty': {
      'cac:Party': {
        'cac:PartyName': { 'cbc:Name': issuer.name },
        'cac:PostalAddress': address(issuer),
        ...(taxSchemes.length > 0 ? { 'cac:PartyTaxScheme': taxSchemes } : {}),
        'cac:PartyLegalEntity': { 'cbc:RegistrationName': issuer.name },
        ...(doc.contact
          ? {
              'cac:Contact': {
                'cbc:Name': doc.contact.name,
                ...(doc.contact.phone ? { 'cbc:Telephone': doc.contact.phone } : {}),
                ...(doc.contact.email ? { 'cbc:ElectronicMail': doc.contact.email } : {}),
              },
            }
          : {}),
      },
    },
    // The SEPA creditor id (BT-90): the library writes it into CII from the payee's identification only.
    ...(creditorId
      ? {
          'cac:PayeeParty': {
            'cac:PartyIdentification': { 'cbc:ID': creditorId, 'cbc:ID@schemeID': 'SEPA' },
            'cac:PartyName': { 'cbc:Name': issuer.name },
          },
        }
      : {}),
    'cac:AccountingCustomerParty': {
      'cac:Party': {
        'cac:PartyIdentification': { 'cbc:ID': doc.endCustomerId },
        'cac:PostalAddress': address(doc.recipient),
        'cac:PartyLegalEntity': { 'cbc:RegistrationName': doc.recipient.name },
        ...(doc.recipientEmail ? { 'cac:Contact': { 'cbc:ElectronicMail': doc.recipientEmail } } : {}),
      },
    },
    // CII has a delivery block in every profile; the service's period is BG-14 above.
    'cac:Delivery': { 'cac:DeliveryParty': { 'cac:PartyName': { 'cbc:Name': doc.recipient.name } } },
    ...paymentJson(doc),
    'cac:TaxTotal': [
      {
        'cbc:TaxAmount': amount(doc.vatCents),
        'cbc:TaxAmount@currencyID': 'EUR',
        'cac:TaxSubtotal': [
          {
            'cbc:TaxableAmount': net.value,
            'cbc:TaxableAmount@currencyID': 'EUR',
            'cbc:TaxAmount': amount(doc.vatCents),
            'cbc:TaxAmount@currencyID': 'EUR',
            'cac:TaxCategory': vat(doc.vatPercent),
          },
        ],
      },
    ],
    'cac:LegalMonetaryTotal': {
      'cbc:LineExtensionAmount': net.value,
      'cbc:LineExtensionAmount@currencyID': 'EUR',
      'cbc:TaxExclusiveAmount': net.value,
      'cbc:TaxExclusiveAmount@currencyID': 'EUR',
      'cbc:TaxInclusiveAmount': gross.value,
      'cbc:TaxInclusiveAmount@currencyID': 'EUR',
      'cbc:PayableAmount': gross.value,
      'cbc:PayableAmount@currencyID': 'EUR',
    },
    'cac:InvoiceLine': lines,
  };
  return { 'ubl:Invoice': invoice } as unknown as Invoice;
}

/**
 * The library writes the PDF/A metadata (XMP) as one byte per character, so a name with an umlaut
 * ('Stadtwerke Süd') came out as Latin-1 in a packet that declares UTF-8, which PDF/A validators
 * refuse. The stream is written again as UTF-8 (its BOM, which the library spells as three
 * characters, as the three bytes it stands for).
 */
async function utf8Metadata(bytes: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const ref = pdf.catalog.get(PDFName.of('Metadata'));
  if (!(ref instanceof PDFRef)) return bytes;
  const stream = pdf.context.lookup(ref);
  if (!(stream instanceof PDFRawStream)) return bytes;
  const text = Buffer.from(stream.getContents()).toString('latin1');
  if (!/[\u0080-\u00ff]/.test(text.replace('\u00ef\u00bb\u00bf', ''))) return bytes;
  const utf8 = new Uint8Array(Buffer.from(text.replace('\u00ef\u00bb\u00bf', '\ufeff'), 'utf8'));
  pdf.context.assign(ref, pdf.context.stream(utf8, { Type: 'Metadata', Subtype: 'XML' }));
  return pdf.save({ useObjectStreams: false, updateFieldAppearances: false });
}

/** The invoice PDF as a Factur-X EN 16931 PDF/A-3 with its XML attached. */
export async function facturX(pdf: Uint8Array, doc: InvoiceDocument): Promise<Uint8Array> {
  const out = await generate(eInvoiceJson(doc), {
    format: E_INVOICE_FORMAT,
    lang: 'de-de',
    noWarnings: true,
    pdf: { buffer: pdf, filename: `${doc.billNumber}.pdf`, mimetype: 'application/pdf' },
  });
  if (typeof out === 'string') throw new Error('Factur-X: the library answered XML without the PDF');
  return utf8Metadata(out);
}

/** The CII XML alone (tests read it; the PDF carries the same). */
export async function eInvoiceXml(doc: InvoiceDocument): Promise<string> {
  const out = await generate(eInvoiceJson(doc), { format: 'CII', lang: 'de-de', noWarnings: true });
  return typeof out === 'string' ? out : Buffer.from(out).toString('utf8');
}
