import * as z from 'zod/mini';

/**
 * Operations sent to a charge point over OCPP 1.6J and what the station detail shows of it:
 * - `POST /bff/ocpp-client/change-configuration`  one operation (stationOperationBodySchema → stationOperationAnswerSchema)
 * - `GET  /bff/connectors/{connectorId}/ocpp`     boot data, connection, last configuration, operation history
 * - `POST /bff/connectors/{connectorId}/station-password`  admins: a new password for the station (shown once)
 *
 * The HTTP call waits for the station's answer (at most the server's OCPP_CALL_TIMEOUT_MS) and
 * answers 200 with what the station said, Rejected and NotSupported included. Refusals:
 * - STATION_UNAVAILABLE (409): the connector is OFFLINE or INACTIVE (spec 2 §4).
 * - STATION_NOT_CONNECTED (409): no socket of the station on any instance.
 * - STATION_NO_ANSWER (409): the station stayed silent until the timeout.
 * - STATION_CALL_FAILED (409): the station answered with a CALLERROR; errorDetail { ocppErrorCode }.
 * - FORBIDDEN (403): an operation only admins may ask for (spec 2 §2).
 * None is a 5xx, so no client retries an operation behind the user's back.
 */

export const connectorOperationTypes = [
  'CHANGE_CONFIGURATION',
  'CONNECTOR_UNLOCK',
  'GET_DIAGNOSTICS',
  'HARD_RESET',
  'SOFT_RESET',
  'GET_CONFIGURATION',
  'TRIGGER_STATUS_NOTIFICATION',
  'TRIGGER_METER_VALUE',
  'TRIGGER_BOOT_NOTIFICATION',
  'TRIGGER_CLEAR_CHARGING_PROFILE',
] as const;
export type ConnectorOperationType = (typeof connectorOperationTypes)[number];

/** What users who are not admins may ask a station for (spec 2 §2); admins may ask for all. */
export const userOperationTypes = [
  'CONNECTOR_UNLOCK',
  'HARD_RESET',
  'TRIGGER_STATUS_NOTIFICATION',
] as const satisfies readonly ConnectorOperationType[];

export const mayAskFor = (type: ConnectorOperationType, isAdmin: boolean) =>
  isAdmin || (userOperationTypes as readonly ConnectorOperationType[]).includes(type);

/** OCPP 1.6 CiString50 for keys, CiString500 for values. */
export const OCPP_KEY_MAX = 50;
export const OCPP_VALUE_MAX = 500;

export const stationOperationBodySchema = z
  .object({
    connectorOperationType: z.enum(connectorOperationTypes),
    cpId: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100)),
    connectorId: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100)),
    /** CHANGE_CONFIGURATION: the key; GET_CONFIGURATION: one key or several separated by commas. */
    key: z.optional(z.string().check(z.trim(), z.maxLength(2000))),
    /** CHANGE_CONFIGURATION: the value; GET_DIAGNOSTICS: the upload location (a URL the station uploads to). */
    value: z.optional(z.string().check(z.maxLength(OCPP_VALUE_MAX))),
  })
  .check(
    z.superRefine((b, ctx) => {
      const keys = (b.key ?? '').split(',').map((k) => k.trim());
      const needsKey = b.connectorOperationType === 'CHANGE_CONFIGURATION' || b.connectorOperationType === 'GET_CONFIGURATION';
      if (needsKey && (!b.key || keys.some((k) => k.length === 0))) ctx.addIssue({ code: 'custom', path: ['key'], message: 'required' });
      else if (needsKey && keys.some((k) => k.length > OCPP_KEY_MAX))
        ctx.addIssue({ code: 'custom', path: ['key'], message: `max${OCPP_KEY_MAX}` });
      if (b.connectorOperationType === 'CHANGE_CONFIGURATION' && keys.length > 1)
        ctx.addIssue({ code: 'custom', path: ['key'], message: 'oneKey' });
      if (b.connectorOperationType === 'CHANGE_CONFIGURATION' && (b.value === undefined || b.value === ''))
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'required' });
      if (b.connectorOperationType === 'GET_DIAGNOSTICS' && !/^(ftp|ftps|http|https):\/\/\S+$/.test(b.value ?? ''))
        ctx.addIssue({ code: 'custom', path: ['value'], message: 'url' });
    }),
  );
export type StationOperationBody = z.infer<typeof stationOperationBodySchema>;

export const configurationKeySchema = z.object({ key: z.string(), value: z.nullable(z.string()), readonly: z.boolean() });
export type ConfigurationKey = z.infer<typeof configurationKeySchema>;

export const operationStatuses = ['pending', 'accepted', 'rejected', 'timed_out', 'offline', 'error'] as const;
export type OperationStatus = (typeof operationStatuses)[number];

export const stationOperationAnswerSchema = z.object({
  operationId: z.int(),
  status: z.enum(operationStatuses),
  /** The station's own status word (Accepted, Rejected, RebootRequired, NotSupported, Unlocked, …); null when it has none. */
  stationStatus: z.nullable(z.string()),
  /** GET_CONFIGURATION: the keys the station reported, and those it does not know. */
  configuration: z.optional(z.array(configurationKeySchema)),
  unknownKeys: z.optional(z.array(z.string())),
});
export type StationOperationAnswer = z.infer<typeof stationOperationAnswerSchema>;

export const operationRecordSchema = z.object({
  operationId: z.int(),
  connectorOperationType: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  status: z.enum(operationStatuses),
  stationStatus: z.nullable(z.string()),
  errorCode: z.nullable(z.string()),
  answeredAt: z.nullable(z.string()),
});
export type OperationRecord = z.infer<typeof operationRecordSchema>;

export const stationOcppSchema = z.object({
  cpId: z.string(),
  connected: z.boolean(),
  hasPassword: z.boolean(),
  boot: z.nullable(
    z.object({
      vendor: z.nullable(z.string()),
      model: z.nullable(z.string()),
      serialNumber: z.nullable(z.string()),
      firmwareVersion: z.nullable(z.string()),
      bootedAt: z.nullable(z.string()),
    }),
  ),
  lastSeenAt: z.nullable(z.string()),
  /** The connector's own OCPP status and error code, as last reported. */
  ocppStatus: z.nullable(z.object({ status: z.string(), errorCode: z.string(), info: z.nullable(z.string()), reportedAt: z.string() })),
  configuration: z.array(configurationKeySchema),
  configurationReportedAt: z.nullable(z.string()),
  operations: z.array(operationRecordSchema),
});
export type StationOcpp = z.infer<typeof stationOcppSchema>;

export const stationPasswordAnswerSchema = z.object({ cpId: z.string(), password: z.string() });
export type StationPasswordAnswer = z.infer<typeof stationPasswordAnswerSchema>;
