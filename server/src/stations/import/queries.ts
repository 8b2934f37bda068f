import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Scope } from '../../auth/scope';
import type { Db } from '../../db/client';
import { locations, wallboxModels } from '../../db/schema/locations';
import { operators } from '../../db/schema/operators';
import { connectors } from '../../db/schema/stations';

/** What the import's rows name, read in a few statements whatever the file's size (ids in chunks under the parameter limit). */

const CHUNK = 5000;

async function inChunks<T>(ids: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}

/** The named locations the caller may see (an admin: all). */
export const scopedLocations = (db: Db, scope: Scope, ids: string[]) =>
  inChunks(ids, (chunk) =>
    db
      .select({ locationId: locations.locationId, locationName: locations.locationName, cpoId: locations.cpoId })
      .from(locations)
      .where(and(inArray(locations.locationId, chunk), scope.where(locations.cpoId))),
  );

/** The named operators the caller may see. */
export const scopedOperators = (db: Db, scope: Scope, ids: string[]) =>
  inChunks(ids, (chunk) =>
    db
      .select({ cpoId: operators.cpoId })
      .from(operators)
      .where(and(inArray(operators.cpoId, chunk), scope.where(operators.cpoId))),
  );

export const allModels = (db: Db) =>
  db.select({ name: wallboxModels.name, connectorsPerStation: wallboxModels.connectorsPerStation }).from(wallboxModels);

/** Station ids among `cpIds` that exist already, removed ones too (their connector ids are taken for good). */
export const existingCpIds = (db: Db, cpIds: string[]) =>
  inChunks(cpIds, (chunk) => db.selectDistinct({ cpId: connectors.cpId }).from(connectors).where(inArray(connectors.cpId, chunk)));

/** The parking lots in use at the locations (removed connectors free theirs, as the unique index says). */
export const lotsInUse = (db: Db, locationIds: string[]) =>
  inChunks(locationIds, (chunk) =>
    db
      .select({ locationId: connectors.locationId, parkingLot: connectors.parkingLot })
      .from(connectors)
      .where(and(inArray(connectors.locationId, chunk), isNotNull(connectors.parkingLot), eq(connectors.removed, false))),
  );
