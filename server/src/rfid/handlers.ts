import type { z } from 'zod/mini';
import type { RfidConflict, saveRfidBodySchema } from '../../../contract/rfid';
import type { Db } from '../db/client';
import { transactionLock } from '../db/sql-helpers';
import { ApiError } from '../http/errors';
import { findStoredRfids, insertRfidTags } from './queries';

/**
 * The rule of RFID cards (spec 2 §2, §8): every serial number and every tag exists once. Used by
 * the card stock here and by the contract wizard's RFID fields (the same conflicts, the same code).
 */

/** Serials and tags are checked and taken one request at a time, across instances. */
export const lockRfids = (db: Db) => transactionLock(db, 'rfid-tags');

/**
 * The offending values of a set of cards: each serial or tag that is stored already (with the end
 * customer whose contract holds it), then each one that appears more than once among `entries`.
 * Call under `lockRfids`.
 */
export async function rfidConflicts(db: Db, entries: { serialNumber?: string; rfidTag?: string }[]): Promise<RfidConflict[]> {
  const serials = entries.map((e) => e.serialNumber).filter((v): v is string => !!v);
  const tags = entries.map((e) => e.rfidTag).filter((v): v is string => !!v);
  const conflicts: RfidConflict[] = [];
  const seen = new Set<string>();
  const add = (field: RfidConflict['field'], value: string, endCustomerId: string | null) => {
    const key = `${field}|${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    conflicts.push({ field, value, endCustomerId });
  };
  const serialSet = new Set(serials);
  const tagSet = new Set(tags);
  for (const stored of await findStoredRfids(db, [...serialSet], [...tagSet])) {
    if (serialSet.has(stored.serialId)) add('serialNumber', stored.serialId, stored.endCustomerId);
    if (tagSet.has(stored.rfidTag)) add('rfidTag', stored.rfidTag, stored.endCustomerId);
  }
  const twice = (values: string[]) => values.filter((v, i) => values.indexOf(v) !== i);
  for (const v of twice(serials)) add('serialNumber', v, null);
  for (const v of twice(tags)) add('rfidTag', v, null);
  return conflicts;
}

export const rfidExists = (conflicts: RfidConflict[]) =>
  new ApiError(409, 'ERR_RFID_ID_EXISTS', `RFID already in use: ${conflicts.map((c) => c.value).join(', ')}`, conflicts);

/** Adds cards to the stock, all or none (spec 2 §7 `/auth/save-rfid-tags`). */
export async function saveRfidTags(db: Db, body: z.output<typeof saveRfidBodySchema>): Promise<number> {
  await lockRfids(db);
  const conflicts = await rfidConflicts(db, body);
  if (conflicts.length > 0) throw rfidExists(conflicts);
  await insertRfidTags(
    db,
    body.map((e) => ({ serialId: e.serialNumber, rfidTag: e.rfidTag })),
  );
  return body.length;
}
