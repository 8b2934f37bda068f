import { PARKING_LOT_COLUMN, type ImportMistake, type StationImportErrorDetail } from '../../../../contract/station-import';
import { PARKING_LOT_MAX_LENGTH } from '../../../../contract/stations';
import type { FileRow } from './parse-file';

/** What the rows name, as the database has it (in the caller's scope). */
export interface Known {
  locations: Map<string, { locationName: string; cpoId: string }>;
  operators: Set<string>;
  models: Map<string, number>;
  cpIdsTaken: Set<string>;
  /** `${locationId}\0${parkingLot}` of the lots in use. */
  lotsTaken: Set<string>;
}

/** A row that passed: its station as it will be created (cpId empty: one is handed out). */
export interface CheckedRow {
  row: number;
  cpId: string;
  cpoId: string;
  locationId: string | null;
  wallboxModel: string;
  connectorCount: number;
  parkingLots: (string | null)[];
}

/** Letters, digits, `.` and `-`: a connector id is `<cpId>_<n>` and the app shows the part after the last `_`. */
const CP_ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,35}$/;
const lotKey = (locationId: string, lot: string) => `${locationId}\u0000${lot}`;
const lotColumn = (i: number) => `${PARKING_LOT_COLUMN}${i + 1}`;

/** Every mistake of every row (spec 2 §8), never only the first, or the stations the rows describe. */
export function checkRows(rows: FileRow[], known: Known): { mistakes: ImportMistake[]; stations: CheckedRow[] } {
  const mistakes: ImportMistake[] = [];
  const stations: CheckedRow[] = [];
  const cpIdsInFile = new Set<string>();
  const lotsInFile = new Set<string>();
  for (const r of rows) {
    const before = mistakes.length;
    const add = (code: ImportMistake['code'], column: string, value: string) => mistakes.push({ code, row: r.row, column, value });

    const location = r.locationId ? known.locations.get(r.locationId) : undefined;
    const cpoId = location ? location.cpoId : r.operatorId;
    if (r.locationId && !location) add('FILE_INVALID_LOCATION', 'locationId', r.locationId);
    if (location && r.operatorId && r.operatorId !== location.cpoId) add('FILE_INVALID_LOCATION', 'operatorId', r.operatorId);
    if (!r.locationId && !known.operators.has(r.operatorId)) add('FILE_INVALID_LOCATION', 'operatorId', r.operatorId);

    if (r.cpId) {
      if (!CP_ID.test(r.cpId)) add('VALIDATION_ERROR', 'cpId', r.cpId);
      else if (cpIdsInFile.has(r.cpId) || known.cpIdsTaken.has(r.cpId)) add('FILE_DUPLICATED_CPIDS', 'cpId', r.cpId);
      cpIdsInFile.add(r.cpId);
    }

    const perStation = known.models.get(r.wallboxModel);
    if (perStation === undefined) add('FILE_INVALID_ABBREVIATION', 'wallboxModel', r.wallboxModel);
    const count = /^\d{1,3}$/.test(r.connectorCount) ? Number(r.connectorCount) : NaN;
    const countOk = count >= 1 && (perStation === undefined || count === perStation);
    if (!countOk) add('WALLBOX_INVALID_NUMBER_CONNECTORS', 'connectorCount', r.connectorCount);

    r.parkingLots.forEach((lot, i) => {
      if (!lot) return;
      if (countOk && i >= count) return add('WALLBOX_INVALID_NUMBER_CONNECTORS', lotColumn(i), lot);
      if (lot.length > PARKING_LOT_MAX_LENGTH) return add('FILE_INVALID_LENGTH_PARKINGLOT', lotColumn(i), lot);
      if (!r.locationId) return add('FILE_INVALID_EMPTY_LOCATION_NOT_EMPTY_PARKINGlOT', lotColumn(i), lot);
      if (!location) return;
      const key = lotKey(r.locationId, lot);
      if (lotsInFile.has(key)) add('FILE_DUPLICATED_PARKINGLOT', lotColumn(i), lot);
      else if (known.lotsTaken.has(key)) add('PARKINGLOT_EXISTS', lotColumn(i), lot);
      lotsInFile.add(key);
    });

    if (mistakes.length === before) {
      stations.push({
        row: r.row,
        cpId: r.cpId,
        cpoId,
        locationId: r.locationId || null,
        wallboxModel: r.wallboxModel,
        connectorCount: count,
        parkingLots: Array.from({ length: count }, (_, i) => r.parkingLots[i] || null),
      });
    }
  }
  return { mistakes, stations };
}

const unique = (values: string[]) => [...new Set(values)];

/** The error detail: every mistake, and per code what the dialog names (spec 2 §8). */
export function mistakeDetail(mistakes: ImportMistake[], rows: FileRow[]): StationImportErrorDetail {
  const of = (code: ImportMistake['code']) => mistakes.filter((m) => m.code === code);
  const byRow = new Map(rows.map((r) => [r.row, r]));
  const pairs = of('FILE_DUPLICATED_PARKINGLOT').map((m) => ({ locationId: byRow.get(m.row)!.locationId, parkingLot: m.value }));
  return {
    errors: mistakes,
    parkingLots: unique(of('PARKINGLOT_EXISTS').map((m) => m.value)),
    locations: unique(of('FILE_INVALID_LOCATION').map((m) => m.value)),
    duplicatedParkingLots: pairs.filter(
      (p, i) => pairs.findIndex((q) => q.locationId === p.locationId && q.parkingLot === p.parkingLot) === i,
    ),
    wallboxes: unique(of('WALLBOX_INVALID_NUMBER_CONNECTORS').map((m) => byRow.get(m.row)!.wallboxModel)),
    cpIds: unique(of('FILE_DUPLICATED_CPIDS').map((m) => m.value)),
  };
}
