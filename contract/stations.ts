import * as z from 'zod/mini';
import { commaListSchema, pageQuerySchema, paged } from './common';
import { type ConnectorStatus, connectorStatuses, settableConnectorStatuses } from './enums';
import type { ErrorCode } from './errors';

/**
 * Charging stations and connectors (spec 2 §2-5, §7-8). All on the BFF base (`/bff`).
 *
 * - `GET  /bff/connectors/get-by-cpo`               list (stationListQuerySchema → paged(stationListRowSchema))
 * - `GET  /bff/connectors/{connectorId}`            detail (stationDetailSchema), header `ETag: "v<version>"`
 * - `POST /bff/connectors/create-cp`                create stations (createStationsBodySchema → createStationsAnswerSchema)
 * - `PUT  /bff/connectors/update-parking-lots`      parking lots (parkingLotUpdateBodySchema → connectorWriteAnswerSchema)
 * - `PUT  /bff/ocpp-client/change-availability`     status (changeAvailabilityBodySchema → connectorWriteAnswerSchema)
 * - charging history of a connector: `GET /booking-service/bookings/get-charging-history?connectorId=` (contract/cockpit.ts)
 *
 * Writes are all-or-nothing and bump each changed connector's `version`. Each item may carry the
 * `version` the user saw; for a single item an `If-Match: "v<n>"` header does the same. A stale
 * version → 409 CONFLICT with errorDetail connectorConflictDetailSchema and nothing changes.
 * A connector outside the caller's operators (or removed) → 404 CONNECTOR_NOT_FOUND.
 */

// ---------------------------------------------------------------------------------------------
// Status display
// ---------------------------------------------------------------------------------------------

/** CONNECTED_UNAVAILABLE without a parking lot ('Verknüpft (Parkplatz hinterlegen)'). */
export const CONNECTED_NEEDS_PARKING_LOT = 'CONNECTED_NEEDS_PARKING_LOT';
export const connectorDisplayStatuses = [...connectorStatuses, CONNECTED_NEEDS_PARKING_LOT] as const;
export type ConnectorDisplayStatus = (typeof connectorDisplayStatuses)[number];

/** Colours (hex) of the display statuses: aktiv, standby, verknüpft, in use, störung, inaktiv. */
export const connectorStatusColours: Record<ConnectorDisplayStatus, string> = {
  IDLE: '#2E7D32',
  CONNECTED_UNAVAILABLE: '#1565C0',
  CONNECTED_NEEDS_PARKING_LOT: '#F9A825',
  OCCUPIED_UNCHARGED: '#00838F',
  OCCUPIED_CHARGING: '#6A1B9A',
  OFFLINE: '#C62828',
  INACTIVE: '#757575',
};

export function connectorDisplayStatus(status: ConnectorStatus, parkingLot: string | null | undefined): ConnectorDisplayStatus {
  return status === 'CONNECTED_UNAVAILABLE' && !parkingLot ? CONNECTED_NEEDS_PARKING_LOT : status;
}

export const connectorStatusMappingSchema = z.object({ enumName: z.string(), colourCode: z.string() });
export type ConnectorStatusMapping = z.infer<typeof connectorStatusMappingSchema>;

export function connectorStatusMapping(status: ConnectorStatus, parkingLot: string | null | undefined): ConnectorStatusMapping {
  const enumName = connectorDisplayStatus(status, parkingLot);
  return { enumName, colourCode: connectorStatusColours[enumName] };
}

// ---------------------------------------------------------------------------------------------
// Rules shared by client and server (spec 2 §4-5)
// ---------------------------------------------------------------------------------------------

export const PARKING_LOT_MAX_LENGTH = 5;
export const MIN_STATIONS_TO_CREATE = 1;
export const MAX_STATIONS_TO_CREATE = 100;
/** Most connectors in one parking-lot or availability write. */
export const MAX_CONNECTORS_PER_WRITE = 200;

/** Statuses a user may set (defined with the other enums, so a route's search schema needs no zod schemas). */
export { settableConnectorStatuses, type SettableConnectorStatus } from './enums';
export const OCCUPIED_STATUSES: readonly ConnectorStatus[] = ['OCCUPIED_UNCHARGED', 'OCCUPIED_CHARGING'];

/** A manual status change is allowed from IDLE, or from CONNECTED_UNAVAILABLE with a parking lot. */
export const canChangeAvailability = (status: ConnectorStatus, parkingLot: string | null | undefined) =>
  status === 'IDLE' || (status === 'CONNECTED_UNAVAILABLE' && !!parkingLot);

/** Assigning a parking lot is refused for INACTIVE connectors. */
export const canAssignParkingLot = (status: ConnectorStatus) => status !== 'INACTIVE';

/**
 * Error codes of this area beyond contract/errors.ts:
 * - CONNECTOR_INACTIVE (409): parking lot for an INACTIVE connector; errorDetail {connectorIds, cpIds}.
 * - CONNECTOR_IN_OPERATION (409): status change of an OCCUPIED_* connector; errorDetail {connectorIds, cpIds}.
 * - CONNECTOR_STATUS_NOT_CHANGEABLE (409): status change from another state ('must be Standby or
 *   Active'); errorDetail {connectorIds, cpIds}.
 * Also used: VALIDATION_ERROR (400; message 'fildnchange' when a parking lot equals the current
 * one), DATA_INCONSISTENCY (409; duplicate parking lot, errorMessage names the lot, errorDetail
 * [{locationId, parkingLot}]), CONFLICT (409; stale version), CONNECTOR_NOT_FOUND /
 * LOCATION_NOT_FOUND (404).
 */
export const stationErrorCodes = [
  'CONNECTOR_INACTIVE',
  'CONNECTOR_IN_OPERATION',
  'CONNECTOR_STATUS_NOT_CHANGEABLE',
] as const satisfies readonly ErrorCode[];
export type StationErrorCode = (typeof stationErrorCodes)[number];

export const connectorRefusalDetailSchema = z.object({ connectorIds: z.array(z.string()), cpIds: z.array(z.string()) });

/** errorDetail of a stale write (409 CONFLICT): what the connector looks like now. */
export const connectorConflictDetailSchema = z.object({
  connectorId: z.string(),
  currentVersion: z.int(),
  current: z.object({ parkingLot: z.nullable(z.string()), connectorStatus: z.enum(connectorStatuses) }),
  /** Every stale connector of the request (the fields above repeat the first). */
  conflicts: z.optional(
    z.array(
      z.object({
        connectorId: z.string(),
        currentVersion: z.int(),
        current: z.object({ parkingLot: z.nullable(z.string()), connectorStatus: z.enum(connectorStatuses) }),
      }),
    ),
  ),
});
export type ConnectorConflictDetail = z.infer<typeof connectorConflictDetailSchema>;

// ---------------------------------------------------------------------------------------------
// GET /bff/connectors/get-by-cpo
// ---------------------------------------------------------------------------------------------

const optionalFilter = z.pipe(
  z.optional(z.string().check(z.trim(), z.maxLength(200))),
  z.transform((v: string | undefined) => (v ? v : undefined)),
);

/**
 * cpId and addressParkingLot: contains, case-insensitive. locationIds, wallboxModels: comma lists
 * (exact). locationId: one location (the location page). Removed connectors are never listed.
 * Order: locationName, cpId, connectorId.
 */
export const stationListQuerySchema = z.extend(pageQuerySchema, {
  cpId: optionalFilter,
  addressParkingLot: optionalFilter,
  locationIds: commaListSchema,
  wallboxModels: commaListSchema,
  locationId: optionalFilter,
});
export type StationListQuery = z.input<typeof stationListQuerySchema>;

export const stationListRowSchema = z.object({
  /** `${cpId}_${n}`; the UI shows the part after the last underscore. */
  connectorId: z.string(),
  cpId: z.string(),
  locationId: z.nullable(z.string()),
  locationName: z.nullable(z.string()),
  address: z.object({
    street: z.nullable(z.string()),
    zipCode: z.nullable(z.string()),
    city: z.nullable(z.string()),
    parkingLot: z.nullable(z.string()),
  }),
  wallboxModel: z.string(),
  connectorStatus: z.enum(connectorStatuses),
  connectorStatusMapping: connectorStatusMappingSchema,
  /** ISO instant or null (offline/inactive). */
  onlineSince: z.nullable(z.string()),
  /** ISO instant of the last heartbeat, or null. */
  lastHeartBeatInterval: z.nullable(z.string()),
  version: z.int(),
});
export type StationListRow = z.infer<typeof stationListRowSchema>;
export const stationListAnswerSchema = paged(stationListRowSchema);
export type StationListAnswer = z.infer<typeof stationListAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// GET /bff/connectors/{connectorId}
// ---------------------------------------------------------------------------------------------

export const stationDetailSchema = z.extend(stationListRowSchema, {
  cpoId: z.string(),
  /** kWh over the connector's finished charging requests. */
  totalEnergy: z.number(),
  /** EUR over the connector's finished charging requests. */
  totalRevenue: z.number(),
});
export type StationDetail = z.infer<typeof stationDetailSchema>;

// ---------------------------------------------------------------------------------------------
// POST /bff/connectors/create-cp
// ---------------------------------------------------------------------------------------------

/**
 * Creates `numOfChargingStations` stations of the model at the location; each gets
 * `connectorsPerStation` connectors of the model (GET /bff/locations/wallboxTypes), INACTIVE,
 * without parking lot. `locationName` is informative. Messages: LBLReqMSG, locReq, csmorezero.
 */
export const createStationsBodySchema = z.object({
  locationName: z.optional(z.nullable(z.string())),
  locationId: z.string().check(z.trim(), z.minLength(1, 'locReq'), z.maxLength(100)),
  numOfChargingStations: z.coerce
    .number('csmorezero')
    .check(z.int('csmorezero'), z.gte(MIN_STATIONS_TO_CREATE, 'csmorezero'), z.lte(MAX_STATIONS_TO_CREATE)),
  chargingStationModel: z.string().check(z.trim(), z.minLength(1, 'LBLReqMSG'), z.maxLength(200)),
});
export type CreateStationsBody = z.input<typeof createStationsBodySchema>;

export const createStationsAnswerSchema = z.object({
  /** The site (location) id the stations were created at, shown in the success dialog. */
  id: z.string(),
  cpIds: z.array(z.string()),
  connectorIds: z.array(z.string()),
});
export type CreateStationsAnswer = z.infer<typeof createStationsAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// PUT /bff/connectors/update-parking-lots
// ---------------------------------------------------------------------------------------------

export const parkingLotNumberSchema = z
  .string()
  .check(z.trim(), z.minLength(1, 'parkingNumreq'), z.maxLength(PARKING_LOT_MAX_LENGTH, 'maxparkingLot'));

export const parkingLotUpdateItemSchema = z.object({
  connectorId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  cpId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  locationId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  parkingLotNumber: parkingLotNumberSchema,
  version: z.optional(z.int().check(z.positive())),
});
export type ParkingLotUpdateItem = z.input<typeof parkingLotUpdateItemSchema>;

/**
 * One item per connector (connectorIds distinct). Server rules: the lot must differ from the
 * current one (400 VALIDATION_ERROR 'fildnchange'); INACTIVE → 409 CONNECTOR_INACTIVE; a lot used
 * by another connector of the location, or twice in the request → 409 DATA_INCONSISTENCY; cpId
 * and locationId must be the connector's (else 400 VALIDATION_ERROR).
 */
export const parkingLotUpdateBodySchema = z.array(parkingLotUpdateItemSchema).check(
  z.minLength(1),
  z.maxLength(MAX_CONNECTORS_PER_WRITE),
  z.superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((it, i) => {
      if (seen.has(it.connectorId)) ctx.addIssue({ code: 'custom', path: [i, 'connectorId'], message: 'duplicateConnector' });
      seen.add(it.connectorId);
    });
  }),
);

/** Answer of both connector writes: the connectors as they are now. */
export const connectorWriteAnswerSchema = z.array(
  z.object({
    connectorId: z.string(),
    cpId: z.string(),
    parkingLot: z.nullable(z.string()),
    connectorStatus: z.enum(connectorStatuses),
    version: z.int(),
  }),
);
export type ConnectorWriteAnswer = z.infer<typeof connectorWriteAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// PUT /bff/ocpp-client/change-availability
// ---------------------------------------------------------------------------------------------

/**
 * Target only IDLE or CONNECTED_UNAVAILABLE (else 400). Server rules: every connector must be
 * IDLE or CONNECTED_UNAVAILABLE with a parking lot; OCCUPIED_* → 409 CONNECTOR_IN_OPERATION (cpIds
 * in errorDetail); others → 409 CONNECTOR_STATUS_NOT_CHANGEABLE. A connector already in the target
 * status is left as is (no version bump).
 */
export const changeAvailabilityBodySchema = z.object({
  changeAvailabilityRequest: z
    .array(
      z.object({
        connectorId: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
        connectorStatus: z.enum(settableConnectorStatuses),
        version: z.optional(z.int().check(z.positive())),
      }),
    )
    .check(
      z.minLength(1),
      z.maxLength(MAX_CONNECTORS_PER_WRITE),
      z.superRefine((items, ctx) => {
        const seen = new Set<string>();
        items.forEach((it, i) => {
          if (seen.has(it.connectorId)) ctx.addIssue({ code: 'custom', path: [i, 'connectorId'], message: 'duplicateConnector' });
          seen.add(it.connectorId);
        });
      }),
    ),
});
export type ChangeAvailabilityBody = z.input<typeof changeAvailabilityBodySchema>;
