import { Document } from 'sepa';
import { ApiError } from '../http/errors';
import type { SepaDebit, SepaSource, SequenceType } from './sepa';
import { SEPA_MAX, sepaText } from './sepa-text';

/**
 * The SEPA direct-debit file (pain.008.001.08, SEPA Core, as the DK's GBIC_4 subset narrows it:
 * schemas/) of a checked source (sepa.ts), built with sepa.js. One payment information block per
 * sequence type of the collection date (FRST, RCUR), each with its count and control sum, and the
 * group header's over all. The library holds the whole document in memory and answers one string,
 * so a file is bounded (SEPA_FILE_MAX_BILLS) rather than streamed.
 */

type PaymentInfo = ReturnType<Document['createPaymentInfo']>;

/** A calendar day as sepa.js writes it (it prints a Date's local year, month and day). */
const localDay = (isoDay: string) => {
  const [y, m, d] = isoDay.split('-').map(Number);
  return new Date(y!, m! - 1, d!);
};

/**
 * An amount as the library takes it. Integer cents divided once are the double nearest to the
 * decimal, which `toFixed(2)` (how the library prints it) gives back exactly for any amount below
 * 2^53 cents; the control sums are the integer sums divided once (`normalize` below), never a sum
 * of floats.
 */
const amountOf = (cents: bigint) => Number(cents) / 100;

const germanDate = (isoDay: string) => isoDay.split('-').reverse().join('.');

const remittanceOf = (d: SepaDebit) =>
  sepaText(`Rechnung ${d.billNumber} vom ${germanDate(d.startDate)} bis ${germanDate(d.endDate)}`, SEPA_MAX.remittance);

function paymentInfo(doc: Document, s: SepaSource, sequenceType: SequenceType): PaymentInfo {
  const info = doc.createPaymentInfo();
  info.id = sequenceType;
  info.collectionDate = localDay(s.collectionDate);
  info.sequenceType = sequenceType;
  info.localInstrumentation = 'CORE';
  info.batchBooking = true;
  info.creditorName = s.creditor.name;
  info.creditorIBAN = s.creditor.iban;
  info.creditorBIC = s.creditor.bic ?? '';
  info.creditorId = s.creditor.creditorId;
  doc.addPaymentInfo(info);
  return info;
}

/** Adds the debit to the block; answers false when the library refuses the transaction (its bill is named then). */
function addDebit(info: PaymentInfo, d: SepaDebit): boolean {
  const tx = info.createTransaction();
  tx.end2endId = sepaText(d.billNumber, SEPA_MAX.id);
  tx.amount = amountOf(d.cents);
  tx.mandateId = d.mandateReference;
  tx.mandateSignatureDate = localDay(d.mandateDate);
  tx.debtorName = d.debtorName;
  tx.debtorIBAN = d.iban;
  tx.debtorBIC = '';
  tx.remittanceInfo = remittanceOf(d);
  try {
    tx.validate();
  } catch {
    return false;
  }
  info.addTransaction(tx);
  return true;
}

/** The file as one string; 422 XML_GENERATION_ERROR naming the bills the library refused (none: checked in sepa.ts). */
export function sepaXml(s: SepaSource): string {
  const doc = new Document('pain.008.001.08');
  doc.grpHdr.id = s.messageId;
  doc.grpHdr.created = s.created;
  doc.grpHdr.initiatorName = s.creditor.name;

  const refused: string[] = [];
  const blocks: { info: PaymentInfo; cents: bigint }[] = [];
  for (const sequenceType of ['FRST', 'RCUR'] as const) {
    const debits = s.debits.filter((d) => d.sequenceType === sequenceType);
    if (debits.length === 0) continue;
    const info = paymentInfo(doc, s, sequenceType);
    for (const d of debits) if (!addDebit(info, d)) refused.push(d.billNumber);
    const cents = debits.reduce((sum, d) => sum + d.cents, 0n);
    // The library would add the amounts up as floats; the block's sum is the integer one.
    info.normalize = () => {
      info.controlSum = amountOf(cents);
    };
    blocks.push({ info, cents });
  }
  if (refused.length)
    throw new ApiError(422, 'XML_GENERATION_ERROR', 'Bills a SEPA file cannot carry', { billNumbers: refused.slice(0, 20) });

  doc.normalize = () => {
    for (const b of blocks) b.info.normalize();
    doc.grpHdr.controlSum = amountOf(blocks.reduce((sum, b) => sum + b.cents, 0n));
    doc.grpHdr.transactionCount = s.debits.length;
  };
  try {
    return doc.toString();
  } catch {
    // The creditor's values were checked in sepa.ts; should the library still refuse, no half file goes out.
    throw new ApiError(422, 'XML_GENERATION_ERROR', 'The creditor data cannot be written to a SEPA file', { cpoId: s.creditor.cpoId });
  }
}
