import type { z } from 'zod/mini';
import type { createLocationBodySchema, updateLocationBodySchema } from '../../../contract/locations';
import { assertVisible, lockAtVersion, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { address, findLocation, insertLocation, nextLocationId, unknownModels, writeLocation } from './queries';

/** The rules of the locations area (spec 1 §4/§5, spec 2 §5) and the errors that say why not. */

export async function createLocation(
  db: Db,
  scope: Scope,
  body: z.output<typeof createLocationBodySchema>,
): Promise<{ locationId: string; locationName: string }> {
  await assertVisible(db, scope, 'operator', [body.cpoId]);
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
  const loc = await lockAtVersion('location', body.locationId, expectedVersion, {
    lock: (id) => findLocation(db, scope, id, true),
    current: (l) => ({ locationName: l.locationName, locationAddress: address(l) }),
  });
  return writeLocation(db, loc.locationId, body);
}
