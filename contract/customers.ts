import * as z from 'zod/mini';
import { EMAIL_PATTERN } from './auth';
import { customerTypeSchema } from './common';
import { contractStatuses } from './enums';
import { operatorAddressInputSchema } from './operator-writes';

/**
 * Customer management (spec 3 §2, §3, §5, §7, §8): platform admins create a customer (a company
 * that runs charging networks) with its first dashboard user, and add further dashboard users to
 * it. One call, `POST /cpos/create-dashboard-user`, does both: `isNewCustomer` tells which.
 * Creating a user (in either flow) creates a dashboard account that cannot sign in yet and queues
 * an invitation mail with a one-time link to set its password (INVITATION_TTL_SECONDS), for a new
 * customer to the operations team, for an added user to the person.
 *
 * Codes of the form fields: `required`, `maxN`, `alphanumeric` (customer id), `emailRequired`
 * and `emailFormat` (spec 3 §5: 'E-Mail is required', 'Email is in wrong format').
 */

/** The product package every dashboard user gets, spelt as the spec gives it (spec 1 §9, spec 3 §9). */
export const PRODUCT_PACKAGE = 'Prosessional';
/** An invitation link lives seven days; a resend voids it. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;
export const CUSTOMER_ID_MAX = 20;
export const CUSTOMER_TEXT_MAX = 200;

const missingIsRequired = { error: (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null ? 'required' : undefined) };
const requiredText = (max: number) =>
  z.string(missingIsRequired).check(z.trim(), z.minLength(1, 'required'), z.maxLength(max, `max${max}`));

/** Customer number: alphanumeric only (spec 3 §5), required. */
export const customerIdSchema = z.string(missingIsRequired).check(
  z.trim(),
  z.minLength(1, 'required'),
  z.maxLength(CUSTOMER_ID_MAX, `max${CUSTOMER_ID_MAX}`),
  z.refine((v) => v === '' || /^[A-Za-z0-9]+$/.test(v), 'alphanumeric'),
);
export const companyNameSchema = requiredText(CUSTOMER_TEXT_MAX);
export const firstNameSchema = requiredText(100);
export const lastNameSchema = requiredText(100);
export const roleSchema = requiredText(100);
/** 'E-Mail is required', 'Email is in wrong format' (spec 3 §5). */
export const userEmailSchema = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'emailRequired' : undefined) })
  .check(
    z.trim(),
    z.minLength(1, 'emailRequired'),
    z.maxLength(255, 'max255'),
    z.refine((v) => v === '' || EMAIL_PATTERN.test(v), 'emailFormat'),
  );

/**
 * `POST /bff/cpos/validate-email` (issue 23: the wizard checks the e-mail when the field is left):
 * whether the address is still free for a new dashboard user; the answer is a boolean in data.data,
 * as the end-customer id check (spec 2 §7), never a 404.
 */
export const validateEmailBodySchema = z.object({ email: userEmailSchema });

const productPackageSchema = z._default(z.literal(PRODUCT_PACKAGE), PRODUCT_PACKAGE);
/** Always false from the dashboard (spec 3 §3): the server sends the invitation itself. */
const sendEmailSchema = z.optional(z.boolean());

const userFields = {
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  email: userEmailSchema,
  role: roleSchema,
  productPackage: productPackageSchema,
  sendEmail: sendEmailSchema,
};

/** The create-customer wizard's payload (spec 3 §3): the customer, its address and its first user. */
export const createCustomerBodySchema = z.object({
  isNewCustomer: z.literal(true),
  customerId: customerIdSchema,
  customerType: customerTypeSchema,
  companyName: companyNameSchema,
  address: operatorAddressInputSchema,
  createManualEndCustomerId: z._default(z.boolean(), false),
  ...userFields,
});
export type CreateCustomerBody = z.input<typeof createCustomerBodySchema>;

/**
 * 'add external user' on the customer detail: a dashboard user of an existing customer.
 * `customerType` is informative (the customer's own type counts).
 */
export const addDashboardUserBodySchema = z.object({
  isNewCustomer: z.literal(false),
  customerId: customerIdSchema,
  customerType: z.optional(customerTypeSchema),
  ...userFields,
});
export type AddDashboardUserBody = z.input<typeof addDashboardUserBodySchema>;

export const createDashboardUserBodySchema = z.discriminatedUnion('isNewCustomer', [createCustomerBodySchema, addDashboardUserBodySchema]);
export type CreateDashboardUserBody = z.input<typeof createDashboardUserBodySchema>;

export const createDashboardUserAnswerSchema = z.object({ customerId: z.string(), userId: z.string() });
export type CreateDashboardUserAnswer = z.infer<typeof createDashboardUserAnswerSchema>;

/** Customer list row (spec 3 §3): the customer and the name of its first dashboard user, and its type (for customer selects). */
export const customerListRowSchema = z.object({
  customerId: z.string(),
  companyName: z.string(),
  customerType: customerTypeSchema,
  firstName: z.nullable(z.string()),
  lastName: z.nullable(z.string()),
});
export type CustomerListRow = z.infer<typeof customerListRowSchema>;

/** Customer detail (spec 3 §2, §3). */
export const customerDetailSchema = z.object({
  customerId: z.string(),
  companyName: z.string(),
  customerType: customerTypeSchema,
  address: z.object({ careOf: z.nullable(z.string()), street: z.string(), zipCode: z.string(), city: z.string() }),
  contractKey: z.nullable(z.string()),
  contractStatus: z.nullable(z.enum(contractStatuses)),
  createManualEndCustomerId: z.boolean(),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** A dashboard user of a customer (spec 3 §2 table: name, e-mail, role). */
export const dashboardUserRowSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  role: z.string(),
  /** Whether the person has set a password from the invitation. */
  activated: z.boolean(),
});
export type DashboardUserRow = z.infer<typeof dashboardUserRowSchema>;
