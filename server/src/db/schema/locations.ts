import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, numeric, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsz } from './columns';
import { operators } from './operators';

/** Locations, their planned infrastructure and the wallbox models (spec 1 §4-5). */

export const wallboxModels = pgTable('wallbox_models', {
  name: text('name').primaryKey(),
  manufacturer: text('manufacturer').notNull(),
  connectorsPerStation: integer('connectors_per_station').notNull().default(1),
  maxPowerKw: numeric('max_power_kw', { precision: 6, scale: 1 }).notNull(),
});

export const locations = pgTable(
  'locations',
  {
    locationId: text('location_id').primaryKey(),
    locationName: text('location_name').notNull(),
    careOf: text('care_of'),
    street: text('street').notNull(),
    zipCode: text('zip_code').notNull(),
    city: text('city').notNull(),
    countryCode: text('country_code').notNull().default('DE'),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    isEmsConnected: boolean('is_ems_connected').notNull().default(false),
    emsModel: text('ems_model'),
    emsId: text('ems_id'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('locations_cpo_name_idx').on(t.cpoId, t.locationName),
    index('locations_name_lower_idx').on(sql`lower(${t.locationName})`),
    index('locations_address_lower_idx').on(sql`lower(${t.street} || ' ' || ${t.zipCode} || ' ' || ${t.city})`),
  ],
);

/** Infrastructure requested in the location wizard (model + count); stations are created by the team later. */
export const locationInfrastructure = pgTable(
  'location_infrastructure',
  {
    id: serial('id').primaryKey(),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.locationId, { onDelete: 'cascade' }),
    chargingStationModel: text('charging_station_model')
      .notNull()
      .references(() => wallboxModels.name),
    numOfChargingStations: integer('num_of_charging_stations').notNull(),
  },
  (t) => [
    index('location_infrastructure_location_idx').on(t.locationId),
    uniqueIndex('location_infrastructure_model_uq').on(t.locationId, t.chargingStationModel),
    check('location_infrastructure_count_chk', sql`num_of_charging_stations between 1 and 100`),
  ],
);
