import { updateErpBodySchema, type UpdateErpBody } from '../../../contract/operator-writes';
import type { OperatorDetail } from '../../../contract/operators';
import { isClearingPaymentMethod } from '../../../contract/downloads';
import { erpPaymentMethods, type ErpPaymentMethod } from '../../../contract/enums';
import { dropEmpty } from '../../api/client';
import type { FormRules } from '../../ui/use-form';
import { operatorRule } from './operator-rules';

/** The ERP values of an operator (spec 3 §5): per payment method, its client number and ledger accounts. */

export type ErpValues = {
  paymentMethod: string;
  clientNumber: string;
  netLedgerAccountNr: string;
  taxLedgerAccountNr: string;
  /** Stripe's methods only: the clearing account (Geldtransitkonto) their bills are posted on (issue 35). */
  clearingAccountNr: string;
};

const erp = updateErpBodySchema.shape;

/** Spec 3 §5: client number, net ledger account and payment method required; tax ledger account optional. */
export const erpRules: FormRules<ErpValues> = {
  paymentMethod: [operatorRule(erp.paymentMethod)],
  clientNumber: [operatorRule(erp.clientNumber)],
  netLedgerAccountNr: [operatorRule(erp.netLedgerAccountNr)],
  taxLedgerAccountNr: [operatorRule(erp.taxLedgerAccountNr)],
  clearingAccountNr: [operatorRule(erp.clearingAccountNr)],
};

/**
 * The payment methods an ERP value can be edited for: those that have one, those the operator
 * takes payments with, and Stripe's (its contracts may pay through Stripe whatever the operator's
 * preference, and an accountant books all revenue: issue 35); all of them when it has none yet.
 */
export function erpMethodsOf(operator: Pick<OperatorDetail, 'erpValues' | 'cpoPaymentDetails'>): ErpPaymentMethod[] {
  const own = new Set<string>([
    ...operator.erpValues.map((e) => e.paymentMethod),
    ...(operator.cpoPaymentDetails?.cpoPaymentPreference ?? []),
  ]);
  if (own.size === 0) return [...erpPaymentMethods];
  return erpPaymentMethods.filter((m) => own.has(m) || isClearingPaymentMethod(m));
}

export function erpValuesOf(operator: Pick<OperatorDetail, 'erpValues'>, paymentMethod: string): ErpValues {
  const current = operator.erpValues.find((e) => e.paymentMethod === paymentMethod);
  return {
    paymentMethod,
    clientNumber: current?.clientNumber ?? '',
    netLedgerAccountNr: current?.netLedgerAccountNr ?? '',
    taxLedgerAccountNr: current?.taxLedgerAccountNr ?? '',
    clearingAccountNr: current?.clearingAccountNr ?? '',
  };
}

/** PUT /bookings/update-erp-information with the version the user saw. */
export function buildErpPayload(cpoId: string, version: number | undefined, v: ErpValues): UpdateErpBody {
  return dropEmpty({
    cpoId,
    clientNumber: v.clientNumber.trim(),
    netLedgerAccountNr: v.netLedgerAccountNr.trim(),
    taxLedgerAccountNr: v.taxLedgerAccountNr.trim(),
    // Only Stripe's methods post on a clearing account; another method's value has none.
    clearingAccountNr: isClearingPaymentMethod(v.paymentMethod) ? v.clearingAccountNr.trim() : '',
    paymentMethod: v.paymentMethod,
    version,
  }) as UpdateErpBody;
}
