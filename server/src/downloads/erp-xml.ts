import { Readable } from 'node:stream';
import { berlinDate } from '../../../contract/contracts';
import { createCB } from 'xmlbuilder2';
import { fixedDecimal } from '../bookings/german-csv';
import type { ErpAccounts, ErpQuery, ErpSource } from './erp';
import type { ErpBill } from './queries';

/**
 * The ERP XML (`GET /bookings/generate/xml`, spec 3 §7; issue 25): one document per export, the
 * operator's client number in its header and, per bill, three posting lines: the gross on the end
 * customer's debit account (debit), the net on the net ledger account and the VAT on the tax ledger
 * account (credit). Its schema is `erp-export.xsd` beside this file, explained in `erp-export.md`.
 * Written by xmlbuilder2's callback builder, which keeps no tree: each page of bills is serialised
 * and handed on before the next is read.
 */

export const ERP_XML_NAMESPACE = 'urn:cpo-cockpit:erp-export:1';

const cents = (v: string) => BigInt(fixedDecimal(v, 2).replace('.', ''));
const euros = (c: bigint) => {
  const s = (c < 0n ? -c : c).toString().padStart(3, '0');
  return `${c < 0n ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
};

/**
 * A bill's three postings; their debit equals their credit by construction (gross = net + VAT).
 * The gross is on the end customer's debit account, or for Stripe's methods on the operator's
 * clearing account (Geldtransitkonto), from which the provider's payout is booked to the bank.
 */
export function postingsOf(b: ErpBill, a: ErpAccounts) {
  const net = cents(b.netCosts);
  const vat = cents(b.vatCosts);
  return [
    { type: 'GROSS', account: a.clearingAccountNr ?? b.debitAccountNr!.trim(), side: 'DEBIT', cents: net + vat },
    { type: 'NET', account: a.netLedgerAccountNr, side: 'CREDIT', cents: net },
    { type: 'VAT', account: a.taxLedgerAccountNr, side: 'CREDIT', cents: vat },
  ] as const;
}

type Builder = ReturnType<typeof createCB>;

function writeBill(x: Builder, b: ErpBill, a: ErpAccounts) {
  const text = (name: string, value: string) => x.ele(name).txt(value).up();
  x.ele('Bill');
  text('BillNumber', b.billNumber);
  text('BillDate', berlinDate(b.billGenerationDate));
  x.ele('ServicePeriod');
  text('From', b.startDate);
  text('To', b.endDate);
  x.up();
  x.ele('EndCustomer');
  text('EndCustomerId', b.endCustomerId);
  text('Name', `${b.firstName} ${b.lastName}`.trim());
  text('DebitAccountNr', b.debitAccountNr!.trim());
  text('CostCenterNr', b.costCenterNumber!.trim());
  text('VatId', b.vatId!.trim());
  x.up();
  text('VatPercent', fixedDecimal(b.vatPercent, 2));
  x.ele('PostingLines');
  for (const p of postingsOf(b, a)) {
    x.ele('PostingLine').att('type', p.type);
    text('AccountNr', p.account);
    text('Side', p.side);
    text('Amount', euros(p.cents));
    if (p.type === 'NET') text('CostCenterNr', b.costCenterNumber!.trim());
    x.up();
  }
  x.up();
  x.up();
  return postingsOf(b, a)[0].cents;
}

async function* xmlChunks(q: ErpQuery, source: ErpSource, createdAt: Date) {
  let chunks: string[] = [];
  const x = createCB({ data: (c: string) => chunks.push(c), wellFormed: true, prettyPrint: true });
  const a = source.accounts;
  const text = (name: string, value: string) => x.ele(name).txt(value).up();
  x.dec({ version: '1.0', encoding: 'UTF-8' });
  x.ele(ERP_XML_NAMESPACE, 'ErpExport').att('version', '1');
  x.ele('Header');
  text('ClientNumber', a.clientNumber);
  text('CpoId', a.cpoId);
  text('CpoName', a.cpoName);
  text('PaymentMethod', q.paymentMethod);
  x.ele('PostingPeriod');
  text('From', q.startDate);
  text('To', q.endDate);
  x.up();
  text('Currency', 'EUR');
  text('CreatedAt', createdAt.toISOString());
  x.up();
  x.ele('Bills');
  let count = 0;
  let total = 0n;
  for await (const b of source.bills) {
    total += writeBill(x, b, a);
    count++;
    if (chunks.length > 2000) {
      yield chunks.join('');
      chunks = [];
    }
  }
  x.up();
  x.ele('Totals');
  text('BillCount', String(count));
  text('DebitTotal', euros(total));
  text('CreditTotal', euros(total));
  x.up();
  x.up();
  x.end();
  yield chunks.join('');
}

/** The document as a web stream, pulled page by page as the client reads. */
export function erpXml(q: ErpQuery, source: ErpSource, createdAt = new Date()): ReadableStream<Uint8Array> {
  const chunks = Readable.from(xmlChunks(q, source, createdAt), { objectMode: false });
  return Readable.toWeb(chunks) as ReadableStream<Uint8Array>;
}
