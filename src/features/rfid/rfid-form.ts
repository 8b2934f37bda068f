import { rfidConflictsSchema, rfidSerialNumberSchema, rfidTagSchema, type RfidConflict, type RfidEntry } from '../../../contract/rfid';
import { isApiError, isNetworkError } from '../../api/errors';
import { fromSchema, type RuleResult } from '../../ui/validation';

/**
 * The rows of the 'add RFID' dialog (spec 2 §2): each a serial number and a tag, both required,
 * trimmed before sending (spec 2 §7). Rules from contract/rfid.ts.
 */

export interface RfidRowValues {
  /** Stable across removals, for React keys and field ids. */
  key: number;
  serialNumber: string;
  rfidTag: string;
}

let nextKey = 1;
export const emptyRow = (): RfidRowValues => ({ key: nextKey++, serialNumber: '', rfidTag: '' });

const serialRule = fromSchema(rfidSerialNumberSchema);
const tagRule = fromSchema(rfidTagSchema);

export function rowErrors(row: RfidRowValues): { serialNumber: RuleResult; rfidTag: RuleResult } {
  return { serialNumber: serialRule(row.serialNumber), rfidTag: tagRule(row.rfidTag) };
}

export const rowsValid = (rows: RfidRowValues[]) =>
  rows.length > 0 && rows.every((r) => !rowErrors(r).serialNumber && !rowErrors(r).rfidTag);

/** What is sent: trimmed values, in the order entered. */
export const buildRfidPayload = (rows: RfidRowValues[]): RfidEntry[] =>
  rows.map((r) => ({ serialNumber: r.serialNumber.trim(), rfidTag: r.rfidTag.trim() }));

export type SaveFailure = { kind: 'exists'; conflicts: RfidConflict[] } | { kind: 'offline' } | { kind: 'generic' };

/** ERR_RFID_ID_EXISTS names the offending values (errorDetail); anything else is the generic dialog (spec 2 §8). */
export function saveFailure(error: unknown): SaveFailure {
  if (isNetworkError(error)) return { kind: 'offline' };
  if (isApiError(error) && error.errorCodeResponse === 'ERR_RFID_ID_EXISTS') {
    const parsed = rfidConflictsSchema.safeParse(error.errorDetail);
    return { kind: 'exists', conflicts: parsed.success ? parsed.data : [] };
  }
  return { kind: 'generic' };
}
