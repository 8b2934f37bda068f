import type { z } from 'zod/mini';
import { isClearingPaymentMethod, type erpExportQuerySchema } from '../../../contract/downloads';
import type { ErrorCode } from '../../../contract/errors';
import { notFound, type Scope } from '../auth/scope';
import { EXPORT_PAGE, keysetPages } from '../bookings/handlers';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { ERP_PATTERNS, matches, NAME_MAX, TEXT_MAX, xmlIllegal, type ErpPattern } from './erp-values';
import { billCursor, erpBillPage, erpGaps, erpValueOf, operatorLocationIds, type ErpBill } from './queries';

/**
 * What the ERP XML and the DATEV file are made of (spec 3 §7, §8; issue 25): the operator's ERP
 * value for the payment method and its bills of the range. Every value a posting needs is checked
 * before the first byte is sent, each missing one answering its spec code with a detail that names
 * it, so an accountant never gets half a file.
 */

export type ErpQuery = z.output<typeof erpExportQuerySchema>;
export interface ErpAccounts {
  cpoId: string;
  cpoName: string;
  clientNumber: string;
  netLedgerAccountNr: string;
  taxLedgerAccountNr: string;
  /**
   * Stripe's methods only (issue 35): the clearing account (Geldtransitkonto) the gross is posted
   * on instead of the end customer's debit account, as the payment provider holds the money.
   */
  clearingAccountNr?: string;
}
export interface ErpSource {
  accounts: ErpAccounts;
  bills: AsyncGenerator<ErpBill>;
}

const missing = (status: 404 | 422, code: ErrorCode, what: string, detail: Record<string, unknown>) =>
  new ApiError(status, code, `${what} missing for the ERP export`, detail);

const filled = (v: string | null | undefined): v is string => !!v && v.trim() !== '';

async function accountsOf(db: Db, scope: Scope, q: ErpQuery): Promise<ErpAccounts> {
  if (!scope.canSeeOperator(q.cpoId)) throw notFound('operator', q.cpoId);
  const erp = await erpValueOf(db, q.cpoId, q.paymentMethod);
  if (!erp) throw notFound('operator', q.cpoId);
  const detail = { cpoId: q.cpoId, paymentMethod: q.paymentMethod };
  if (erp.clientNumber === null) throw missing(404, 'ERP_VALUE_NOT_FOUND', 'ERP value', detail);
  if (!filled(erp.clientNumber)) throw missing(422, 'CLIENT_NUMBER_MISSING', 'Client number', { ...detail, missing: 'clientNumber' });
  if (!filled(erp.netLedgerAccountNr))
    throw missing(422, 'NET_LEDGER_ACCOUNT_NUMBER_MISSING', 'Net ledger account', { ...detail, missing: 'netLedgerAccountNr' });
  // The tax ledger account is optional in the ERP form (spec 3 §5), but a VAT posting needs it.
  if (!filled(erp.taxLedgerAccountNr))
    throw missing(404, 'ERP_SYSTEM_PARAMETERS_NOT_FOUND', 'Tax ledger account', { ...detail, missing: 'taxLedgerAccountNr' });
  const clearing = isClearingPaymentMethod(q.paymentMethod);
  if (clearing && !filled(erp.clearingAccountNr))
    throw missing(404, 'ERP_SYSTEM_PARAMETERS_NOT_FOUND', 'Clearing account', { ...detail, missing: 'clearingAccountNr' });
  const accounts: ErpAccounts = {
    cpoId: q.cpoId,
    cpoName: erp.cpoName,
    clientNumber: erp.clientNumber.trim(),
    netLedgerAccountNr: erp.netLedgerAccountNr!.trim(),
    taxLedgerAccountNr: erp.taxLedgerAccountNr.trim(),
    ...(clearing ? { clearingAccountNr: erp.clearingAccountNr!.trim() } : {}),
  };
  checkAccounts(accounts, q.paymentMethod);
  return accounts;
}

/** An ERP value that is there but not what the file allows (erp-values.ts), named with what was expected. */
export const invalidValue = (invalid: string, expected: string, detail: Record<string, unknown>) =>
  new ApiError(422, 'ERP_VALUE_INVALID', `${invalid} is not what the ERP export allows (${expected})`, { invalid, expected, ...detail });

/** The operator's values as the XSD has them: accounts by pattern, texts by length and characters. */
function checkAccounts(a: ErpAccounts, paymentMethod: string) {
  const detail = { cpoId: a.cpoId, paymentMethod };
  const account = (field: 'netLedgerAccountNr' | 'taxLedgerAccountNr' | 'clearingAccountNr', p: ErpPattern) => {
    const v = a[field];
    if (v !== undefined && !matches(p, v)) throw invalidValue(field, ERP_PATTERNS[p].expected, { ...detail, value: v.slice(0, 60) });
  };
  account('netLedgerAccountNr', 'ledgerAccount');
  account('taxLedgerAccountNr', 'ledgerAccount');
  account('clearingAccountNr', 'ledgerAccount');
  for (const field of ['clientNumber', 'cpoName'] as const) {
    if (xmlIllegal.test(a[field]))
      throw new ApiError(422, 'XML_GENERATION_ERROR', `The operator's ${field} holds characters a file cannot carry`, {
        ...detail,
        invalid: field,
      });
    if (a[field].length > TEXT_MAX) throw invalidValue(field, `at most ${TEXT_MAX} characters`, detail);
  }
}

/** The bills' gaps, in the catalogue's order; undefined when the range has no bill at all (204). */
async function checkBills(db: Db, scope: Scope, q: ErpQuery, debtorDigits?: number): Promise<true | undefined> {
  const g = await erpGaps(db, scope, q.cpoId, q.paymentMethod, q, debtorDigits);
  if (g.all === 0) return undefined;
  if (g.matching === 0)
    throw new ApiError(404, 'BILLING_NOT_FOUND', 'No bill with this payment method in the range', {
      paymentMethod: q.paymentMethod,
      billsWithOtherPaymentMethods: g.all,
    });
  if (g.foreignContract.length)
    throw new ApiError(404, 'CONTRACT_NOT_FOUND', "A bill's contract is not the operator's", { billNumbers: g.foreignContract });
  const customers = (code: ErrorCode, what: string, ids: string[]) => {
    if (ids.length) throw missing(422, code, what, { endCustomerId: ids[0], endCustomerIds: ids });
  };
  customers('DEBIT_ACCOUNT_NR_MISSING', 'Debit account', g.noDebit);
  customers('COST_CENTER_NR_MISSING', 'Cost centre', g.noCostCenter);
  customers('VAT_ID_MISSING', 'VAT id', g.noVatId);
  const invalid = (field: string, p: ErpPattern, ids: string[]) => {
    if (ids.length) throw invalidValue(field, ERP_PATTERNS[p].expected, { endCustomerId: ids[0], endCustomerIds: ids });
  };
  invalid('debitAccountNr', 'debitAccount', g.badDebit);
  invalid('costCenterNumber', 'costCenter', g.badCostCenter);
  if (g.debitOfOtherLength.length)
    throw invalidValue('debitAccountNr', `${debtorDigits} digits: a DATEV debtor account has one digit more than the ledger accounts`, {
      endCustomerId: g.debitOfOtherLength[0],
      endCustomerIds: g.debitOfOtherLength,
    });
  if (g.badText.length)
    throw invalidValue('text', `bill number, end customer id and VAT id of 1 to ${TEXT_MAX} characters, a name of 1 to ${NAME_MAX}`, {
      billNumbers: g.badText,
    });
  if (g.unwritable.length)
    throw new ApiError(422, 'XML_GENERATION_ERROR', 'A bill holds characters a file cannot carry', { billNumbers: g.unwritable });
  return true;
}

/**
 * The checked source of an ERP or DATEV file, or undefined when the range has no bills (204).
 * Locations must be the operator's: another's, or one outside the scope, is a 404 for the request.
 */
export async function erpSource(
  db: Db,
  scope: Scope,
  q: ErpQuery,
  mayExport: () => void,
  pageSize = EXPORT_PAGE,
  /** DATEV: the debtor accounts' length for these accounts (the bills are checked against it; none when no debtor is posted). */
  debtorDigitsFor?: (accounts: ErpAccounts) => number | undefined,
): Promise<ErpSource | undefined> {
  if (!scope.canSeeOperator(q.cpoId)) throw notFound('operator', q.cpoId);
  if (Array.isArray(q.locationIds)) {
    const own = await operatorLocationIds(db, scope, q.cpoId, q.locationIds);
    const foreign = q.locationIds.filter((id) => !own.has(id));
    if (foreign.length) throw notFound('location', foreign);
  }
  mayExport();
  const accounts = await accountsOf(db, scope, q);
  if (!(await checkBills(db, scope, q, debtorDigitsFor?.(accounts)))) return undefined;
  const page = (after?: Parameters<typeof erpBillPage>[6]) => erpBillPage(db, scope, q.cpoId, q.paymentMethod, q, pageSize, after);
  const first = await page();
  return { accounts, bills: keysetPages(first, pageSize, billCursor, page) };
}
