import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Scope } from '../../auth/scope';
import type { Db } from '../../db/client';
import { locations, wallboxModels } from '../../db/schema/locations';
import { operators } from '../../db/schema/operators';
import { connectors } from '../../db/schema/stations';

/** What the import's rows name, read in a few statements whatever the file's size. */

// The ids as one array parameter (`= any($1)`) of 1,000 a statement: 10,000 parameters cost the
// main thread ~0.1–0.2 s to build and hand over, and one statement for all 10,000 ids held PGlite's
// one connection ~0.2 s on a loaded machine, while other tenants waited for their answers.
const CHUNK = 1000;

async function inChunks<T>(ids: string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) out.push(...(await read(ids.slice(i, i + CHUNK))));
  return out;
}
const anyOf = (column: AnyPgColumn, ids: string[]) => sql`${column} = any(${sql.param(ids)})`;

/** The named locations the caller may see (an admin: all). */
export const scopedLocations = (db: Db, scope: Scope, ids: string[]) =>
  inChunks(ids, (chunk) =>
    db
      .select({ locationId: locations.locationId, locationName: locations.locationName, cpoId: locations.cpoId })
      .from(locations)
      .where(and(anyOf(locations.locationId, chunk), scope.where(locations.cpoId))),
  );

/** The named operators the caller may see. */
export const scopedOperators = (db: Db, scope: Scope, ids: string[]) =>
  inChunks(ids, (chunk) =>
    db
      .select({ cpoId: operators.cpoId })
      .from(operators)
      .where(and(anyOf(operators.cpoId, chunk), scope.where(operators.cpoId))),
  );

export const allModels = (db: Db) =>
  db.select({ name: wallboxModels.name, connectorsPerStation: wallboxModels.connectorsPerStation }).from(wallboxModels);

/** Station ids among `cpIds` that exist already, removed ones too (their connector ids are taken for good). */
export const existingCpIds = (db: Db, cpIds: string[]) =>
  inChunks(cpIds, (chunk) => db.selectDistinct({ cpId: connectors.cpId }).from(connectors).where(anyOf(connectors.cpId, chunk)));

/** The parking lots in use at the locations (removed connectors free theirs, as the unique index says). */
export const lotsInUse = (db: Db, locationIds: string[]) =>
  inChunks(locationIds, (chunk) =>
    db
      .select({ locationId: connectors.locationId, parkingLot: connectors.parkingLot })
      .from(connectors)
      .where(and(anyOf(connectors.locationId, chunk), isNotNull(connectors.parkingLot), eq(connectors.removed, false))),
  );
