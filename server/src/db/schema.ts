import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { customerTypes } from '../../../contract/common';
import {
  authTypes,
  billStatuses,
  billingCycles,
  billingTypes,
  chargingRequestStatuses,
  chargingTypes,
  connectorStatuses,
  contractStatuses,
  erpPaymentMethods,
  operatorBillingTypes,
  operatorPaymentPreferences,
  paymentMethods,
  rfidTypes,
  userTypes,
} from '../../../contract/enums';

/**
 * One schema for the whole data model of the three specs, used by PGlite and PostgreSQL alike.
 * Enumerations are text columns with CHECK constraints rather than pg enums: adding a value then
 * needs no `ALTER TYPE`, which PGlite and transactional migrations handle badly.
 */

// Both drivers hand bytea back as a Uint8Array subclass; normalise to Buffer for the rest of the code.
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (v) => v,
  fromDriver: (v) => Buffer.from(v),
});

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const money = (name: string) => numeric(name, { precision: 12, scale: 2 });
const inList = (col: string, values: readonly string[]) => sql.raw(`${col} in (${values.map((v) => `'${v}'`).join(', ')})`);

export const mailStatuses = ['queued', 'sending', 'sent', 'failed'] as const;
export const idempotencyStatuses = ['in_progress', 'done'] as const;

export const customers = pgTable(
  'customers',
  {
    customerId: text('customer_id').primaryKey(),
    companyName: text('company_name').notNull(),
    customerType: text('customer_type').$type<(typeof customerTypes)[number]>().notNull(),
    careOf: text('care_of'),
    street: text('street').notNull(),
    houseNumber: text('house_number'),
    zipCode: text('zip_code').notNull(),
    city: text('city').notNull(),
    countryCode: text('country_code').notNull().default('DE'),
    contractKey: text('contract_key'),
    contractStatus: text('contract_status').$type<(typeof contractStatuses)[number]>(),
    createManualEndCustomerId: boolean('create_manual_end_customer_id').notNull().default(false),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [check('customers_type_chk', inList('customer_type', customerTypes)), index('customers_company_name_idx').on(t.companyName)],
);

export const operators = pgTable(
  'operators',
  {
    cpoId: text('cpo_id').primaryKey(),
    cpoName: text('cpo_name').notNull(),
    street: text('street').notNull(),
    careOf: text('care_of'),
    zipCode: text('zip_code').notNull(),
    city: text('city').notNull(),
    countryCode: text('country_code').notNull().default('DE'),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.customerId),
    createManualEndCustomerId: boolean('create_manual_end_customer_id').notNull().default(false),
    contactPersonName: text('contact_person_name'),
    contactPersonPosition: text('contact_person_position'),
    contactPersonPhone: text('contact_person_phone'),
    contactPersonEmail: text('contact_person_email'),
    billingType: text('billing_type').$type<(typeof operatorBillingTypes)[number]>(),
    isChargingHistoryIncluded: boolean('is_charging_history_included').notNull().default(true),
    /** Ordered list of SEPA / BANK_TRANSFER (STRIPE_SEPA also appears in read models). */
    paymentPreference: text('payment_preference')
      .array()
      .$type<(typeof operatorPaymentPreferences)[number][]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    iban: text('iban'),
    bankName: text('bank_name'),
    bic: text('bic'),
    creditorId: text('creditor_id'),
    moneyCollectionGapInDays: integer('money_collection_gap_in_days'),
    headerLine1: text('header_line_1'),
    headerLine2: text('header_line_2'),
    headerLine3: text('header_line_3'),
    headerLine4: text('header_line_4'),
    footerLine1: text('footer_line_1'),
    footerLine2: text('footer_line_2'),
    footerLine3: text('footer_line_3'),
    footerLine4: text('footer_line_4'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('operators_customer_idx').on(t.customerId),
    check('operators_billing_type_chk', sql`billing_type is null or ${inList('billing_type', operatorBillingTypes)}`),
    check('operators_gap_chk', sql`money_collection_gap_in_days is null or money_collection_gap_in_days >= 1`),
  ],
);

export const dashboardUsers = pgTable(
  'dashboard_users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** Free text (spec 3 §6), shown as role_company. */
    role: text('role').notNull(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.customerId),
    /** Only for Operator-type customers: the one operator the account is bound to. */
    operatorId: text('operator_id').references(() => operators.cpoId),
    isAdmin: boolean('is_admin').notNull().default(false),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    verified: boolean('verified').notNull().default(true),
    productPackage: text('product_package'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dashboard_users_email_lower_uq').on(sql`lower(${t.email})`), index('dashboard_users_customer_idx').on(t.customerId)],
);

export const erpValues = pgTable(
  'erp_values',
  {
    id: serial('id').primaryKey(),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    clientNumber: text('client_number').notNull(),
    netLedgerAccountNr: text('net_ledger_account_nr').notNull(),
    taxLedgerAccountNr: text('tax_ledger_account_nr'),
    paymentMethod: text('payment_method').$type<(typeof erpPaymentMethods)[number]>().notNull(),
  },
  (t) => [
    uniqueIndex('erp_values_cpo_method_uq').on(t.cpoId, t.paymentMethod),
    check('erp_values_method_chk', inList('payment_method', erpPaymentMethods)),
  ],
);

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

export const files = pgTable('files', {
  id: text('id').primaryKey(),
  fileName: text('file_name').notNull(),
  mimeType: text('mime_type').notNull(),
  size: integer('size').notNull(),
  content: bytea('content').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
});

/** End customer and contract are one row: the spec treats them as one entity ("users" in the UI). */
export const contracts = pgTable(
  'contracts',
  {
    contractKey: text('contract_key').primaryKey(),
    /** Sent as verificationId on the PDF link. */
    contractId: text('contract_id').notNull().unique(),
    contractNumber: text('contract_number').notNull().unique(),
    endCustomerId: text('end_customer_id').notNull(),
    endCustomerIdManuallyCreated: boolean('end_customer_id_manually_created').notNull().default(false),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    locationId: text('location_id').references(() => locations.locationId),
    contractStatus: text('contract_status').$type<(typeof contractStatuses)[number]>().notNull(),
    userType: text('user_type').$type<(typeof userTypes)[number]>().notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    careOf: text('care_of'),
    street: text('street').notNull(),
    zipCode: text('zip_code').notNull(),
    city: text('city').notNull(),
    countryCode: text('country_code').notNull().default('DE'),
    parkingLotNumbers: text('parking_lot_numbers')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    authType: text('auth_type').$type<(typeof authTypes)[number]>().notNull().default('APP'),
    rfidType: text('rfid_type').$type<(typeof rfidTypes)[number]>(),
    billingType: text('billing_type').$type<(typeof billingTypes)[number]>().notNull(),
    billingCycle: text('billing_cycle').$type<(typeof billingCycles)[number]>(),
    startDate: date('start_date', { mode: 'string' }),
    endDate: date('end_date', { mode: 'string' }),
    fixTariff: money('fix_tariff'),
    varTariff: numeric('var_tariff', { precision: 10, scale: 4 }),
    onboardingFee: money('onboarding_fee').notNull().default('0'),
    fixTariffPerChargingRequest: money('fix_tariff_per_charging_request').notNull().default('0'),
    contractPdfFileId: text('contract_pdf_file_id').references(() => files.id),
    paymentMethod: text('payment_method').$type<(typeof paymentMethods)[number]>(),
    contractMandateReference: text('contract_mandate_reference'),
    contractIban: text('contract_iban'),
    stripeSepaPaymentDetailsAreConfigured: boolean('stripe_sepa_payment_details_are_configured').notNull().default(false),
    lastSepaRedoAt: tsz('last_sepa_redo_at'),
    debitAccountNr: text('debit_account_nr'),
    costCenterNumber: text('cost_center_number'),
    vatId: text('vat_id'),
    authCode: text('auth_code'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('contracts_end_customer_id_uq').on(t.endCustomerId),
    index('contracts_cpo_idx').on(t.cpoId, t.createdAt.desc()),
    index('contracts_name_lower_idx').on(sql`lower(${t.firstName} || ' ' || ${t.lastName})`),
    // One live contract per e-mail (spec 2 §8 'e-mail in use'); an ended one frees it for a new contract.
    uniqueIndex('contracts_email_live_uq')
      .on(sql`lower(${t.email})`)
      .where(sql`contract_status not in ('EXPIRED', 'UNSIGNED_EXPIRED')`),
    index('contracts_location_idx').on(t.locationId),
    index('contracts_user_type_idx').on(t.userType),
    index('contracts_status_idx').on(t.contractStatus),
    check('contracts_status_chk', inList('contract_status', contractStatuses)),
    check('contracts_user_type_chk', inList('user_type', userTypes)),
    check('contracts_auth_type_chk', inList('auth_type', authTypes)),
    check('contracts_billing_type_chk', inList('billing_type', billingTypes)),
    check('contracts_payment_method_chk', sql`payment_method is null or ${inList('payment_method', paymentMethods)}`),
    check('contracts_dates_chk', sql`end_date is null or start_date is null or end_date >= start_date`),
  ],
);

export const pendingTariffChanges = pgTable(
  'pending_tariff_changes',
  {
    id: serial('id').primaryKey(),
    contractKey: text('contract_key')
      .notNull()
      .references(() => contracts.contractKey, { onDelete: 'cascade' }),
    newTariffDate: date('new_tariff_date', { mode: 'string' }).notNull(),
    newTariffCancellationDate: date('new_tariff_cancellation_date', { mode: 'string' }).notNull(),
    fixTariff: money('fix_tariff').notNull(),
    varTariff: numeric('var_tariff', { precision: 10, scale: 4 }).notNull(),
    onboardingFee: money('onboarding_fee').notNull().default('0'),
    fixTariffPerChargingRequest: money('fix_tariff_per_charging_request').notNull().default('0'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    appliedAt: tsz('applied_at'),
  },
  (t) => [index('pending_tariff_changes_contract_idx').on(t.contractKey)],
);

export const rfidTags = pgTable(
  'rfid_tags',
  {
    id: serial('id').primaryKey(),
    serialId: text('serial_id').notNull().unique(),
    rfidTag: text('rfid_tag').notNull().unique(),
    /** Null while the card sits in stock (admin RFID management). */
    contractKey: text('contract_key').references(() => contracts.contractKey, { onDelete: 'set null' }),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('rfid_tags_contract_idx').on(t.contractKey)],
);

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

export const bills = pgTable(
  'bills',
  {
    billId: text('bill_id').primaryKey(),
    billNumber: text('bill_number').notNull().unique(),
    contractKey: text('contract_key')
      .notNull()
      .references(() => contracts.contractKey),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    locationId: text('location_id').references(() => locations.locationId),
    endCustomerId: text('end_customer_id').notNull(),
    /** Snapshot at generation: a bill keeps the name it was issued to. */
    endCustomerFirstName: text('end_customer_first_name').notNull(),
    endCustomerLastName: text('end_customer_last_name').notNull(),
    userType: text('user_type').$type<(typeof userTypes)[number]>().notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    energyLoaded: numeric('energy_loaded', { precision: 12, scale: 3 }).notNull().default('0'),
    taxedFixCosts: money('taxed_fix_costs').notNull().default('0'),
    taxedVarCosts: money('taxed_var_costs').notNull().default('0'),
    totalTaxedCosts: money('total_taxed_costs').notNull().default('0'),
    billingStatus: text('billing_status').$type<(typeof billStatuses)[number]>(),
    billGenerationDate: tsz('bill_generation_date').notNull(),
    billCollectionDate: tsz('bill_collection_date'),
    billDownloadDate: tsz('bill_download_date'),
    paymentMethod: text('payment_method').$type<(typeof paymentMethods)[number]>(),
    stripeSepaPaymentIntentId: text('stripe_sepa_payment_intent_id'),
    stripeSepaBillPaymentStatus: text('stripe_sepa_bill_payment_status'),
    monthNumber: integer('month_number').notNull(),
    yearNumber: integer('year_number').notNull(),
    pdfFileId: text('pdf_file_id').references(() => files.id),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('bills_cpo_generation_idx').on(t.cpoId, t.billGenerationDate.desc()),
    index('bills_status_idx').on(t.billingStatus),
    index('bills_payment_method_idx').on(t.paymentMethod),
    index('bills_user_type_idx').on(t.userType),
    index('bills_contract_idx').on(t.contractKey, t.billGenerationDate.desc()),
    index('bills_end_customer_idx').on(t.endCustomerId),
    check('bills_status_chk', sql`billing_status is null or ${inList('billing_status', billStatuses)}`),
  ],
);

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    attachmentName: text('attachment_name'),
    attachmentMimeType: text('attachment_mime_type'),
    attachment: bytea('attachment'),
    status: text('status').$type<(typeof mailStatuses)[number]>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    sentAt: tsz('sent_at'),
    /** When a sender claimed it ('sending'); a claim older than the sender's timeout is taken again. */
    claimedAt: tsz('claimed_at'),
  },
  (t) => [index('mail_outbox_status_idx').on(t.status, t.id), check('mail_outbox_status_chk', inList('status', mailStatuses))],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: 'cascade' }),
    /** sha256 of the opaque token: a database leak yields no usable tokens. */
    tokenHash: text('token_hash').notNull().unique(),
    /** All tokens rotated from one login share a family; reuse of a revoked one kills the family. */
    familyId: text('family_id').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    expiresAt: tsz('expires_at').notNull(),
    revokedAt: tsz('revoked_at'),
    /**
     * Set when the token was rotated (not when it was revoked): the pair that replaced it, encrypted
     * with a key derived from JWT_SECRET, so a refresh whose answer was lost can be answered again
     * with the same pair within the grace period instead of revoking the family.
     */
    successor: text('successor'),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId), index('refresh_tokens_family_idx').on(t.familyId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    expiresAt: tsz('expires_at').notNull(),
    usedAt: tsz('used_at'),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    key: text('key').notNull(),
    /** sha256 of method, path and body: the same key with another payload is refused with 422. */
    fingerprint: text('fingerprint').notNull(),
    status: text('status').$type<(typeof idempotencyStatuses)[number]>().notNull().default('in_progress'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    /** When a request took the key; an 'in_progress' claim older than the claim timeout is taken again (its request died). */
    claimedAt: tsz('claimed_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    check('idempotency_keys_status_chk', inList('status', idempotencyStatuses)),
  ],
);

/**
 * Counters of the sign-in, password-reset and mail limits (one row per limit and key, such as
 * `login-account:<e-mail>` or `login-address:<ip>`): in the database, so several instances share them.
 */
export const throttles = pgTable('throttles', {
  key: text('key').primaryKey(),
  /** Hits in the window that started at windowStart. */
  hits: integer('hits').notNull().default(0),
  windowStart: tsz('window_start').notNull(),
  /** Refused until then (429 with Retry-After). */
  blockedUntil: tsz('blocked_until'),
  /** How often this key was blocked in a row; each block lasts twice as long as the last. */
  blocks: integer('blocks').notNull().default(0),
});
