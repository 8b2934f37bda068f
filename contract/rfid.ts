import * as z from 'zod/mini';

/**
 * RFID card management (spec 2 §2, §3, §7): admins keep the stock of cards, each a serial number
 * and an RFID tag, both unique. A save is all or nothing: a value that exists, or appears twice in
 * one request, refuses the whole request with 409 ERR_RFID_ID_EXISTS and the offending values in
 * `errorDetail` (`rfidConflictsSchema`). The contract wizard's RFID fields use the same rule.
 */

export const RFID_VALUE_MAX = 64;
/** Cards one save may carry. */
export const RFID_SAVE_MAX = 200;

/** Trimmed (spec 2 §7), required. */
const rfidValueSchema = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'required' : undefined) })
  .check(z.trim(), z.minLength(1, 'required'), z.maxLength(RFID_VALUE_MAX, `max${RFID_VALUE_MAX}`));
export const rfidSerialNumberSchema = rfidValueSchema;
export const rfidTagSchema = rfidValueSchema;

export const rfidEntrySchema = z.object({ serialNumber: rfidSerialNumberSchema, rfidTag: rfidTagSchema });
export type RfidEntry = z.input<typeof rfidEntrySchema>;

export const saveRfidBodySchema = z
  .array(rfidEntrySchema)
  .check(z.minLength(1, 'required'), z.maxLength(RFID_SAVE_MAX, `max${RFID_SAVE_MAX}`));

/** A row of the list: the stored serial is read as `serialId` (spec 2 §3). */
export const rfidRowSchema = z.object({ serialId: z.string(), rfidTag: z.string() });
export type RfidRow = z.infer<typeof rfidRowSchema>;

/**
 * One offending value of a refused save: which field, the value, and the end customer whose
 * contract holds the card (null for a card in stock, or a value repeated within the request).
 */
export const rfidConflictSchema = z.object({
  field: z.enum(['serialNumber', 'rfidTag']),
  value: z.string(),
  endCustomerId: z.nullable(z.string()),
});
export type RfidConflict = z.infer<typeof rfidConflictSchema>;
export const rfidConflictsSchema = z.array(rfidConflictSchema);
