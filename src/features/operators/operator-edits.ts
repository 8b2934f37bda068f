import type { OperatorDetail } from '../../../contract/operators';
import type { NewWrite } from '../../offline/outbox-write';
import {
  OPERATOR_ADDRESS_WRITE,
  OPERATOR_BILLING_WRITE,
  OPERATOR_ERP_WRITE,
  operatorScope,
  type OperatorWriteData,
  type OperatorWriteKind,
} from './api/operator-writes';
import { buildBillingPayload, type BillingValues } from './operator-billing-form';
import { buildErpPayload, type ErpValues } from './operator-erp-form';
import { buildAddressPayload, type AddressValues } from './operator-form';

/** The three edits of an operator's page as outbox writes (spec 3 §2, the way of a write in ARCHITECTURE.md). */

const newDraft = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

function write<V extends Record<string, string>>(
  kind: OperatorWriteKind,
  operator: Pick<OperatorDetail, 'cpoId' | 'cpoName'>,
  version: number | undefined,
  values: V,
  request: NewWrite['request'],
): NewWrite<OperatorWriteData<V>> {
  return {
    scope: operatorScope(operator.cpoId),
    kind,
    data: { cpoId: operator.cpoId, cpoName: operator.cpoName, draft: newDraft(), values },
    ...(version !== undefined && { version }),
    request,
  };
}

/** AddressInfo: name and address (PUT /bff/cpos/update-operator-information). */
export const addressWrite = (operator: Pick<OperatorDetail, 'cpoId' | 'cpoName'>, version: number | undefined, values: AddressValues) =>
  write(OPERATOR_ADDRESS_WRITE, operator, version, values, {
    service: 'bff',
    path: '/cpos/update-operator-information',
    method: 'PUT',
    body: buildAddressPayload(operator.cpoId, version, values),
  });

/** BillingInfo: the invoice template (PUT /bff/cpos/update-operator-information). */
export const billingWrite = (operator: Pick<OperatorDetail, 'cpoId' | 'cpoName'>, version: number | undefined, values: BillingValues) =>
  write(OPERATOR_BILLING_WRITE, operator, version, values, {
    service: 'bff',
    path: '/cpos/update-operator-information',
    method: 'PUT',
    body: buildBillingPayload(operator.cpoId, version, values),
  });

/** One ERP value (PUT /booking-service/bookings/update-erp-information). */
export const erpWrite = (operator: Pick<OperatorDetail, 'cpoId' | 'cpoName'>, version: number | undefined, values: ErpValues) =>
  write(OPERATOR_ERP_WRITE, operator, version, values, {
    service: 'bookingService',
    path: '/bookings/update-erp-information',
    method: 'PUT',
    body: buildErpPayload(operator.cpoId, version, values),
  });
