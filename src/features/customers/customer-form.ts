import type * as z from 'zod/mini';
import { customerTypes } from '../../../contract/common';
import {
  PRODUCT_PACKAGE,
  companyNameSchema,
  customerIdSchema,
  firstNameSchema,
  lastNameSchema,
  roleSchema,
  userEmailSchema,
  type AddDashboardUserBody,
  type CreateCustomerBody,
} from '../../../contract/customers';
import { operatorCareOfSchema, operatorCitySchema, operatorStreetSchema, operatorZipCodeSchema } from '../../../contract/operators';
import { isApiError, isNetworkError } from '../../api/errors';
import type { FormRules } from '../../ui/use-form';
import { fromSchema, type Rule, type ValidationFailure } from '../../ui/validation';

/**
 * The forms of customer management (spec 3 §2, §3, §5): the create-customer wizard's company and
 * user steps, the 'add external user' dialog, what each sends and how a refusal reads. Every limit
 * and format comes from contract/customers.ts.
 */

export const CUSTOMER_TYPES = customerTypes;
export type CustomerType = (typeof customerTypes)[number];

/**
 * A form rule from a contract field schema. Spec 3 §5's own codes ('emailRequired', 'emailFormat',
 * 'alphanumeric') read as every other form's messages (issue 23: one message set for all forms).
 */
export const customerRule = (schema: z.ZodMiniType): Rule<string> => fromSchema(schema);

// ---- step 1: company information ------------------------------------------------------------------

export interface CompanyValues extends Record<string, string> {
  customerId: string;
  customerType: string;
  companyName: string;
  careOf: string;
  street: string;
  zipCode: string;
  city: string;
  /** 'true' | 'false' */
  createManualEndCustomerId: string;
}

export const emptyCompany = (): CompanyValues => ({
  customerId: '',
  customerType: 'Operator',
  companyName: '',
  careOf: '',
  street: '',
  zipCode: '',
  city: '',
  createManualEndCustomerId: 'false',
});

const requiredFailure: ValidationFailure = { id: 'validation.required' };

export const companyRules: FormRules<CompanyValues> = {
  customerId: [customerRule(customerIdSchema)],
  customerType: [(v) => ((CUSTOMER_TYPES as readonly string[]).includes(v) ? null : requiredFailure)],
  companyName: [customerRule(companyNameSchema)],
  careOf: [customerRule(operatorCareOfSchema)],
  street: [customerRule(operatorStreetSchema)],
  zipCode: [customerRule(operatorZipCodeSchema)],
  city: [customerRule(operatorCitySchema)],
};

// ---- step 2: user information (also the 'add external user' form) -------------------------------

export interface UserValues extends Record<string, string> {
  firstName: string;
  lastName: string;
  email: string;
  role: string;
}

export const emptyUser = (): UserValues => ({ firstName: '', lastName: '', email: '', role: '' });

export const userRules: FormRules<UserValues> = {
  firstName: [customerRule(firstNameSchema)],
  lastName: [customerRule(lastNameSchema)],
  email: [customerRule(userEmailSchema)],
  role: [customerRule(roleSchema)],
};

// ---- payloads ---------------------------------------------------------------------------------------

const trimmed = (v: string) => v.trim();
/** A value or nothing: empty values are dropped before sending (spec 3 §5). */
const given = (v: string) => (v.trim() ? v.trim() : undefined);

function userPayload(user: UserValues) {
  return {
    firstName: trimmed(user.firstName),
    lastName: trimmed(user.lastName),
    email: trimmed(user.email),
    role: trimmed(user.role),
    productPackage: PRODUCT_PACKAGE as typeof PRODUCT_PACKAGE,
    sendEmail: false,
  };
}

/** The create-customer payload (spec 3 §3): empty values and empty address fields dropped. */
export function buildCustomerPayload(company: CompanyValues, user: UserValues): CreateCustomerBody {
  const address = {
    careOf: given(company.careOf),
    street: trimmed(company.street),
    zipCode: trimmed(company.zipCode),
    city: trimmed(company.city),
  };
  return {
    customerId: trimmed(company.customerId),
    ...userPayload(user),
    customerType: company.customerType as CustomerType,
    address: Object.fromEntries(Object.entries(address).filter(([, v]) => v)) as CreateCustomerBody['address'],
    companyName: trimmed(company.companyName),
    isNewCustomer: true,
    createManualEndCustomerId: company.createManualEndCustomerId === 'true',
  };
}

/** 'add external user' (spec 3 §2): a dashboard user of this customer. */
export function buildAddUserPayload(customer: { customerId: string; customerType: CustomerType }, user: UserValues): AddDashboardUserBody {
  return { customerId: customer.customerId, customerType: customer.customerType, ...userPayload(user), isNewCustomer: false };
}

type TranslateFn = (id: string, values?: Record<string, string | number>) => string;
export type Entry = [label: string, value: string];

/**
 * The confirm step (spec 3 §2): the non-empty values of first name, last name, e-mail, customer
 * id, customer type, address ('c/o …', street, zip and city), company name, role, product package
 * and the manual-customer-numbers flag ('true' or 'false').
 */
export function confirmEntries(t: TranslateFn, company: CompanyValues, user: UserValues): Entry[] {
  const entries: [string, string | undefined][] = [
    [t('customers.fields.firstName'), given(user.firstName)],
    [t('customers.fields.lastName'), given(user.lastName)],
    [t('customers.fields.email'), given(user.email)],
    [t('customers.fields.customerId'), given(company.customerId)],
    [t('customers.fields.customerType'), company.customerType ? t(`customers.customerType.${company.customerType}`) : undefined],
    [t('customers.fields.careOf'), given(company.careOf) && `c/o ${company.careOf.trim()}`],
    [t('customers.fields.street'), given(company.street)],
    [t('customers.fields.zipCode'), given(company.zipCode)],
    [t('customers.fields.city'), given(company.city)],
    [t('customers.fields.companyName'), given(company.companyName)],
    [t('customers.fields.role'), given(user.role)],
    [t('customers.fields.productPackage'), PRODUCT_PACKAGE],
    [t('customers.fields.manualEndCustomerId'), t(company.createManualEndCustomerId === 'true' ? 'customers.yes' : 'customers.no')],
  ];
  return entries.filter((e): e is Entry => !!e[1]);
}

// ---- refusals ---------------------------------------------------------------------------------------

/** How a refused creation reads (spec 3 §8): e-mail in use, customer id in use, else 'Mistake'. */
export type CreateFailure = 'emailInUse' | 'customerIdInUse' | 'customerNotFound' | 'offline' | 'mistake';

export function createFailure(error: unknown): CreateFailure {
  if (isNetworkError(error)) return 'offline';
  if (!isApiError(error)) return 'mistake';
  switch (error.errorCodeResponse) {
    case 'USER_ALREADY_REGISTERED':
    case 'DUPLICATED_EMAIL':
      return 'emailInUse';
    case 'CUSTOMER_ALREADY_PRESENT_WITH_CUSTOMER_ID':
      return 'customerIdInUse';
    case 'CUSTOMER_NOT_FOUND':
      return 'customerNotFound';
    default:
      return 'mistake';
  }
}
