import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
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
    index('connectors_parking_lot_idx').on(t.parkingLot),
    index('connectors_wallbox_model_idx').on(t.wallboxModel),
    index('connectors_status_idx').on(t.status),
    check('connectors_status_chk', inList('status', connectorStatuses)),
    check('connectors_parking_lot_len_chk', sql`parking_lot is null or char_length(parking_lot) between 1 and 5`),
  ],
);
