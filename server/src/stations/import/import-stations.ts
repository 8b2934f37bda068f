import type { ImportMistake, StationImportAnswer } from '../../../../contract/station-import';
import type { Scope } from '../../auth/scope';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/pg-errors';
import { ApiError } from '../../http/errors';
import { nextCpNumber } from '../queries';
import { checkRows, mistakeDetail, type CheckedRow, type Known } from './check-rows';
import type { FileRow } from './parse-file';
import { allModels, existingCpIds, lotsInUse, scopedLocations, scopedOperators } from './queries';
import { ImportConflict, writeStations, type WriteHooks } from './write-import';

const unique = (values: string[]) => [...new Set(values.filter(Boolean))];

async function knownFor(db: Db, scope: Scope, rows: FileRow[]): Promise<Known> {
  const locationIds = unique(rows.map((r) => r.locationId));
  const [locations, operators, models, cpIds, lots] = [
    await scopedLocations(db, scope, locationIds),
    await scopedOperators(db, scope, unique(rows.map((r) => r.operatorId))),
    await allModels(db),
    await existingCpIds(db, unique(rows.map((r) => r.cpId))),
    await lotsInUse(db, locationIds),
  ];
  return {
    locations: new Map(locations.map((l) => [l.locationId, { locationName: l.locationName, cpoId: l.cpoId }])),
    operators: new Set(operators.map((o) => o.cpoId)),
    models: new Map(models.map((m) => [m.name, m.connectorsPerStation])),
    cpIdsTaken: new Set(cpIds.map((c) => c.cpId)),
    lotsTaken: new Set(lots.map((l) => `${l.locationId}\u0000${l.parkingLot}`)),
  };
}

function refusal(detail: ReturnType<typeof mistakeDetail>): ApiError {
  const first = detail.errors[0]!;
  const conflictOnly = detail.errors.every((m) => m.code === 'PARKINGLOT_EXISTS');
  return new ApiError(conflictOnly ? 409 : 400, first.code, `The file has ${detail.errors.length} mistake(s)`, detail);
}

function answerOf(stations: (CheckedRow & { cpId: string })[], known: Known, dryRun: boolean): StationImportAnswer {
  const groups = new Map<string, StationImportAnswer['locations'][number]>();
  let connectorCount = 0;
  for (const s of stations) {
    const key = s.locationId ?? `\u0000${s.cpoId}`;
    let group = groups.get(key);
    if (!group) {
      const locationName = s.locationId ? known.locations.get(s.locationId)!.locationName : null;
      group = { locationId: s.locationId, locationName, cpoId: s.cpoId, stations: [] };
      groups.set(key, group);
    }
    const connectors = s.parkingLots.map((parkingLot, k) => ({ connectorId: `${s.cpId}_${k + 1}`, parkingLot }));
    connectorCount += connectors.length;
    group.stations.push({ row: s.row, cpId: s.cpId, wallboxModel: s.wallboxModel, connectors });
  }
  return { dryRun, stationCount: stations.length, connectorCount, locations: [...groups.values()] };
}

/** The refusal of rows another writer got to first (409 when all are PARKINGLOT_EXISTS, as the check's). */
const conflictRefusal = (mistakes: ImportMistake[], rows: FileRow[]) =>
  mistakes.length > 0
    ? refusal(mistakeDetail(mistakes, rows))
    : new ApiError(409, 'PARKINGLOT_EXISTS', 'A parking lot of the file was taken meanwhile', {
        errors: [],
        parkingLots: [],
        locations: [],
        duplicatedParkingLots: [],
        wallboxes: [],
        cpIds: [],
      });

/**
 * The import, outside any request transaction (`db` is the root handle): all rows checked against
 * the database in a few short reads (every mistake reported), then, unless a dry run, every station
 * written or none by `writeStations` (`write-import.ts`: staged, then checked again under the
 * station-id lock, the wizard's too, and moved in short transactions), so no transaction holds
 * PGlite's one connection for the whole write. Two imports at once: the second waits for the
 * first one's move and then finds its ids and parking lots; the unique index has the last word.
 */
export async function importStations(
  db: Db,
  scope: Scope,
  rows: FileRow[],
  dryRun: boolean,
  hooks?: WriteHooks,
): Promise<StationImportAnswer> {
  const known = await knownFor(db, scope, rows);
  const { mistakes, stations } = checkRows(rows, known);
  if (mistakes.length > 0) throw refusal(mistakeDetail(mistakes, rows));

  // Handed-out ids follow the database's and the file's own OLI numbers, so none is named twice
  // (moved past ids taken meanwhile when written).
  const inFile = stations.map((s) => /^OLI(\d{1,9})$/.exec(s.cpId)?.[1]).filter((n) => n !== undefined);
  let next = stations.some((s) => !s.cpId) ? Math.max(await nextCpNumber(db), ...inFile.map((n) => Number(n) + 1)) : 0;
  let named = stations.map((s) => ({ ...s, handedOut: !s.cpId, cpId: s.cpId || `OLI${String(next++).padStart(6, '0')}` }));
  if (!dryRun) {
    try {
      named = await writeStations(db, named, hooks);
    } catch (err) {
      if (err instanceof ImportConflict) throw conflictRefusal(err.mistakes, rows);
      // Only a writer outside the lock (a parking-lot edit meanwhile) gets here.
      if (isUniqueViolation(err)) throw conflictRefusal([], rows);
      throw err;
    }
  }
  return answerOf(named, known, dryRun);
}
