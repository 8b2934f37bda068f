import * as z from 'zod/mini';
import { customerTypeSchema } from './common';
import { erpPaymentMethods, operatorBillingTypes, operatorPaymentPreferences } from './enums';

/** Operator list row (spec 1 §3, spec 3 §3). */
export const operatorListRowSchema = z.object({
  cpoId: z.string(),
  cpoName: z.string(),
  nrOfLocations: z.int().check(z.nonnegative()),
  nrOfEndCustomers: z.int().check(z.nonnegative()),
});
export type OperatorListRow = z.infer<typeof operatorListRowSchema>;

export const addressSchema = z.object({
  street: z.string(),
  careOf: z.optional(z.nullable(z.string())),
  zipCode: z.string(),
  city: z.string(),
  countryCode: z._default(z.literal('DE'), 'DE'),
});

export const templateLinesSchema = z.object({
  lineOne: z.optional(z.nullable(z.string())),
  lineTwo: z.optional(z.nullable(z.string())),
  lineThree: z.optional(z.nullable(z.string())),
  lineFour: z.optional(z.nullable(z.string())),
});

export const erpValueSchema = z.object({
  cpoId: z.string(),
  clientNumber: z.string(),
  netLedgerAccountNr: z.string(),
  taxLedgerAccountNr: z.optional(z.nullable(z.string())),
  paymentMethod: z.enum(erpPaymentMethods),
});
export type ErpValue = z.infer<typeof erpValueSchema>;

/** Operator detail (`GET /cpos/{id}/operator-details`, spec 3 §3). */
export const operatorDetailSchema = z.object({
  cpoId: z.string(),
  cpoName: z.string(),
  cpoAddress: addressSchema,
  customerId: z.string(),
  customerType: customerTypeSchema,
  createManualEndCustomerId: z.boolean(),
  contactPersonDetails: z.object({
    contactPersonName: z.optional(z.nullable(z.string())),
    contactPersonPosition: z.optional(z.nullable(z.string())),
    contactPersonPhone: z.optional(z.nullable(z.string())),
    contactPersonEmail: z.optional(z.nullable(z.string())),
  }),
  billingType: z.optional(z.nullable(z.enum(operatorBillingTypes))),
  isChargingHistoryIncluded: z.boolean(),
  cpoPaymentDetails: z.nullable(
    z.object({
      cpoPaymentPreference: z.array(z.enum(operatorPaymentPreferences)),
      cpoIban: z.optional(z.nullable(z.string())),
      cpoBankName: z.optional(z.nullable(z.string())),
      cpoBic: z.optional(z.nullable(z.string())),
      creditorId: z.optional(z.nullable(z.string())),
      moneyCollectionGapInDays: z.optional(z.nullable(z.int())),
    }),
  ),
  billingTemplateHeader: templateLinesSchema,
  billingTemplateFooter: templateLinesSchema,
  erpValues: z.array(erpValueSchema),
  /** Optimistic-concurrency token: send back as If-Match on updates. */
  version: z.optional(z.int()),
});
export type OperatorDetail = z.infer<typeof operatorDetailSchema>;
