import type { locations } from '../db/schema/locations';
import type { operators } from '../db/schema/operators';
import { address, DAY, type SeedContext } from './common';
import { lastNames, locationKinds, locationNames } from './german-data';

/** Locations, round-robin over the operators so every operator has some. */
export function drawLocations(ctx: SeedContext, operatorRows: (typeof operators.$inferInsert)[]): (typeof locations.$inferInsert)[] {
  const { rnd, now, spec } = ctx;
  const locationRows: (typeof locations.$inferInsert)[] = [];
  const usedLocationNames = new Set<string>();
  for (let i = 0; i < spec.locations; i++) {
    const op = operatorRows[i % operatorRows.length];
    const addr = address(rnd);
    let name: string;
    do name = `${rnd.pick(locationKinds)} ${rnd.pick(locationNames)}`;
    while (usedLocationNames.has(`${op.cpoId}|${name}`));
    usedLocationNames.add(`${op.cpoId}|${name}`);
    const ems = rnd.chance(0.3);
    const locationId = `L${10001 + i}`;
    locationRows.push({
      locationId,
      locationName: name,
      careOf: rnd.chance(0.15) ? `${rnd.pick(lastNames)} Immobilien` : null,
      street: addr.street,
      zipCode: addr.zipCode,
      city: addr.city,
      cpoId: op.cpoId,
      isEmsConnected: ems,
      emsModel: ems ? rnd.pick(['Smart1 EMS', 'CFOS Charging Manager']) : null,
      emsId: ems ? `EMS-${rnd.hex(8).toUpperCase()}` : null,
      createdAt: new Date(now.getTime() - rnd.int(400, 700) * DAY),
    });
  }
  return locationRows;
}
