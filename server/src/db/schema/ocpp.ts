import { bigint, boolean, check, index, integer, jsonb, pgSequence, pgTable, primaryKey, serial, text, varchar } from 'drizzle-orm/pg-core';
import { operationStatuses } from '../../../../contract/ocpp';
import { tsz, inList } from './columns';
import { connectors } from './stations';

/**
 * What the charge points themselves report over OCPP 1.6J (server/src/ocpp): one row per station
 * (`cp_id`, which has no table of its own: connectors carry it), the OCPP status of each connector,
 * the transactions, the configuration last reported and every operation sent to a station.
 */

export const ocppStations = pgTable('ocpp_stations', {
  cpId: text('cp_id').primaryKey(),
  /** scrypt like the accounts' (auth/passwords.ts); null: no password set, the station cannot connect. */
  passwordHash: text('password_hash'),
  passwordSetAt: tsz('password_set_at'),
  vendor: text('vendor'),
  model: text('model'),
  serialNumber: text('serial_number'),
  firmwareVersion: text('firmware_version'),
  bootedAt: tsz('booted_at'),
  heartbeatIntervalSeconds: integer('heartbeat_interval_seconds').notNull().default(60),
  /** Any message from the station; 2.5 heartbeat intervals without one turn its connectors OFFLINE. */
  lastSeenAt: tsz('last_seen_at'),
  /** The instance holding the station's socket (several instances on one PostgreSQL); null when none does. */
  connectedInstance: text('connected_instance'),
  /**
   * The station's presence lease: the holding instance renews it while it holds the socket (one
   * heartbeat interval ahead, presence.ts); once it lapses (the holder died, or the socket closed
   * and no instance took the station again) the liveness sweep clears connected_instance and makes
   * the station OFFLINE.
   */
  connectedUntil: tsz('connected_until'),
  /** Set once the liveness sweep turned the station OFFLINE, cleared by its next message. */
  offline: boolean('offline').notNull().default(false),
  /** StatusNotification for connector 0 (the whole station). */
  stationStatus: text('station_status'),
  stationErrorCode: text('station_error_code'),
  stationInfo: text('station_info'),
  stationStatusAt: tsz('station_status_at'),
});

export const ocppConnectorStates = pgTable('ocpp_connector_states', {
  connectorId: text('connector_id')
    .primaryKey()
    .references(() => connectors.connectorId),
  ocppStatus: text('ocpp_status').notNull(),
  errorCode: text('error_code').notNull(),
  info: text('info'),
  vendorErrorCode: text('vendor_error_code'),
  reportedAt: tsz('reported_at').notNull(),
});

/** OCPP transaction ids: one sequence, so no two instances ever give out the same id. */
export const ocppTransactionIds = pgSequence('ocpp_transaction_id_seq', { startWith: 1, maxValue: 2147483647, cache: 1 });

export const ocppTransactions = pgTable(
  'ocpp_transactions',
  {
    transactionId: integer('transaction_id').primaryKey(),
    cpId: text('cp_id').notNull(),
    connectorId: text('connector_id')
      .notNull()
      .references(() => connectors.connectorId),
    idTag: text('id_tag').notNull(),
    /** The charging request this transaction became (null when the tag was not accepted). */
    chargingRequestId: varchar('charging_request_id', { length: 22 }),
    meterStartWh: bigint('meter_start_wh', { mode: 'number' }).notNull(),
    meterLastWh: bigint('meter_last_wh', { mode: 'number' }).notNull(),
    startedAt: tsz('started_at').notNull(),
    stoppedAt: tsz('stopped_at'),
    stopReason: text('stop_reason'),
  },
  (t) => [index('ocpp_transactions_connector_idx').on(t.connectorId, t.stoppedAt)],
);

/** The configuration a station last reported (GetConfiguration), key by key. */
export const ocppConfigurations = pgTable(
  'ocpp_configurations',
  {
    cpId: text('cp_id').notNull(),
    key: text('key').notNull(),
    value: text('value'),
    readonly: boolean('readonly').notNull(),
    reportedAt: tsz('reported_at').notNull(),
  },
  (t) => [primaryKey({ name: 'ocpp_configurations_pk', columns: [t.cpId, t.key] })],
);

export type OcppOperationStatus = (typeof operationStatuses)[number];

/**
 * Every operation sent to a station (who, when, what, the answer). It is also the hand-over between
 * instances: the instance that holds the station's socket picks a pending row up (LISTEN/NOTIFY).
 */
export const ocppOperations = pgTable(
  'ocpp_operations',
  {
    id: serial('id').primaryKey(),
    cpId: text('cp_id').notNull(),
    connectorId: text('connector_id'),
    operationType: text('operation_type').notNull(),
    action: text('action').notNull(),
    params: jsonb('params').notNull(),
    requestedBy: text('requested_by').notNull(),
    requestedAt: tsz('requested_at').notNull().defaultNow(),
    status: text('status').$type<OcppOperationStatus>().notNull().default('pending'),
    /** The instance that sent it to the station (the one holding its socket). */
    pickedBy: text('picked_by'),
    answer: jsonb('answer'),
    errorCode: text('error_code'),
    answeredAt: tsz('answered_at'),
  },
  (t) => [
    index('ocpp_operations_cp_idx').on(t.cpId, t.requestedAt.desc()),
    check('ocpp_operations_status_chk', inList('status', operationStatuses)),
  ],
);
