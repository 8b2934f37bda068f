import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { SEPA_FILE_MAX_BILLS, type SepaDebitQuery } from '../../../contract/downloads';
import type { ErrorCode } from '../../../contract/errors';
import { compactId, isCreditorId } from '../../../contract/operators';
import { notFound, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import {
  contractsCollectedBefore,
  mandateFiles,
  mandateKey,
  recordMandateCollections,
  sepaBills,
  sepaCreditor,
  type SepaBill,
} from './queries';
import { SEPA_ID, sepaText, SEPA_MAX } from './sepa-text';

/**
 * What the SEPA direct-debit file of one operator and one collection date is made of (issue 26):
 * the creditor (the operator, its IBAN and creditor id), and per bill the debtor, the mandate and
 * the amount in cents. Everything the file needs is checked before it is made, each gap answering
 * its code with the contracts and bills it concerns, so a bank never gets a broken file.
 */

export type SequenceType = 'FRST' | 'RCUR';

export interface SepaCreditor {
  cpoId: string;
  name: string;
  iban: string;
  /** Only a valid BIC of the IBAN's country; without it the file says NOTPROVIDED (IBAN only). */
  bic: string | undefined;
  creditorId: string;
}

export interface SepaDebit {
  billNumber: string;
  contractNumber: string;
  debtorName: string;
  iban: string;
  mandateReference: string;
  mandateDate: string;
  cents: bigint;
  startDate: string;
  endDate: string;
  sequenceType: SequenceType;
}

export interface SepaSource {
  creditor: SepaCreditor;
  collectionDate: string;
  messageId: string;
  created: Date;
  debits: SepaDebit[];
}

const ibanOf = (v: string | null) => {
  const compact = electronicFormatIBAN(v ?? '') ?? '';
  return isValidIBAN(compact) ? compact : undefined;
};

/** The first 20 of each, as the ERP checks name them. */
const affected = (rows: SepaBill[]) => ({
  contractNumbers: [...new Set(rows.map((r) => r.contractNumber))].sort().slice(0, 20),
  billNumbers: rows.map((r) => r.billNumber).slice(0, 20),
  count: rows.length,
});

function refuse(status: 404 | 422, code: ErrorCode, message: string, rows: SepaBill[]) {
  if (rows.length) throw new ApiError(status, code, message, affected(rows));
}

async function creditorOf(db: Db, scope: Scope, cpoId: string, mayExport: () => void) {
  const row = scope.canSeeOperator(cpoId) ? await sepaCreditor(db, scope, cpoId) : undefined;
  if (!row) throw notFound('operator', cpoId);
  mayExport();
  return row;
}

function checkedCreditor(cpoId: string, row: NonNullable<Awaited<ReturnType<typeof sepaCreditor>>>): SepaCreditor {
  if (!row.creditorId || !isCreditorId(row.creditorId))
    throw new ApiError(422, 'SEPA_CREDITOR_ID_MISSING', 'The operator has no valid SEPA creditor id', { cpoId });
  const iban = ibanOf(row.iban);
  if (!iban) throw new ApiError(422, 'SEPA_CREDITOR_IBAN_MISSING', 'The operator has no valid IBAN to collect to', { cpoId });
  const bic = row.bic ? compactId(row.bic) : '';
  return {
    cpoId,
    name: sepaText(row.cpoName, SEPA_MAX.name),
    iban,
    bic: isValidBIC(bic) && bic.slice(4, 6) === iban.slice(0, 2) ? bic : undefined,
    creditorId: compactId(row.creditorId),
  };
}

/** Every bill's contract must be the operator's, have a mandate the SEPA set can carry, and a valid IBAN. */
function checkBills(cpoId: string, rows: SepaBill[]) {
  refuse(
    404,
    'CONTRACT_NOT_FOUND',
    "A bill's contract is not the operator's",
    rows.filter((r) => r.contractCpoId !== cpoId),
  );
  refuse(
    422,
    'SEPA_MANDATE_MISSING',
    'Contracts without a mandate reference or mandate date',
    rows.filter((r) => !r.mandateReference?.trim() || !r.mandateDate),
  );
  refuse(
    422,
    'SEPA_MANDATE_REFERENCE_INVALID',
    'Mandate references outside the SEPA character set',
    rows.filter((r) => {
      const ref = r.mandateReference!.trim();
      // The scheme's rules for an id beyond its characters: no leading '/', no '//'.
      return !SEPA_ID.test(ref) || ref.startsWith('/') || ref.includes('//');
    }),
  );
  refuse(
    422,
    'SEPA_IBAN_INVALID',
    'Contracts whose IBAN is not valid',
    rows.filter((r) => !ibanOf(r.iban)),
  );
}

/** A MsgId unique per operator and second, short enough that payment and transaction ids stay within 35. */
function messageIdOf(cpoId: string, created: Date) {
  const stamp = created.toISOString().replace(/\D/g, '').slice(0, 14);
  return `${sepaText(cpoId, 10).replace(/ /g, '')}-${stamp}`;
}

/**
 * Each mandate's sequence type in the file of the date (issue 35). A date's file made before keeps
 * what it gave the mandate when first made, so it reads the same however often and in whatever
 * order files are made. Otherwise the mandate is RCUR when it was collected before: by a file of
 * another date made earlier (its FRST went to the bank with that file, and since November 2016
 * the EPC rulebook accepts RCUR for a first collection too, so an RCUR is never refused for being
 * first), or by a paid SEPA bill of the contract under the same mandate (contractsCollectedBefore:
 * not before the mandate's reference or IBAN last changed). Else it is FRST.
 */
async function sequenceTypes(
  db: Db,
  cpoId: string,
  collectionDate: string,
  mandates: { reference: string; key: string; contractKey: string }[],
) {
  const references = [...new Set(mandates.map((m) => m.reference))];
  const files = await mandateFiles(db, cpoId, references);
  const collected = await contractsCollectedBefore(db, cpoId, [...new Set(mandates.map((m) => m.contractKey))]);
  const types = new Map<string, SequenceType>();
  for (const m of mandates) {
    const f = files.get(m.key);
    const kept = f?.byDate.get(collectionDate);
    let type: SequenceType;
    if (kept) type = kept;
    // A row of the date from before the sequence type was kept: the rule of then, FRST on the date made first.
    else if (f?.byDate.has(collectionDate)) type = f.firstMade === collectionDate ? 'FRST' : 'RCUR';
    else type = f || collected.has(m.contractKey) ? 'RCUR' : 'FRST';
    // Two contracts with one mandate: once RCUR, RCUR for both.
    if (types.get(m.key) !== 'RCUR') types.set(m.key, type);
  }
  return types;
}

/**
 * The checked source of the operator's SEPA file for the day, or undefined when the day has no
 * bill to collect (204). Records which mandates the file collects, and as what (in the caller's
 * transaction; sequenceTypes).
 */
export async function sepaSource(
  db: Db,
  scope: Scope,
  q: SepaDebitQuery,
  mayExport: () => void,
  { now = new Date(), maxBills = SEPA_FILE_MAX_BILLS } = {},
): Promise<SepaSource | undefined> {
  const row = await creditorOf(db, scope, q.cpoId, mayExport);
  const rows = await sepaBills(db, scope, q.cpoId, q.collectionDate, maxBills + 1);
  if (rows.length === 0) return undefined;
  if (rows.length > maxBills)
    throw new ApiError(422, 'SEPA_TOO_MANY_BILLS', 'More bills on the day than one file carries', { max: maxBills });
  const creditor = checkedCreditor(q.cpoId, row);
  checkBills(q.cpoId, rows);

  const mandates = rows.map((r) => {
    const reference = r.mandateReference!.trim();
    const iban = ibanOf(r.iban)!;
    return { reference, iban, key: mandateKey(reference, iban), contractKey: r.contractKey };
  });
  const types = await sequenceTypes(db, q.cpoId, q.collectionDate, mandates);
  const messageId = messageIdOf(q.cpoId, now);
  const unique = [...new Map(mandates.map((m) => [m.key, { ...m, sequenceType: types.get(m.key)! }])).values()];
  await recordMandateCollections(db, q.cpoId, q.collectionDate, messageId, unique);
  const debits = rows.map((r, i): SepaDebit => {
    const m = mandates[i]!;
    return {
      billNumber: r.billNumber,
      contractNumber: r.contractNumber,
      debtorName: sepaText(`${r.firstName} ${r.lastName}`, SEPA_MAX.name),
      iban: m.iban,
      mandateReference: m.reference,
      mandateDate: r.mandateDate!,
      cents: BigInt(r.cents),
      startDate: r.startDate,
      endDate: r.endDate,
      sequenceType: types.get(m.key)!,
    };
  });
  return { creditor, collectionDate: q.collectionDate, messageId, created: now, debits };
}
