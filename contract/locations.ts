import * as z from 'zod/mini';
import { commaListSchema, pageQuerySchema, paged } from './common';
import { billStatuses, type ContractStatus, contractStatuses, emsModels, userTypes } from './enums';

/**
 * Locations (spec 1 §2-3, §5, §7; spec 2 §2-3, §5, §7). All on the BFF base (`/bff`) except the
 * contracts of a location, which live on contract management (`/contract-management`).
 *
 * - `GET  /bff/locations/get-by-cpo`            list (locationListQuerySchema → paged(locationListRowSchema))
 * - `GET  /bff/locations/get-by-cpo-for-dropdown`  every location for selects (locationDropdownQuerySchema →
 *                                               locationDropdownAnswerSchema)
 * - `POST /bff/locations/location`              create (createLocationBodySchema → createLocationAnswerSchema)
 * - `GET  /bff/locations/wallboxTypes`          model list (wallboxTypesAnswerSchema)
 * - `GET  /bff/locations/parking-info`          ?locationId → parkingInfoSchema
 * - `GET  /bff/locations/{id}`                  detail (locationDetailSchema), header `ETag: "v<version>"`
 * - `PUT  /bff/locations/update-location`       edit (updateLocationBodySchema → updateLocationAnswerSchema);
 *                                               optional `version` or `If-Match: "v<n>"`; stale → 409 CONFLICT
 *                                               with errorDetail locationConflictDetailSchema
 * - `GET  /contract-management/location/{id}/contracts`  paged(locationContractRowSchema)
 *
 * A location outside the caller's operators answers 404 LOCATION_NOT_FOUND; an operator outside
 * them 404 OPERATOR_NOT_FOUND (errorMessage names the cpoId).
 */

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** Optional text: empty or blank counts as absent (the client drops empty values anyway). */
const optionalText = (max: number) =>
  z.pipe(
    z.optional(z.nullable(z.string().check(z.trim(), z.maxLength(max)))),
    z.transform((v: string | null | undefined) => (v ? v : null)),
  );

/** Optional filter in a query string: blank counts as absent. */
const optionalFilter = z.pipe(
  z.optional(z.string().check(z.trim(), z.maxLength(200))),
  z.transform((v: string | undefined) => (v ? v : undefined)),
);

/** City: letters (any script, umlauts), spaces and hyphens only (spec 1 §5). */
export const CITY_PATTERN = /^[\p{L}\s-]+$/u;
/** Zip code: digits only (spec 1 §5). */
export const ZIP_PATTERN = /^\d+$/;

export const MAX_INFRASTRUCTURE_ROWS = 4;
export const MIN_STATIONS_PER_ROW = 1;
export const MAX_STATIONS_PER_ROW = 100;

export const locationAddressSchema = z.object({
  careOf: z.optional(z.nullable(z.string())),
  street: z.string(),
  zipCode: z.string(),
  city: z.string(),
  countryCode: z.optional(z.string()),
});
export type LocationAddress = z.infer<typeof locationAddressSchema>;

export const statusSummaryEntrySchema = z.object({ number: z.int().check(z.nonnegative()), color: z.string() });
/** status key → {number, color}; keys are connector display statuses or contract statuses. */
export const statusesSummarySchema = z.record(z.string(), statusSummaryEntrySchema);

// ---------------------------------------------------------------------------------------------
// GET /bff/locations/get-by-cpo
// ---------------------------------------------------------------------------------------------

/**
 * `locationName`: contains, case-insensitive. `address`: contains (case-insensitive) in street,
 * zip code, city or c/o. `cpoId`: narrows to one operator (outside the scope → 404 OPERATOR_NOT_FOUND).
 * Order: locationName, then locationId.
 */
export const locationListQuerySchema = z.extend(pageQuerySchema, {
  locationName: optionalFilter,
  address: optionalFilter,
  cpoId: optionalFilter,
});
export type LocationListQuery = z.input<typeof locationListQuerySchema>;

export const locationListRowSchema = z.object({
  locationId: z.string(),
  locationName: z.string(),
  locationAddress: locationAddressSchema,
  /**
   * Stations (Ladestationen, distinct cpIds) and their connectors (Ladepunkte): a double station is
   * 1 and 2. The totals include removed ones (a station is removed when all its connectors are);
   * the client shows them to admins and `total - removed` to everybody else.
   */
  numOfChargingStations: z.object({
    totalNrChargingStation: z.int().check(z.nonnegative()),
    removedNrChargingStation: z.int().check(z.nonnegative()),
    totalNrChargePoints: z.int().check(z.nonnegative()),
    removedNrChargePoints: z.int().check(z.nonnegative()),
  }),
  /** Contracts (end customers) assigned to the location. */
  numEndCustomers: z.int().check(z.nonnegative()),
  cpoId: z.string(),
  cpoName: z.string(),
  /** 'id: name'. */
  locationIdName: z.string(),
});
export type LocationListRow = z.infer<typeof locationListRowSchema>;
export const locationListAnswerSchema = paged(locationListRowSchema);
export type LocationListAnswer = z.infer<typeof locationListAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// GET /bff/locations/get-by-cpo-for-dropdown
// ---------------------------------------------------------------------------------------------

export const locationDropdownRowSchema = z.object({
  locationId: z.string(),
  locationName: z.string(),
  cpoId: z.string(),
  cpoName: z.string(),
  /** Parking lots of the location's connectors (not removed), sorted. */
  parkingLots: z.array(z.string()),
  /** 'id: name'. */
  locationIdName: z.string(),
});
export type LocationDropdownRow = z.infer<typeof locationDropdownRowSchema>;

/** `data` of the dropdown call: every location of the caller's operators, sorted by name. Optional query `cpoId` narrows to one operator. */
export const locationDropdownQuerySchema = z.object({ cpoId: z.optional(z.string().check(z.trim(), z.minLength(1))) });
export const locationDropdownAnswerSchema = z.array(locationDropdownRowSchema);

// ---------------------------------------------------------------------------------------------
// POST /bff/locations/location
// ---------------------------------------------------------------------------------------------

export const wallBoxRowSchema = z.object({
  numOfChargingStations: z.int().check(z.gte(MIN_STATIONS_PER_ROW, 'mustBeAtLeastOne'), z.lte(MAX_STATIONS_PER_ROW)),
  /** A name from `GET /bff/locations/wallboxTypes` (checked on the server). */
  chargingStationModel: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(200)),
});
export type WallBoxRow = z.infer<typeof wallBoxRowSchema>;

/**
 * Location creation (spec 1 §3, §5). Rows are only those with a count above 0 (1..100 each), at
 * most 4, models distinct. Without rows the EMS is stored as not connected. With rows and
 * `isEmsConnected`, `emsModel` is required. Operator-type accounts may only use their own operator;
 * a cpoId outside the caller's operators → 404 OPERATOR_NOT_FOUND. `cpoName` is informative only.
 */
export const createLocationBodySchema = z
  .object({
    locationName: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(200)),
    locationAddress: z.object({
      careOf: optionalText(200),
      street: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(200)),
      zipCode: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(10), z.regex(ZIP_PATTERN, 'digitsOnly')),
      city: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100), z.regex(CITY_PATTERN, 'lettersSpacesHyphensOnly')),
      countryCode: z.optional(z.literal('DE')),
    }),
    cpoId: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100)),
    cpoName: z.optional(z.nullable(z.string())),
    wallBoxesData: z._default(z.array(wallBoxRowSchema).check(z.maxLength(MAX_INFRASTRUCTURE_ROWS)), []),
    isEmsConnected: z._default(z.boolean(), false),
    emsModel: z.optional(z.nullable(z.enum(emsModels))),
    emsId: optionalText(100),
  })
  .check(
    z.superRefine((b, ctx) => {
      const seen = new Set<string>();
      b.wallBoxesData.forEach((row, i) => {
        if (seen.has(row.chargingStationModel))
          ctx.addIssue({ code: 'custom', path: ['wallBoxesData', i, 'chargingStationModel'], message: 'duplicateModel' });
        seen.add(row.chargingStationModel);
      });
      if (b.wallBoxesData.length > 0 && b.isEmsConnected && !b.emsModel)
        ctx.addIssue({ code: 'custom', path: ['emsModel'], message: 'required' });
    }),
  );
export type CreateLocationBody = z.input<typeof createLocationBodySchema>;

export const createLocationAnswerSchema = z.object({ locationId: z.string(), locationName: z.string() });
export type CreateLocationAnswer = z.infer<typeof createLocationAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// GET /bff/locations/wallboxTypes
// ---------------------------------------------------------------------------------------------

export const wallboxTypeSchema = z.object({
  /** The value sent as chargingStationModel / wallboxModel. */
  name: z.string(),
  manufacturer: z.string(),
  /** Connectors created per station by `POST /bff/connectors/create-cp`. */
  connectorsPerStation: z.int().check(z.positive()),
  maxPowerKw: z.number(),
});
export type WallboxType = z.infer<typeof wallboxTypeSchema>;
/** Sorted by name. */
export const wallboxTypesAnswerSchema = z.array(wallboxTypeSchema);

// ---------------------------------------------------------------------------------------------
// GET /bff/locations/parking-info?locationId=
// ---------------------------------------------------------------------------------------------

export const parkingInfoQuerySchema = z.object({ locationId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)) });

/** Parking lots in use at a location (connectors not removed), sorted. */
export const parkingInfoSchema = z.object({
  locationId: z.string(),
  parkingLots: z.array(z.string()),
  connectors: z.array(z.object({ connectorId: z.string(), cpId: z.string(), parkingLot: z.string() })),
});
export type ParkingInfo = z.infer<typeof parkingInfoSchema>;

// ---------------------------------------------------------------------------------------------
// GET /bff/locations/{id}
// ---------------------------------------------------------------------------------------------

export const locationDetailSchema = z.object({
  locationId: z.string(),
  locationName: z.string(),
  locationAddress: locationAddressSchema,
  cpoId: z.string(),
  operatorDetail: z.object({
    cpoId: z.string(),
    cpoName: z.string(),
    cpoAddress: z.object({ street: z.string(), zipCode: z.string(), city: z.string() }),
  }),
  chargingInfrastructureMetrics: z.object({
    /** Stations (distinct cpIds) including removed ones (admins see this; others see total - removed). */
    totalChargingStations: z.int().check(z.nonnegative()),
    removedChargingStations: z.int().check(z.nonnegative()),
    /** Their connectors (Ladepunkte), the same way. */
    totalChargePoints: z.int().check(z.nonnegative()),
    removedChargePoints: z.int().check(z.nonnegative()),
    /** Connectors (Ladepunkte) not removed, by display status (connectorDisplayStatus in contract/stations.ts). */
    statusesSummary: statusesSummarySchema,
  }),
  contractMetrics: z.object({
    totalContractStatuses: z.int().check(z.nonnegative()),
    /** Contracts of the location by contractStatus. */
    statusesSummary: statusesSummarySchema,
  }),
  isEmsConnected: z.boolean(),
  emsModel: z.nullable(z.string()),
  emsId: z.nullable(z.string()),
  /** What the location wizard asked for (models and counts); the stations are built by the team later. */
  requestedInfrastructure: z.array(z.object({ chargingStationModel: z.string(), numOfChargingStations: z.int() })),
  /** Parking lots in use (connectors not removed), sorted. */
  parkingLots: z.array(z.string()),
  /** Optimistic-concurrency token; also sent as `ETag: "v<version>"`. */
  version: z.int(),
});
export type LocationDetail = z.infer<typeof locationDetailSchema>;

/** Colours of contract statuses in summaries and rows. */
export const contractStatusColours: Record<ContractStatus, string> = {
  CREATED_UNSIGNED: '#F9A825',
  CREATED_SIGNED: '#1565C0',
  ACTIVE: '#2E7D32',
  BLOCKED: '#C62828',
  EXPIRED: '#757575',
  UNSIGNED_EXPIRED: '#9E9E9E',
};

// ---------------------------------------------------------------------------------------------
// PUT /bff/locations/update-location
// ---------------------------------------------------------------------------------------------

/**
 * Spec 2 §5: locationName, street, city, zipCode required (messages LNameReq, LBLNameReq,
 * LBLLocReq, ZipcodeReq), careOf optional. The operator cannot be changed here. `version`
 * (or `If-Match: "v<n>"`) is optional; when given and stale → 409 CONFLICT.
 */
export const updateLocationBodySchema = z.object({
  locationId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  locationName: z.string().check(z.trim(), z.minLength(1, 'LNameReq'), z.maxLength(200)),
  locationAddress: z.object({
    street: z.string().check(z.trim(), z.minLength(1, 'LBLNameReq'), z.maxLength(200)),
    city: z.string().check(z.trim(), z.minLength(1, 'LBLLocReq'), z.maxLength(100)),
    zipCode: z.string().check(z.trim(), z.minLength(1, 'ZipcodeReq'), z.maxLength(10)),
    countryCode: z.optional(z.literal('DE')),
    careOf: optionalText(200),
  }),
  version: z.optional(z.int().check(z.positive())),
});
export type UpdateLocationBody = z.input<typeof updateLocationBodySchema>;

export const updateLocationAnswerSchema = z.object({
  locationId: z.string(),
  locationName: z.string(),
  version: z.int(),
});
export type UpdateLocationAnswer = z.infer<typeof updateLocationAnswerSchema>;

/** errorDetail of a stale location edit (409 CONFLICT). */
export const locationConflictDetailSchema = z.object({
  locationId: z.string(),
  currentVersion: z.int(),
  current: z.object({ locationName: z.string(), locationAddress: locationAddressSchema }),
});
export type LocationConflictDetail = z.infer<typeof locationConflictDetailSchema>;

// ---------------------------------------------------------------------------------------------
// GET /contract-management/location/{id}/contracts
// ---------------------------------------------------------------------------------------------

/**
 * Same filters as the user list (/nutzer): endCustomerId, name (first/last name, contains,
 * case-insensitive), rfId (RFID tag or serial, contains), userTypes (comma list). Newest first.
 */
export const locationContractsQuerySchema = z.extend(pageQuerySchema, {
  endCustomerId: optionalFilter,
  name: optionalFilter,
  rfId: optionalFilter,
  userTypes: z.pipe(commaListSchema, z.array(z.enum(userTypes))),
});
export type LocationContractsQuery = z.input<typeof locationContractsQuerySchema>;

export const contractStatusMappingSchema = z.object({ enumName: z.string(), colourCode: z.string() });

/** The /nutzer row shape (spec 2 §2). `id` is the contract key (links to /nutzer/{id}). */
export const locationContractRowSchema = z.object({
  id: z.string(),
  contractKey: z.string(),
  endCustomerId: z.string(),
  name: z.string(),
  /** 'id: name' of the location, or null. */
  location: z.nullable(z.string()),
  parkingLotNumbers: z.array(z.string()),
  contractStatus: z.enum(contractStatuses),
  contractStatusMapping: contractStatusMappingSchema,
  userType: z.enum(userTypes),
  /** Status of the newest bill (PAID / UNPAID / ...), null without bills. */
  billingStatus: z.nullable(z.enum(billStatuses)),
  /** Number of the newest bill, the one a payment-status change sets; null without bills. */
  billNumber: z.nullable(z.string()),
  /** RFID tags of the contract, comma-joined; null without tags. */
  rfId: z.nullable(z.string()),
});
export type LocationContractRow = z.infer<typeof locationContractRowSchema>;
export const locationContractsAnswerSchema = paged(locationContractRowSchema);
