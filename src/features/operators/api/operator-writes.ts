import { type OperatorDetail } from '../../../../contract/operators';
import { operatorConflictDetailSchema } from '../../../../contract/operator-writes';
import type { TranslateFn } from '../../../i18n/i18n-context';
import type { OutboxError, OutboxWrite } from '../../../offline/outbox-write';
import { registerWriteKind } from '../../../offline/write-kinds';
import { operatorKeys } from './operator-keys';
import { prefixTakenOf } from './prefix-taken';
import { methodMessageId, operatorDetailQueryOptions } from './operator-queries';

/**
 * The operators area's outbox writes (spec 3 §2: the three edits of an operator's page). Registered at
 * start-up (src/write-kinds.ts), so a write replayed after a reload on any screen refreshes what it
 * changed: the operator's page, and for a new name or address the lists, the operator selects and
 * the location pages that show the operator.
 */

export const OPERATOR_ADDRESS_WRITE = 'operator.address';
export const OPERATOR_BILLING_WRITE = 'operator.billing';
export const OPERATOR_ERP_WRITE = 'operator.erp';
export type OperatorWriteKind = typeof OPERATOR_ADDRESS_WRITE | typeof OPERATOR_BILLING_WRITE | typeof OPERATOR_ERP_WRITE;

/** Which edit a write is, as the page's `?edit=` names it. */
export const editOfKind = {
  [OPERATOR_ADDRESS_WRITE]: 'address',
  [OPERATOR_BILLING_WRITE]: 'billing',
  [OPERATOR_ERP_WRITE]: 'erp',
} as const;
export type OperatorEdit = (typeof editOfKind)[OperatorWriteKind];

export interface OperatorWriteData<V = Record<string, string>> {
  cpoId: string;
  cpoName: string;
  /** Names this write for 'Erneut bearbeiten': the form opens again with `values`. */
  draft: string;
  /** The form's values as the user entered them. */
  values: V;
}

/**
 * All writes of one operator share a scope: they go out in order, each with the version the user
 * saw (`version`, offline/versioned-writes.ts); each one accepted moves the operator on by one.
 */
export const operatorScope = (cpoId: string) => `operator:${cpoId}`;

/** The operator's page with the edit open again and what the user entered (`routes/_app/betreiber/$details.tsx`). */
const formPath = (edit: OperatorEdit) => (d: OperatorWriteData) =>
  `/betreiber/${encodeURIComponent(d.cpoId)}?${new URLSearchParams({ edit, draft: d.draft }).toString()}`;

/** The operator as a colleague left it (409 CONFLICT's errorDetail), or null for any other refusal. */
function currentOperator(error: OutboxError): { current: OperatorDetail; version: string } | null {
  const parsed = operatorConflictDetailSchema.safeParse(error.detail);
  return parsed.success ? { current: parsed.data.current, version: String(parsed.data.currentVersion) } : null;
}

const describeAddress = (error: OutboxError, t: TranslateFn) => {
  const c = currentOperator(error);
  if (!c) return null;
  const a = c.current.cpoAddress;
  return t('operators.writes.conflictAddress', {
    name: c.current.cpoName,
    address: [a.street, a.careOf ? `c/o ${a.careOf}` : '', `${a.zipCode} ${a.city}`].filter(Boolean).join(', '),
    version: c.version,
  });
};

/** 422 SEPA_CREDITOR_ID_REQUIRED (issue 35): the contracts that pay by SEPA, the first 20 named, and how many. */
function creditorIdRequired(error: OutboxError, t: TranslateFn) {
  if (error.code !== 'SEPA_CREDITOR_ID_REQUIRED') return null;
  const d = (error.detail ?? {}) as { contractNumbers?: unknown; count?: unknown };
  const numbers = Array.isArray(d.contractNumbers) ? d.contractNumbers.filter((n): n is string => typeof n === 'string') : [];
  const count = typeof d.count === 'number' ? d.count : numbers.length;
  return t('operators.writes.creditorIdRequired', { count, contracts: `${numbers.join(', ')}${count > numbers.length ? ', …' : ''}` });
}

const describeBilling = (error: OutboxError, t: TranslateFn) => {
  const taken = prefixTakenOf(error);
  if (taken !== null) return t('operators.writes.prefixTaken', { prefix: taken });
  const creditor = creditorIdRequired(error, t);
  if (creditor) return creditor;
  const c = currentOperator(error);
  if (!c) return null;
  const p = c.current.cpoPaymentDetails;
  return t('operators.writes.conflictBilling', {
    contact: c.current.contactPersonDetails.contactPersonName || '–',
    modes: p?.cpoPaymentPreference.length ? p.cpoPaymentPreference.map((m) => t(methodMessageId(m))).join(', ') : '–',
    header: c.current.billingTemplateHeader.lineOne || '–',
    version: c.version,
  });
};

const describeErp = (error: OutboxError, t: TranslateFn) => {
  const c = currentOperator(error);
  if (!c) return null;
  const values = c.current.erpValues
    .map((e) => `${t(methodMessageId(e.paymentMethod))}: ${e.clientNumber} / ${e.netLedgerAccountNr}`)
    .join('; ');
  return t('operators.writes.conflictErp', { values: values || '–', version: c.version });
};

const refreshDetail = (d: OperatorWriteData) => [operatorDetailQueryOptions(d.cpoId)];

export function registerOperatorWrites(): void {
  registerWriteKind<OperatorWriteData>({
    kind: OPERATOR_ADDRESS_WRITE,
    name: (t) => t('operators.writes.address'),
    label: (d, t) => t('operators.writes.addressLabel', { cpoId: d.cpoId, name: d.values.cpoName ?? d.cpoName }),
    // A new name or address shows in the lists and every operator select; the location pages show it
    // too and say so themselves (meta.shows).
    refreshes: (d) => [...refreshDetail(d), operatorKeys.lists()],
    formPath: formPath('address'),
    describeFailure: describeAddress,
  });
  registerWriteKind<OperatorWriteData>({
    kind: OPERATOR_BILLING_WRITE,
    name: (t) => t('operators.writes.billing'),
    label: (d, t) => t('operators.writes.billingLabel', { cpoId: d.cpoId, name: d.cpoName }),
    refreshes: refreshDetail,
    formPath: formPath('billing'),
    describeFailure: describeBilling,
  });
  registerWriteKind<OperatorWriteData>({
    kind: OPERATOR_ERP_WRITE,
    name: (t) => t('operators.writes.erp'),
    label: (d, t) =>
      t('operators.writes.erpLabel', {
        cpoId: d.cpoId,
        name: d.cpoName,
        method: d.values.paymentMethod ? t(methodMessageId(d.values.paymentMethod)) : '',
      }),
    refreshes: refreshDetail,
    formPath: formPath('erp'),
    describeFailure: describeErp,
  });
}

/** What the user entered in a write of this page (the outbox's 'Erneut bearbeiten'), if it is still kept. */
export function draftValues(
  writes: readonly OutboxWrite[],
  cpoId: string,
  edit: OperatorEdit,
  draft: string | undefined,
): Record<string, string> | null {
  if (!draft) return null;
  const found = writes.find(
    (w) =>
      w.scope === operatorScope(cpoId) &&
      w.kind in editOfKind &&
      editOfKind[w.kind as OperatorWriteKind] === edit &&
      (w.data as OperatorWriteData | undefined)?.draft === draft,
  );
  return found ? (found.data as OperatorWriteData).values : null;
}
