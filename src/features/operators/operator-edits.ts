import type { OperatorDetail } from '../../../contract/operators';
import type { NewWrite, OutboxWrite } from '../../offline/outbox-write';
import {
  OPERATOR_ADDRESS_WRITE,
  OPERATOR_BILLING_WRITE,
  OPERATOR_ERP_WRITE,
  editOfKind,
  operatorScope,
  type OperatorWriteData,
  type OperatorWriteKind,
} from './api/operator-writes';
import {
  buildAddressPayload,
  buildBillingPayload,
  buildErpPayload,
  type AddressValues,
  type BillingValues,
  type ErpValues,
} from './operator-form';

/** The three edits of an operator's page as outbox writes (spec 3 §2, the way of a write in ARCHITECTURE.md). */

const isOperatorKind = (kind: string): kind is OperatorWriteKind => kind in editOfKind;

/**
 * The version a new write of this operator must carry: the one the user saw, or one more per write
 * of theirs still queued (or just sent, before the page refetched), since the server moves the
 * version on by exactly one for every accepted write (either workflow or an ERP value); without
 * this a second offline edit would be refused as a conflict with the user's own first one. Failed
 * writes changed nothing and do not count.
 */
export function versionToSend(operator: Pick<OperatorDetail, 'cpoId' | 'version'>, writes: readonly OutboxWrite[]): number | undefined {
  let version = operator.version;
  if (version === undefined) return undefined;
  for (const w of writes) {
    if (w.scope !== operatorScope(operator.cpoId) || w.state === 'failed' || !isOperatorKind(w.kind)) continue;
    const expected = (w.data as OperatorWriteData | undefined)?.version;
    if (expected !== undefined) version = Math.max(version, expected + 1);
  }
  return version;
}

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
    data: { cpoId: operator.cpoId, cpoName: operator.cpoName, version, draft: newDraft(), values },
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
