import type { Invoice, InvoiceServiceOptions } from '@e-invoice-eu/core';
import { PDFDocument, PDFName, PDFRef } from 'pdf-lib';
import { centsToNumeric, type BillLine } from './compute';
import { eInvoiceCore, libraryRequire } from './e-invoice-library';
import { documentInfo, vatExemption, type InvoiceAddress, type InvoiceDocument } from './invoice-pdf';
import { printedLine } from './printed-line';

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
  // The CII tree before it is written (the library's own hook; it is not in its types).
  const hooked = formatter as unknown as { postProcess?: (cii: CiiTree) => void };
  const postProcess = hooked.postProcess?.bind(formatter);
  if (postProcess)
    hooked.postProcess = (cii) => {
      postProcess(cii);
      withoutSellerAsPayee(cii);
    };
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

type CiiTree = Record<string, Record<string, Record<string, Record<string, unknown> | undefined> | undefined> | undefined>;

/**
 * BR-17: a payee (BG-10) is written only when it is another party than the seller. The library
 * writes the SEPA creditor id (BT-90) only from the payee's identification, and then the payee too;
 * the payee here is always the seller, so the id stays and the payee goes.
 */
function withoutSellerAsPayee(cii: CiiTree) {
  const transaction = cii['rsm:CrossIndustryInvoice']?.['rsm:SupplyChainTradeTransaction'];
  const settlement = transaction?.['ram:ApplicableHeaderTradeSettlement'];
  const seller = (transaction?.['ram:ApplicableHeaderTradeAgreement'] as Record<string, { 'ram:Name'?: string }> | undefined)?.[
    'ram:SellerTradeParty'
  ];
  const payee = settlement?.['ram:PayeeTradeParty'] as { 'ram:Name'?: string } | undefined;
  if (settlement && payee && payee['ram:Name'] === seller?.['ram:Name']) delete settlement['ram:PayeeTradeParty'];
}

type Lines = [Invoice['ubl:Invoice']['cac:InvoiceLine'][0], ...Invoice['ubl:Invoice']['cac:InvoiceLine']];
type AddressJson = Invoice['ubl:Invoice']['cac:AccountingSupplierParty']['cac:Party']['cac:PostalAddress'];

const amount = (cents: bigint) => centsToNumeric(cents);
const euro = (cents: bigint) => ({ value: amount(cents), currency: 'EUR' as const });
function address(a: InvoiceAddress): AddressJson {
  return {
    'cbc:StreetName': a.street,
    ...(a.careOf ? { 'cbc:AdditionalStreetName': `c/o ${a.careOf}` } : {}),
    'cbc:CityName': a.city,
    'cbc:PostalZone': a.zipCode,
    'cac:Country': { 'cbc:IdentificationCode': (a.countryCode ?? 'DE') as 'DE' },
  };
}

/**
 * A line's name, quantity with its UN/ECE unit, net unit price and base quantity: the printed
 * figures of the PDF (`printedLine`). The library's amounts have 2 decimals, so a price per kWh (4)
 * is written per 100 kWh (BT-149), exactly the same price.
 */
function lineItem(line: BillLine): { name: string; quantity: string; unit: string; price: string; base: string } {
  const span = `${line.from} – ${line.to}`;
  const p = printedLine(line);
  const names = {
    fixed: `Grundgebühr ${span}`,
    energy: `Geladene Energie ${span}`,
    'per-request': `Ladevorgänge ${span}`,
    onboarding: 'Einrichtungsgebühr',
  };
  const [whole, fraction = ''] = p.price.split('.');
  if (fraction.length <= 2) return { name: names[line.kind], quantity: p.quantity, unit: p.unit, price: p.price, base: p.base };
  const hundredths = `${whole}${fraction.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  return {
    name: names[line.kind],
    quantity: p.quantity,
    unit: p.unit,
    price: `${hundredths}.${fraction.slice(2).padEnd(2, '0')}`,
    base: `${p.base}00`,
  };
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
  const exemption = vatExemption(doc);
  const vat = (percent: number) => ({
    'cbc:ID': (exemption?.category ?? 'S') as 'S',
    'cbc:Percent': String(percent),
    'cac:TaxScheme': { 'cbc:ID': 'VAT' as const },
  });
  const vatBreakdown = {
    ...vat(doc.vatPercent),
    ...(exemption?.code ? { 'cbc:TaxExemptionReasonCode': exemption.code } : {}),
    ...(exemption ? { 'cbc:TaxExemptionReason': exemption.text } : {}),
  };
  const buyer = doc.recipient;
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
        ...(item.base !== '1' ? { 'cbc:BaseQuantity': item.base, 'cbc:BaseQuantity@unitCode': item.unit } : {}),
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
    ...(doc.buyerReference ? { 'cbc:BuyerReference': doc.buyerReference } : {}),
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
        'cac:PostalAddress': address(buyer),
        ...(buyer.vatId ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': buyer.vatId, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } } : {}),
        // A business customer: the company is the buyer (BT-44), the person its contact (BT-56).
        'cac:PartyLegalEntity': { 'cbc:RegistrationName': buyer.companyName || buyer.name },
        ...(buyer.companyName || doc.recipientEmail
          ? {
              'cac:Contact': {
                ...(buyer.companyName ? { 'cbc:Name': buyer.name } : {}),
                ...(doc.recipientEmail ? { 'cbc:ElectronicMail': doc.recipientEmail } : {}),
              },
            }
          : {}),
      },
    },
    // CII has a delivery block in every profile; the service's period is BG-14 above.
    'cac:Delivery': { 'cac:DeliveryParty': { 'cac:PartyName': { 'cbc:Name': buyer.companyName || buyer.name } } },
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
            'cac:TaxCategory': vatBreakdown,
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

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** An instant as XMP writes it and as the document information's date means it (UTC, whole seconds). */
const xmpDate = (d: Date) => `${d.toISOString().slice(0, 19)}Z`;

/** The PDF/A-3b and Factur-X metadata of the invoice: the document information's values, the Factur-X extension schema. */
function xmpPacket(info: ReturnType<typeof documentInfo>, made: Date): string {
  const when = xmpDate(made);
  const property = (name: string, description: string) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType>` +
    `<pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`;
  return `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/"><pdfaid:part>3</pdfaid:part><pdfaid:conformance>B</pdfaid:conformance></rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.Title)}</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>${xmlText(info.Author)}</rdf:li></rdf:Seq></dc:creator>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.Subject)}</rdf:li></rdf:Alt></dc:description>
<dc:language><rdf:Bag><rdf:li>de-DE</rdf:li></rdf:Bag></dc:language>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"><pdf:Producer>${xmlText(info.Producer)}</pdf:Producer><pdf:Keywords>${xmlText(info.Keywords)}</pdf:Keywords><pdf:PDFVersion>1.7</pdf:PDFVersion></rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>${xmlText(info.Creator)}</xmp:CreatorTool><xmp:CreateDate>${when}</xmp:CreateDate><xmp:ModifyDate>${when}</xmp:ModifyDate><xmp:MetadataDate>${when}</xmp:MetadataDate></rdf:Description>
<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
${property('DocumentFileName', 'The name of the embedded XML document')}
${property('DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER')}
${property('Version', 'The actual version of the standard applying to the embedded XML document')}
${property('ConformanceLevel', 'The conformance level of the embedded XML document')}
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:fx="urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#"><fx:DocumentType>INVOICE</fx:DocumentType><fx:DocumentFileName>factur-x.xml</fx:DocumentFileName><fx:Version>1.0</fx:Version><fx:ConformanceLevel>EN 16931</fx:ConformanceLevel></rdf:Description>
</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}

/**
 * The document information and the XMP metadata say the same (PDF/A-3b, issue 35), in German: the
 * library's were English and apart (its Title and Producer not its XMP's, no Keywords in the XMP),
 * and its XMP was written one byte per character in a packet that declares UTF-8 ('Stadtwerke Süd'
 * as Latin-1). Both are written here from `documentInfo`, with one instant for every date; the
 * header's version (1.7, pdfkit's `pdfVersion`) is the one the XMP names.
 */
async function pdfaMetadata(bytes: Uint8Array, doc: InvoiceDocument): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const info = documentInfo(doc);
  const made = new Date(Math.floor(Date.now() / 1000) * 1000);
  pdf.setTitle(info.Title);
  pdf.setAuthor(info.Author);
  pdf.setSubject(info.Subject);
  pdf.setKeywords([info.Keywords]);
  pdf.setCreator(info.Creator);
  pdf.setProducer(info.Producer);
  pdf.setCreationDate(made);
  pdf.setModificationDate(made);
  pdf.setLanguage('de-DE');
  const xmp = new Uint8Array(Buffer.from(xmpPacket(info, made), 'utf8'));
  const stream = pdf.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  // In the library's stream's place, so no stale packet is left in the file.
  const ref = pdf.catalog.get(PDFName.of('Metadata'));
  if (ref instanceof PDFRef) pdf.context.assign(ref, stream);
  else pdf.catalog.set(PDFName.of('Metadata'), pdf.context.register(stream));
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
  return pdfaMetadata(out, doc);
}

/** The CII XML alone (tests read it; the PDF carries the same). */
export async function eInvoiceXml(doc: InvoiceDocument): Promise<string> {
  const out = await generate(eInvoiceJson(doc), { format: 'CII', lang: 'de-de', noWarnings: true });
  return typeof out === 'string' ? out : Buffer.from(out).toString('utf8');
}
