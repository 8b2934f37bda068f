import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { connectorStatuses } from '../../../../contract/enums';
import { tsz, inList } from './columns';
import { operators } from './operators';
import { wallboxModels, locations } from './locations';

/** Charging stations, one row per connector (spec 2 §4-5). */

export const connectors = pgTable(
  'connectors',
  {
    /** `${cpId}_${n}`; the UI shows the part after the last underscore. */
    connectorId: text('connector_id').primaryKey(),
    cpId: text('cp_id').notNull(),
    connectorNumber: integer('connector_number').notNull(),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    /** Uploads may create stations before they are placed, hence nullable. */
    locationId: text('location_id').references(() => locations.locationId),
    parkingLot: varchar('parking_lot', { length: 5 }),
    wallboxModel: text('wallbox_model')
      .notNull()
      .references(() => wallboxModels.name),
    status: text('status').$type<(typeof connectorStatuses)[number]>().notNull().default('OFFLINE'),
    removed: boolean('removed').notNull().default(false),
    onlineSince: tsz('online_since'),
    lastHeartbeat: tsz('last_heartbeat'),
    /** Optimistic concurrency: writes carry If-Match with this value. */
    version: integer('version').notNull().default(1),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('connectors_location_parking_lot_uq')
      .on(t.locationId, t.parkingLot)
      .where(sql`parking_lot is not null and removed = false`),
    index('connectors_cp_id_idx').on(t.cpId),
    index('connectors_cpo_idx').on(t.cpoId, t.connectorId),
    index('connectors_location_idx').on(t.locationId),
    // The connector list's walk: one location's live connectors in page order, read until the page is full.
    index('connectors_location_page_idx')
      .on(t.locationId, t.cpId, t.connectorId)
      .where(sql`removed = false`),
    // Its second part, the connectors without a location, in page order per operator.
    index('connectors_unlocated_page_idx')
      .on(t.cpoId, t.cpId, t.connectorId)
      .where(sql`location_id is null and removed = false`),
    index('connectors_parking_lot_idx').on(t.parkingLot),
    index('connectors_wallbox_model_idx').on(t.wallboxModel),
    index('connectors_status_idx').on(t.status),
    check('connectors_status_chk', inList('status', connectorStatuses)),
    check('connectors_parking_lot_len_chk', sql`parking_lot is null or char_length(parking_lot) between 1 and 5`),
  ],
);

/**
 * Connectors per operator, location ('' for none) and station (cpId), all and live (not removed),
 * kept by statement triggers on connectors (migration 0016_list_rollups): the other roll-up counts a station
 * from here when its first connector comes and its last one goes.
 */
export const connectorStationCounts = pgTable(
  'connector_station_counts',
  {
    cpoId: text('cpo_id').notNull(),
    locationKey: text('location_key').notNull(),
    cpId: text('cp_id').notNull(),
    connectors: integer('connectors').notNull(),
    liveConnectors: integer('live_connectors').notNull(),
  },
  (t) => [primaryKey({ name: 'connector_station_counts_pk', columns: [t.cpoId, t.locationKey, t.cpId] })],
);

/**
 * Connectors and stations per operator and location ('' for none), all and live (not removed),
 * kept by the same triggers: the connector list's total, the location list's counts and the
 * cockpit's licences sum these rows (a few per operator) instead of counting connectors.
 */
export const connectorCounts = pgTable(
  'connector_counts',
  {
    cpoId: text('cpo_id').notNull(),
    locationKey: text('location_key').notNull(),
    connectors: integer('connectors').notNull(),
    liveConnectors: integer('live_connectors').notNull(),
    stations: integer('stations').notNull(),
    liveStations: integer('live_stations').notNull(),
  },
  (t) => [
    primaryKey({ name: 'connector_counts_pk', columns: [t.cpoId, t.locationKey] }),
    index('connector_counts_location_idx').on(t.locationKey),
  ],
);
