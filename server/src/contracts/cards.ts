import type { z } from 'zod/mini';
import { adminUserTypes, type createContractBodySchema } from '../../../contract/contracts';
import type { RfidConflict } from '../../../contract/rfid';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { lockRfids, rfidExists } from '../rfid/handlers';
import { assignCards, findCards, insertCards, releaseCards } from './queries';

/** The RFID cards of a contract (spec 2 §5). */

type CardFields = Pick<z.output<typeof createContractBodySchema>, 'authType' | 'userType' | 'rfidType' | 'rfidTags' | 'rfidSerialId'>;

/** A card's holder, as far as the caller may know it (null: taken by someone the caller does not see). */
const visibleOwner = (scope: Scope, card: { owner: string | null; ownerCpoId: string | null }) =>
  card.ownerCpoId !== null && scope.canSeeOperator(card.ownerCpoId) ? card.owner : null;

/**
 * Where the contract's cards come from (spec 2 §5), under the RFID lock the card stock takes too
 * (`rfid/handlers.ts`): by tag, a card in stock is handed out and an unknown tag becomes a new
 * card; by serial, the card must exist (admin RFID management) and be free. A card another end
 * customer holds refuses the whole write with the card stock's conflict list: ERR_RFID_ID_EXISTS,
 * or DB_CLIENT_ERROR for serials in the edit flow (spec 2 §8).
 */
export async function takeCards(db: Db, scope: Scope, contractKey: string, body: CardFields, flow: 'create' | 'edit'): Promise<void> {
  const usesRfid = body.authType !== 'APP' || adminUserTypes.includes(body.userType);
  const tags = usesRfid && body.rfidType === 'TAG' ? body.rfidTags : [];
  const serials = usesRfid && body.rfidType === 'SN' ? body.rfidSerialId : [];
  await lockRfids(db);
  const cards = await findCards(db, tags, serials);
  const heldElsewhere = (c: { contractKey: string | null }) => c.contractKey !== null && c.contractKey !== contractKey;

  const byTag = new Map(cards.map((c) => [c.rfidTag, c]));
  const bySerial = new Map(cards.map((c) => [c.serialId, c]));
  const conflicts: RfidConflict[] = [];
  for (const tag of tags) {
    const card = byTag.get(tag);
    if (card && heldElsewhere(card)) conflicts.push({ field: 'rfidTag', value: tag, endCustomerId: visibleOwner(scope, card) });
  }
  const missingSerials: string[] = [];
  for (const serial of serials) {
    const card = bySerial.get(serial);
    if (!card) missingSerials.push(serial);
    else if (heldElsewhere(card)) conflicts.push({ field: 'serialNumber', value: serial, endCustomerId: visibleOwner(scope, card) });
  }
  if (conflicts.length > 0) {
    if (flow === 'edit' && serials.length > 0)
      throw new ApiError(409, 'DB_CLIENT_ERROR', `RFID serial in use: ${conflicts.map((c) => c.value).join(', ')}`, conflicts);
    throw rfidExists(conflicts);
  }
  if (missingSerials.length > 0)
    throw new ApiError(400, 'ERR_RFID_SERIAL_NOT_EXISTS', `No RFID card with serial ${missingSerials.join(', ')}`, {
      rfidSerialIds: missingSerials,
    });

  const keep = [...tags.map((t) => byTag.get(t)), ...serials.map((s) => bySerial.get(s))].filter((c) => c !== undefined);
  await releaseCards(
    db,
    contractKey,
    keep.map((c) => c.id),
  );
  await assignCards(
    db,
    contractKey,
    keep.filter((c) => c.contractKey === null).map((c) => c.id),
  );
  await insertCards(
    db,
    contractKey,
    tags.filter((t) => !byTag.has(t)),
  );
}
