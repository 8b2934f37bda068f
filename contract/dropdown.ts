import * as z from 'zod/mini';
import { billStatuses, paymentMethods, userTypes } from './enums';

/** `GET /bff/dropdown-configuration?mappingTypes=USER_TYPE,BILLING_STATUS,PAYMENT_METHOD` (spec 2 §3, spec 3 §3). */
export const dropdownMappingTypes = ['USER_TYPE', 'BILLING_STATUS', 'PAYMENT_METHOD'] as const;
export type DropdownMappingType = (typeof dropdownMappingTypes)[number];

export const dropdownQuerySchema = z.object({
  mappingTypes: z.pipe(
    z.pipe(
      z.optional(z.string()),
      z.transform((v: string | undefined) =>
        v
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [...dropdownMappingTypes],
      ),
    ),
    z.array(z.enum(dropdownMappingTypes)),
  ),
});

export const dropdownEntrySchema = z.object({
  type: z.enum(dropdownMappingTypes),
  listValues: z.array(z.string()),
});
export type DropdownEntry = z.infer<typeof dropdownEntrySchema>;

export const dropdownValues: Record<DropdownMappingType, readonly string[]> = {
  USER_TYPE: userTypes,
  BILLING_STATUS: billStatuses,
  PAYMENT_METHOD: paymentMethods,
};
