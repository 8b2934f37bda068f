import * as z from 'zod';
import { customerTypeSchema } from './common';
import { erpPaymentMethods, operatorBillingTypes, operatorPaymentPreferences } from './enums';

/** Operator list row (spec 1 §3, spec 3 §3). */
export const operatorListRowSchema = z.object({
  cpoId: z.string(),
  cpoName: z.string(),
  nrOfLocations: z.number().int().nonnegative(),
  nrOfEndCustomers: z.number().int().nonnegative(),
});
export type OperatorListRow = z.infer<typeof operatorListRowSchema>;

export const addressSchema = z.object({
  street: z.string(),
  careOf: z.string().nullable().optional(),
  zipCode: z.string(),
  city: z.string(),
  countryCode: z.literal('DE').default('DE'),
});

export const templateLinesSchema = z.object({
  lineOne: z.string().nullable().optional(),
  lineTwo: z.string().nullable().optional(),
  lineThree: z.string().nullable().optional(),
  lineFour: z.string().nullable().optional(),
});

export const erpValueSchema = z.object({
  cpoId: z.string(),
  clientNumber: z.string(),
  netLedgerAccountNr: z.string(),
  taxLedgerAccountNr: z.string().nullable().optional(),
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
    contactPersonName: z.string().nullable().optional(),
    contactPersonPosition: z.string().nullable().optional(),
    contactPersonPhone: z.string().nullable().optional(),
    contactPersonEmail: z.string().nullable().optional(),
  }),
  billingType: z.enum(operatorBillingTypes).nullable().optional(),
  isChargingHistoryIncluded: z.boolean(),
  cpoPaymentDetails: z
    .object({
      cpoPaymentPreference: z.array(z.enum(operatorPaymentPreferences)),
      cpoIban: z.string().nullable().optional(),
      cpoBankName: z.string().nullable().optional(),
      cpoBic: z.string().nullable().optional(),
      creditorId: z.string().nullable().optional(),
      moneyCollectionGapInDays: z.number().int().nullable().optional(),
    })
    .nullable(),
  billingTemplateHeader: templateLinesSchema,
  billingTemplateFooter: templateLinesSchema,
  erpValues: z.array(erpValueSchema),
  /** Optimistic-concurrency token: send back as If-Match on updates. */
  version: z.number().int().optional(),
});
export type OperatorDetail = z.infer<typeof operatorDetailSchema>;
