import { updateErpBodySchema, type UpdateErpBody } from '../../../contract/operator-writes';
import type { OperatorDetail } from '../../../contract/operators';
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
};

const erp = updateErpBodySchema.shape;

/** Spec 3 §5: client number, net ledger account and payment method required; tax ledger account optional. */
export const erpRules: FormRules<ErpValues> = {
  paymentMethod: [operatorRule(erp.paymentMethod)],
  clientNumber: [operatorRule(erp.clientNumber)],
  netLedgerAccountNr: [operatorRule(erp.netLedgerAccountNr)],
  taxLedgerAccountNr: [operatorRule(erp.taxLedgerAccountNr)],
};

/**
 * The payment methods an ERP value can be edited for: those that have one, then those the operator
 * takes payments with; all of them when it has neither yet.
 */
export function erpMethodsOf(operator: Pick<OperatorDetail, 'erpValues' | 'cpoPaymentDetails'>): ErpPaymentMethod[] {
  const known = new Set<string>([
    ...operator.erpValues.map((e) => e.paymentMethod),
    ...(operator.cpoPaymentDetails?.cpoPaymentPreference ?? []),
  ]);
  const methods = erpPaymentMethods.filter((m) => known.has(m));
  return methods.length ? methods : [...erpPaymentMethods];
}

export function erpValuesOf(operator: Pick<OperatorDetail, 'erpValues'>, paymentMethod: string): ErpValues {
  const current = operator.erpValues.find((e) => e.paymentMethod === paymentMethod);
  return {
    paymentMethod,
    clientNumber: current?.clientNumber ?? '',
    netLedgerAccountNr: current?.netLedgerAccountNr ?? '',
    taxLedgerAccountNr: current?.taxLedgerAccountNr ?? '',
  };
}

/** PUT /bookings/update-erp-information with the version the user saw. */
export function buildErpPayload(cpoId: string, version: number | undefined, v: ErpValues): UpdateErpBody {
  return dropEmpty({
    cpoId,
    clientNumber: v.clientNumber.trim(),
    netLedgerAccountNr: v.netLedgerAccountNr.trim(),
    taxLedgerAccountNr: v.taxLedgerAccountNr.trim(),
    paymentMethod: v.paymentMethod,
    version,
  }) as UpdateErpBody;
}
