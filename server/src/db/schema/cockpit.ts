import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { chargingRequestStatuses, chargingTypes } from '../../../../contract/enums';
import { tsz, money, inList } from './columns';
import { operators } from './operators';
import { locations } from './locations';
import { connectors } from './stations';
import { contracts } from './contracts';

/** Charging requests and the roll-ups the cockpit and the charging history read (spec 1 §2-3, §9). */

export const chargingRequests = pgTable(
  'charging_requests',
  {
    transactionId: varchar('transaction_id', { length: 22 }).primaryKey(),
    contractKey: text('contract_key').references(() => contracts.contractKey, { onDelete: 'set null' }),
    endCustomerId: text('end_customer_id'),
    customerFullName: text('customer_full_name'),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.locationId),
    connectorId: text('connector_id')
      .notNull()
      .references(() => connectors.connectorId),
    parkingLot: varchar('parking_lot', { length: 5 }),
    authType: text('auth_type').$type<'APP' | 'RFID'>().notNull(),
    rfidTag: text('rfid_tag'),
    rfidSerialId: text('rfid_serial_id'),
    chargingType: text('charging_type').$type<(typeof chargingTypes)[number]>().notNull().default('NORMAL'),
    status: text('status').$type<(typeof chargingRequestStatuses)[number]>().notNull(),
    startDate: tsz('start_date').notNull(),
    endDate: tsz('end_date'),
    lastUpdateTimestamp: tsz('last_update_timestamp').notNull(),
    energyKwh: numeric('energy_kwh', { precision: 12, scale: 3 }).notNull().default('0'),
    cost: money('cost').notNull().default('0'),
  },
  (t) => [
    index('charging_requests_cpo_start_idx').on(t.cpoId, t.startDate.desc()),
    // Admin and partner views (no single operator) page newest first and filter KPI ranges by start date.
    index('charging_requests_start_idx').on(t.startDate.desc(), t.transactionId.desc()),
    index('charging_requests_location_start_idx').on(t.locationId, t.startDate.desc()),
    index('charging_requests_status_idx').on(t.status),
    index('charging_requests_end_customer_idx').on(t.endCustomerId, t.startDate.desc()),
    index('charging_requests_contract_idx').on(t.contractKey, t.startDate.desc()),
    index('charging_requests_connector_idx').on(t.connectorId, t.startDate.desc()),
    check('charging_requests_status_chk', inList('status', chargingRequestStatuses)),
  ],
);

/**
 * Roll-ups of `charging_requests` per operator, location, status and Berlin day (of start_date), and
 * the same per Berlin month: request count, energy and cost. Kept current by statement triggers on
 * charging_requests (migration 0004), so every write path (seed, clean, any later one) updates them
 * in its own transaction. The KPI graph's energy and revenue and the charging history's total read
 * them instead of the requests: whole months from the monthly one, the ragged ends of a range from
 * the daily one. Rows whose count drops to 0 stay (they add nothing).
 */
const rollupColumns = {
  cpoId: text('cpo_id').notNull(),
  locationId: text('location_id').notNull(),
  status: text('status').notNull(),
  requests: integer('requests').notNull(),
  energyKwh: numeric('energy_kwh').notNull(),
  cost: numeric('cost').notNull(),
};

export const chargingRequestDays = pgTable(
  'charging_request_days',
  { day: date('day', { mode: 'string' }).notNull(), ...rollupColumns },
  (t) => [primaryKey({ columns: [t.cpoId, t.day, t.locationId, t.status] }), index('charging_request_days_day_idx').on(t.day)],
);

export const chargingRequestMonths = pgTable(
  'charging_request_months',
  { month: date('month', { mode: 'string' }).notNull(), ...rollupColumns },
  (t) => [primaryKey({ columns: [t.cpoId, t.month, t.locationId, t.status] })],
);

/**
 * The same roll-ups per operator, status and Berlin day (month), without the location (migration
 * 0017, kept by statement triggers like the others): a range without a location filter (the
 * cockpit's KPIs, the history's total over a date range) reads a row per operator, status and
 * month instead of one per location too. Per operator, so two operators' writes never share a row.
 */
const { locationId: _location, ...operatorRollupColumns } = rollupColumns;

export const chargingRequestOperatorDays = pgTable(
  'charging_request_operator_days',
  { day: date('day', { mode: 'string' }).notNull(), ...operatorRollupColumns },
  (t) => [
    primaryKey({ name: 'charging_request_operator_days_pk', columns: [t.cpoId, t.day, t.status] }),
    index('charging_request_operator_days_day_idx').on(t.day),
  ],
);

export const chargingRequestOperatorMonths = pgTable(
  'charging_request_operator_months',
  { month: date('month', { mode: 'string' }).notNull(), ...operatorRollupColumns },
  (t) => [primaryKey({ name: 'charging_request_operator_months_pk', columns: [t.cpoId, t.month, t.status] })],
);

/**
 * Requests per operator and status, of all time (migration 0006, kept by statement triggers like
 * the roll-ups above): the charging history's total without a date range sums these few rows
 * instead of every month's.
 */
export const chargingRequestTotals = pgTable(
  'charging_request_totals',
  {
    cpoId: text('cpo_id').notNull(),
    status: text('status').notNull(),
    requests: integer('requests').notNull(),
  },
  (t) => [primaryKey({ name: 'charging_request_totals_pk', columns: [t.cpoId, t.status] })],
);

/**
 * Which end customers had requests per operator, location and Berlin month (of start_date), with
 * how many: the active-users graph counts the distinct customers of a month bucket from here
 * (~26 000 rows for the 100 000 requests of the demo data) instead of reading every request. Kept
 * current by statement triggers on charging_requests (migration 0005), as the roll-ups above; a
 * row whose count drops to 0 stays and counts no customer.
 */
export const chargingRequestCustomerMonths = pgTable(
  'charging_request_customer_months',
  {
    month: date('month', { mode: 'string' }).notNull(),
    cpoId: text('cpo_id').notNull(),
    locationId: text('location_id').notNull(),
    endCustomerId: text('end_customer_id').notNull(),
    requests: integer('requests').notNull(),
  },
  (t) => [primaryKey({ name: 'charging_request_customer_months_pk', columns: [t.cpoId, t.month, t.locationId, t.endCustomerId] })],
);

/**
 * Distinct end customers per operator and Berlin month, exact and kept by a statement trigger on
 * charging_requests (migration 0024): the 12-month active-users graph without a location filter
 * reads a row per operator and month instead of ~20 000 customer-month rows. `..._customer_months`
 * holds each (operator, month, customer)'s requests; a customer's row going from 0 to more
 * requests (or back) moves `active_user_months.customers` and the customer's operator count in
 * `active_user_customer_months` by one. A customer seen at several operators in a month counts once
 * for a caller who sees several of them: the sum of the operators' counts less the overlap, read
 * from the few rows with `operators > 1`.
 */
export const chargingRequestOperatorCustomerMonths = pgTable(
  'charging_request_operator_customer_months',
  {
    cpoId: text('cpo_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    endCustomerId: text('end_customer_id').notNull(),
    requests: integer('requests').notNull(),
  },
  (t) => [primaryKey({ name: 'charging_request_operator_customer_months_pk', columns: [t.cpoId, t.month, t.endCustomerId] })],
);

export const activeUserMonths = pgTable(
  'active_user_months',
  {
    cpoId: text('cpo_id').notNull(),
    month: date('month', { mode: 'string' }).notNull(),
    customers: integer('customers').notNull(),
  },
  (t) => [primaryKey({ name: 'active_user_months_pk', columns: [t.cpoId, t.month] }), index('active_user_months_month_idx').on(t.month)],
);

export const activeUserCustomerMonths = pgTable(
  'active_user_customer_months',
  {
    month: date('month', { mode: 'string' }).notNull(),
    endCustomerId: text('end_customer_id').notNull(),
    operators: integer('operators').notNull(),
  },
  (t) => [
    primaryKey({ name: 'active_user_customer_months_pk', columns: [t.month, t.endCustomerId] }),
    index('active_user_customer_months_shared_idx')
      .on(t.month)
      .where(sql`${t.operators} > 1`),
  ],
);
