import type { z } from 'zod/mini';
import type { createLocationBodySchema, updateLocationBodySchema } from '../../../contract/locations';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import {
  address,
  findLocation,
  insertLocation,
  nextLocationId,
  operatorExists,
  unknownModels,
  visibleLocationIds,
  writeLocation,
} from './queries';

/** The rules of the locations area (spec 1 §4/§5, spec 2 §5) and the errors that say why not. */

export const locationNotFound = (id: string) => new ApiError(404, 'LOCATION_NOT_FOUND', `Location ${id} not found`);
export const operatorNotFound = (cpoId: string) => new ApiError(404, 'OPERATOR_NOT_FOUND', `Operator ${cpoId} not found`, { cpoId });

/**
 * An operator a request names (a filter, a new location's owner) must exist inside the caller's
 * scope: otherwise 404 OPERATOR_NOT_FOUND, for admins asking for an unknown one too, never an empty
 * answer that reads like an operator without data.
 */
export async function assertOperatorVisible(db: Db, scope: Scope, cpoId: string): Promise<void> {
  if (!scope.canSeeOperator(cpoId) || !(await operatorExists(db, cpoId))) throw operatorNotFound(cpoId);
}

/** Every location a request names (filters) must exist inside the scope; otherwise 404 LOCATION_NOT_FOUND naming the others. */
export async function assertLocationsVisible(db: Db, scope: Scope, locationIds: string[]): Promise<void> {
  const visible = await visibleLocationIds(db, scope, locationIds);
  const missing = [...new Set(locationIds)].filter((id) => !visible.has(id));
  if (missing.length > 0)
    throw new ApiError(404, 'LOCATION_NOT_FOUND', `Location ${missing.join(', ')} not found`, { locationIds: missing });
}

export async function createLocation(
  db: Db,
  scope: Scope,
  body: z.output<typeof createLocationBodySchema>,
): Promise<{ locationId: string; locationName: string }> {
  await assertOperatorVisible(db, scope, body.cpoId);
  const missing = await unknownModels(
    db,
    body.wallBoxesData.map((w) => w.chargingStationModel),
  );
  if (missing.length > 0) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      `Unknown charging station model: ${missing.join(', ')}`,
      undefined,
      body.wallBoxesData
        .map((w, i) => ({ w, i }))
        .filter(({ w }) => missing.includes(w.chargingStationModel))
        .map(({ i }) => ({ path: `wallBoxesData.${i}.chargingStationModel`, message: 'unknownModel' })),
    );
  }
  const locationId = await nextLocationId(db);
  // Without infrastructure the EMS counts as not connected (spec 1 §4).
  const ems = body.wallBoxesData.length > 0 && body.isEmsConnected;
  await insertLocation(
    db,
    {
      locationId,
      locationName: body.locationName,
      careOf: body.locationAddress.careOf,
      street: body.locationAddress.street,
      zipCode: body.locationAddress.zipCode,
      city: body.locationAddress.city,
      cpoId: body.cpoId,
      isEmsConnected: ems,
      emsModel: ems ? (body.emsModel ?? null) : null,
      emsId: ems ? body.emsId : null,
    },
    body.wallBoxesData.map((w) => ({ chargingStationModel: w.chargingStationModel, numOfChargingStations: w.numOfChargingStations })),
  );
  return { locationId, locationName: body.locationName };
}

/** Name and address of a location, refused with CONFLICT when someone changed it since `expectedVersion`. */
export async function updateLocation(
  db: Db,
  scope: Scope,
  body: z.output<typeof updateLocationBodySchema>,
  expectedVersion: number | undefined,
) {
  const loc = await findLocation(db, scope, body.locationId, true);
  if (!loc) throw locationNotFound(body.locationId);
  if (expectedVersion !== undefined && expectedVersion !== loc.version) {
    throw new ApiError(409, 'CONFLICT', `Location ${loc.locationId} was changed by someone else`, {
      locationId: loc.locationId,
      currentVersion: loc.version,
      current: { locationName: loc.locationName, locationAddress: address(loc) },
    });
  }
  return writeLocation(db, loc.locationId, body);
}
