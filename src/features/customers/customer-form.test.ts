import { describe, expect, it } from 'vitest';
import { createDashboardUserBodySchema } from '../../../contract/customers';
import { ApiError, NetworkError } from '../../api/errors';
import { validate, type Rule } from '../../ui/validation';
import {
  buildAddUserPayload,
  buildCustomerPayload,
  companyRules,
  confirmEntries,
  createFailure,
  emptyCompany,
  emptyUser,
  userRules,
  type CompanyValues,
  type UserValues,
} from './customer-form';

const t = (id: string) => id;
const company: CompanyValues = {
  ...emptyCompany(),
  customerId: ' NEU1 ',
  companyName: 'Neustrom GmbH',
  careOf: '',
  street: 'Am Markt 5',
  zipCode: '04109',
  city: 'Leipzig',
};
const user: UserValues = { firstName: 'Nora', lastName: 'Neumann', email: ' nora@neustrom.example ', role: 'Chefin' };
const check = (rules: Rule<string>[] | undefined, value: string) => validate(value, ...(rules ?? []))?.id ?? null;

describe('customer form rules (spec 3 §5)', () => {
  it("reads the spec's messages for the user fields", () => {
    expect(check(userRules.firstName, '')).toBe('validation.required');
    expect(check(userRules.lastName, ' ')).toBe('validation.required');
    expect(check(userRules.role, '')).toBe('validation.required');
    expect(check(userRules.email, '')).toBe('validation.required');
    expect(check(userRules.email, 'nora@')).toBe('validation.email');
    expect(check(userRules.email, 'nora@neustrom.example')).toBeNull();
  });

  it('takes customer numbers of letters and digits only, and digits for the zip code', () => {
    expect(check(companyRules.customerId, 'NEU-1')).toBe('validation.alphanumeric');
    expect(check(companyRules.customerId, '')).toBe('validation.required');
    expect(check(companyRules.customerId, 'Neu01')).toBeNull();
    expect(check(companyRules.zipCode, '0410A')).toBe('validation.digitsOnly');
    expect(check(companyRules.careOf, '')).toBeNull();
  });
});

describe('payloads (spec 3 §3)', () => {
  it('a new customer: trimmed, the fixed product package, sendEmail false, isNewCustomer true, empty values dropped', () => {
    const payload = buildCustomerPayload(company, user);
    expect(payload).toEqual({
      customerId: 'NEU1',
      firstName: 'Nora',
      lastName: 'Neumann',
      email: 'nora@neustrom.example',
      role: 'Chefin',
      productPackage: 'Prosessional',
      sendEmail: false,
      customerType: 'Operator',
      address: { street: 'Am Markt 5', zipCode: '04109', city: 'Leipzig' },
      companyName: 'Neustrom GmbH',
      isNewCustomer: true,
      createManualEndCustomerId: false,
    });
    expect('careOf' in payload.address).toBe(false);
    expect(createDashboardUserBodySchema.safeParse(payload).success).toBe(true);
    expect(buildCustomerPayload({ ...company, careOf: ' Kurz ', createManualEndCustomerId: 'true' }, user)).toMatchObject({
      address: { careOf: 'Kurz' },
      createManualEndCustomerId: true,
    });
  });

  it('an added user names the customer and is not a new customer', () => {
    const payload = buildAddUserPayload({ customerId: 'K10001', customerType: 'Partner' }, user);
    expect(payload).toMatchObject({ customerId: 'K10001', customerType: 'Partner', isNewCustomer: false, productPackage: 'Prosessional' });
    expect(createDashboardUserBodySchema.safeParse(payload).success).toBe(true);
  });
});

describe('the confirm step (spec 3 §2)', () => {
  it('lists the non-empty values in the spec order, c/o as "c/o …", the flag as yes/no in words (not "false")', () => {
    const withCareOf = confirmEntries(t, { ...company, careOf: 'Kurz' }, user);
    expect(withCareOf.map(([label]) => label)).toEqual([
      'customers.fields.firstName',
      'customers.fields.lastName',
      'customers.fields.email',
      'customers.fields.customerId',
      'customers.fields.customerType',
      'customers.fields.careOf',
      'customers.fields.street',
      'customers.fields.zipCode',
      'customers.fields.city',
      'customers.fields.companyName',
      'customers.fields.role',
      'customers.fields.productPackage',
      'customers.fields.manualEndCustomerId',
    ]);
    expect(Object.fromEntries(withCareOf)).toMatchObject({
      'customers.fields.careOf': 'c/o Kurz',
      'customers.fields.productPackage': 'Prosessional',
      'customers.fields.manualEndCustomerId': 'customers.no',
    });
    const without = confirmEntries(t, { ...company, createManualEndCustomerId: 'true' }, { ...emptyUser(), firstName: 'Nora' });
    expect(without.map(([l]) => l)).not.toContain('customers.fields.careOf');
    expect(without.map(([l]) => l)).not.toContain('customers.fields.email');
    expect(Object.fromEntries(without)['customers.fields.manualEndCustomerId']).toBe('customers.yes');
  });
});

describe('refusals (spec 3 §8)', () => {
  it('e-mail in use, customer id in use, else Mistake', () => {
    expect(createFailure(new ApiError({ status: 409, errorCodeResponse: 'USER_ALREADY_REGISTERED' }))).toBe('emailInUse');
    expect(createFailure(new ApiError({ status: 409, errorCodeResponse: 'CUSTOMER_ALREADY_PRESENT_WITH_CUSTOMER_ID' }))).toBe(
      'customerIdInUse',
    );
    expect(createFailure(new ApiError({ status: 404, errorCodeResponse: 'CUSTOMER_NOT_FOUND' }))).toBe('customerNotFound');
    expect(createFailure(new ApiError({ status: 500, errorCodeResponse: 'INTERNAL_ERROR' }))).toBe('mistake');
    expect(createFailure(new ApiError({ status: 400, errorCodeResponse: 'VALIDATION_ERROR' }))).toBe('mistake');
    expect(createFailure(new NetworkError('offline'))).toBe('offline');
    expect(createFailure(new Error('x'))).toBe('mistake');
  });
});
