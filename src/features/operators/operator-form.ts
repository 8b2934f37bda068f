import * as z from 'zod/mini';
import {
  operatorCareOfSchema,
  operatorCitySchema,
  operatorNameSchema,
  operatorStreetSchema,
  operatorZipCodeSchema,
  type OperatorDetail,
} from '../../../contract/operators';
import type { CreateOperatorBody, UpdateOperatorBody } from '../../../contract/operator-writes';
import { customerTypes } from '../../../contract/common';
import { dropEmpty } from '../../api/client';
import { isApiError, isNetworkError } from '../../api/errors';
import { prefixTakenOf } from './api/prefix-taken';
import type { FormRules } from '../../ui/use-form';
import { billingPayload, type BillingValues } from './operator-billing-form';
import { isBlank, isOn, operatorRule, requiredFailure } from './operator-rules';

/**
 * The operator wizards' values and rules (spec 1 §5, spec 3 §4-5): name and address, the customer
 * it belongs to, the creation's body and what its failures say. The invoice template is
 * operator-billing-form.ts, the ERP values operator-erp-form.ts. Every limit and format comes from
 * the contract (contract/operators.ts), which the server checks too.
 */

export const CUSTOMER_TYPES = customerTypes;

// ---- step 1 / AddressInfo: operator info -------------------------------------------------------

/** Name and address, as in the AddressInfo edit (spec 3 §5: name, street, zip code and city required). */
export type AddressValues = {
  cpoName: string;
  street: string;
  careOf: string;
  zipCode: string;
  city: string;
};

export const addressRules: FormRules<AddressValues> = {
  cpoName: [operatorRule(operatorNameSchema)],
  street: [operatorRule(operatorStreetSchema)],
  careOf: [operatorRule(operatorCareOfSchema)],
  zipCode: [operatorRule(operatorZipCodeSchema)],
  city: [operatorRule(operatorCitySchema)],
};

export const emptyAddress = (): AddressValues => ({ cpoName: '', street: '', careOf: '', zipCode: '', city: '' });

export function addressValuesOf(operator: Pick<OperatorDetail, 'cpoName' | 'cpoAddress'>): AddressValues {
  const a = operator.cpoAddress;
  return { cpoName: operator.cpoName, street: a.street, careOf: a.careOf ?? '', zipCode: a.zipCode, city: a.city };
}

const addressPayload = (v: AddressValues) => ({
  street: v.street.trim(),
  careOf: v.careOf.trim() || undefined,
  zipCode: v.zipCode.trim(),
  city: v.city.trim(),
  countryCode: 'DE' as const,
});

/** Step 1 of the creation wizard: name and address, the customer it belongs to, the manual end-customer-id flag. */
export type OperatorInfoValues = AddressValues & {
  customerId: string;
  customerType: string;
  createManualEndCustomerId: 'true' | 'false';
};

/**
 * An admin names the customer the new operator belongs to (required); everyone else creates for
 * their own customer, shown but fixed (contract: createOperatorBodySchema).
 */
export function operatorInfoRules(isAdmin: boolean): FormRules<OperatorInfoValues> {
  return {
    ...addressRules,
    customerId: isAdmin
      ? [(v: unknown) => (isBlank(String(v ?? '')) ? requiredFailure : null), operatorRule(z.string().check(z.maxLength(100, 'max100')))]
      : [],
    customerType: [(v: unknown) => ((CUSTOMER_TYPES as readonly unknown[]).includes(v) ? null : requiredFailure)],
  };
}

export function emptyOperatorInfo(claims: { customer_id: string; customer_type: string } | null, isAdmin: boolean): OperatorInfoValues {
  return {
    ...emptyAddress(),
    customerId: isAdmin ? '' : (claims?.customer_id ?? ''),
    customerType: isAdmin ? 'Operator' : (claims?.customer_type ?? 'Operator'),
    createManualEndCustomerId: 'false',
  };
}

// ---- payloads -----------------------------------------------------------------------------------

/** POST /cpos/create-operator (spec 1 §7): empty values removed, payment preference as a list. */
export function buildCreatePayload(info: OperatorInfoValues, billing: BillingValues): CreateOperatorBody {
  const body = {
    cpoName: info.cpoName.trim(),
    cpoAddress: addressPayload(info),
    customerId: info.customerId.trim(),
    customerType: info.customerType,
    createManualEndCustomerId: isOn(info.createManualEndCustomerId),
    ...billingPayload(billing),
  };
  return dropEmpty(body) as CreateOperatorBody;
}

/** PUT /cpos/update-operator-information, workflow AddressInfo, with the version the user saw. */
export function buildAddressPayload(cpoId: string, version: number | undefined, v: AddressValues): UpdateOperatorBody {
  return dropEmpty({
    workFlow: 'AddressInfo',
    cpoId,
    cpoName: v.cpoName.trim(),
    cpoAddress: addressPayload(v),
    version,
  }) as UpdateOperatorBody;
}

// ---- creation failures ------------------------------------------------------------------------------

/** What the creation wizard says when it failed (spec 1 §8). */
export type CreateFailure =
  | { kind: 'customerNotFound'; customerId: string }
  | { kind: 'operatorNotFound'; cpoId: string }
  | { kind: 'forbidden' }
  | { kind: 'prefixTaken'; billNumberPrefix: string }
  | { kind: 'validation' }
  | { kind: 'offline' }
  | { kind: 'generic' };

export function createFailure(error: unknown, customerId: string): CreateFailure {
  if (isNetworkError(error)) return { kind: 'offline' };
  if (!isApiError(error)) return { kind: 'generic' };
  const detail = (error.errorDetail ?? {}) as { customerId?: unknown; cpoId?: unknown };
  if (error.errorCodeResponse === 'CUSTOMER_NOT_FOUND')
    return { kind: 'customerNotFound', customerId: typeof detail.customerId === 'string' ? detail.customerId : customerId };
  if (error.errorCodeResponse === 'OPERATOR_NOT_FOUND')
    return { kind: 'operatorNotFound', cpoId: typeof detail.cpoId === 'string' ? detail.cpoId : '' };
  const taken = prefixTakenOf(error);
  if (taken !== null) return { kind: 'prefixTaken', billNumberPrefix: taken };
  if (error.status === 403) return { kind: 'forbidden' };
  if (error.status === 400) return { kind: 'validation' };
  return { kind: 'generic' };
}
