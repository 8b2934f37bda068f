import * as z from 'zod/mini';
import type { ErrorCode } from './errors';

/**
 * Stations from a CSV or Excel file (spec 2 §2, §7, §8; the columns in
 * `server/src/stations/import/README.md`). Admins only, on the BFF base (`/bff`).
 *
 * - `GET  /bff/connectors/upload/template?format=csv|xlsx`   the empty template (CSV with the configured separator)
 * - `POST /bff/connectors/upload?csvSeparator=;&dryRun=true` multipart field `file` → stationImportAnswerSchema
 *
 * A file with mistakes answers 400 (409 when every mistake is a parking lot that exists already)
 * with `errorCodeResponse` the first mistake's code and `errorDetail` stationImportErrorDetailSchema:
 * every mistake found, each with its row and column.
 */

/** The columns of the file, in the template's order; `parkingLot1`, `parkingLot2`, … one per connector. */
export const importColumns = ['locationId', 'operatorId', 'cpId', 'wallboxModel', 'connectorCount'] as const;
export type ImportColumn = (typeof importColumns)[number];
export const PARKING_LOT_COLUMN = 'parkingLot';
/** The template's parking-lot columns (a file may add parkingLot3, parkingLot4, … for bigger wallboxes). */
export const TEMPLATE_PARKING_LOTS = 2;
export const templateColumns = [
  ...importColumns,
  ...Array.from({ length: TEMPLATE_PARKING_LOTS }, (_, i) => `${PARKING_LOT_COLUMN}${i + 1}`),
];

/** The separators a CSV may use (the configured CSV_SEPARATOR must be one of them). */
export const supportedCsvSeparators = [';', ',', '\t', '|'] as const;

export const importTemplateFormats = ['csv', 'xlsx'] as const;
export const importTemplateQuerySchema = z.object({ format: z.enum(importTemplateFormats) });
export const IMPORT_TEMPLATE_FILE_NAME = 'Ladestationen-Vorlage';

export const stationImportQuerySchema = z.object({
  csvSeparator: z._default(z.string(), ';'),
  dryRun: z._default(
    z.pipe(
      z.enum(['true', 'false']),
      z.transform((v: 'true' | 'false') => v === 'true'),
    ),
    false,
  ),
});

/** The codes of the file's mistakes (spec 2 §8), plus VALIDATION_ERROR for a malformed station id. */
export const importRowCodes = [
  'FILE_INVALID_LOCATION',
  'FILE_DUPLICATED_PARKINGLOT',
  'FILE_INVALID_ABBREVIATION',
  'FILE_DUPLICATED_CPIDS',
  'FILE_INVALID_LENGTH_PARKINGLOT',
  'FILE_INVALID_EMPTY_LOCATION_NOT_EMPTY_PARKINGlOT',
  'WALLBOX_INVALID_NUMBER_CONNECTORS',
  'PARKINGLOT_EXISTS',
  'VALIDATION_ERROR',
] as const satisfies readonly ErrorCode[];
export type ImportRowCode = (typeof importRowCodes)[number];

/** One mistake: the file's row (1 is the header, so data starts at 2, as a spreadsheet counts) and column name. */
export const importMistakeSchema = z.object({
  code: z.enum(importRowCodes),
  row: z.int(),
  column: z.string(),
  value: z.string(),
});
export type ImportMistake = z.infer<typeof importMistakeSchema>;

export const stationImportErrorDetailSchema = z.object({
  errors: z.array(importMistakeSchema),
  /** PARKINGLOT_EXISTS: the parking lots taken already. */
  parkingLots: z.array(z.string()),
  /** FILE_INVALID_LOCATION: the location ids that are unknown or outside the caller's operators. */
  locations: z.array(z.string()),
  /** FILE_DUPLICATED_PARKINGLOT: the pairs named twice in the file. */
  duplicatedParkingLots: z.array(z.object({ locationId: z.string(), parkingLot: z.string() })),
  /** WALLBOX_INVALID_NUMBER_CONNECTORS: the wallbox models whose connector count does not match. */
  wallboxes: z.array(z.string()),
  /** FILE_DUPLICATED_CPIDS: the station ids named twice or existing already. */
  cpIds: z.array(z.string()),
});
export type StationImportErrorDetail = z.infer<typeof stationImportErrorDetailSchema>;

/** CSV_SEPARATOR_NOT_SUPPORTED: the separator asked for, and the one the file's header uses when it is another. */
export const separatorErrorDetailSchema = z.object({ separator: z.string(), fileSeparator: z.optional(z.string()) });

/** ERROR_PARSING_*: what is wrong with the file as a whole (a missing column, too many rows, no rows). */
export const parsingErrorDetailSchema = z.object({
  reason: z.enum(['unreadable', 'missingColumns', 'tooManyRows', 'empty', 'tooLarge']),
  columns: z.optional(z.array(z.string())),
  maxRows: z.optional(z.int()),
});

const importedStationSchema = z.object({
  row: z.int(),
  cpId: z.string(),
  wallboxModel: z.string(),
  connectors: z.array(z.object({ connectorId: z.string(), parkingLot: z.nullable(z.string()) })),
});

export const stationImportAnswerSchema = z.object({
  dryRun: z.boolean(),
  stationCount: z.int(),
  connectorCount: z.int(),
  /** Per location (null: stations not placed yet, with their operator). */
  locations: z.array(
    z.object({
      locationId: z.nullable(z.string()),
      locationName: z.nullable(z.string()),
      cpoId: z.string(),
      stations: z.array(importedStationSchema),
    }),
  ),
});
export type StationImportAnswer = z.infer<typeof stationImportAnswerSchema>;
