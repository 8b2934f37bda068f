import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, numeric, pgTable, primaryKey, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { authTypes, billingCycles, billingTypes, contractStatuses, paymentMethods, rfidTypes, userTypes } from '../../../../contract/enums';
import { bytea, tsz, money, inList } from './columns';
import { operators } from './operators';
import { locations } from './locations';

/** End customers' contracts, their pending tariff changes and the files they keep (spec 2 §4-5, §8). */

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
    /** The day the customer accepted the direct-debit mandate (pain.008 DtOfSgntr; Stripe's accepted_at). */
    contractMandateDate: date('contract_mandate_date', { mode: 'string' }),
    /** The payment provider's customer and the SEPA payment method its mandate belongs to (payments/). */
    stripeCustomerId: text('stripe_customer_id'),
    stripePaymentMethodId: text('stripe_payment_method_id'),
    /** When the checkout that set the current mandate was completed: an older completion arriving later changes nothing. */
    stripeMandateCompletedAt: tsz('stripe_mandate_completed_at'),
    debitAccountNr: text('debit_account_nr'),
    costCenterNumber: text('cost_center_number'),
    /** The contract's VAT rate in percent (spec 2's ERP 'vatId': 19, 7 or 0; none: 19), the rate its bills are made at. */
    vatId: text('vat_id'),
    /** A business customer: its company name, its own VAT id (BT-48) and its order or buyer reference (BT-10, e.g. a Leitweg-ID). */
    companyName: text('company_name'),
    customerVatId: text('customer_vat_id'),
    buyerReference: text('buyer_reference'),
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

/**
 * Contracts not expired per operator, location ('' for none) and end date ('infinity' for none)
 * (migration 0019_operator_rollups, kept by statement triggers on contracts): the cockpit's end-user count (not
 * expired, ending today or later) sums the rows from today on instead of reading every contract of
 * the scope on each KPI call (a few hundred narrow rows for the demo's 2,000 contracts).
 */
export const contractEndCounts = pgTable(
  'contract_end_counts',
  {
    cpoId: text('cpo_id').notNull(),
    locationKey: text('location_key').notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    contracts: integer('contracts').notNull(),
  },
  (t) => [primaryKey({ name: 'contract_end_counts_pk', columns: [t.cpoId, t.locationKey, t.endDate] })],
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

/**
 * A contract's tariffs over time (issue 24): the tariff it started with from its start date, and
 * each tariff change from the day it took effect. The contract's own tariff columns hold today's
 * tariff; the bill run reads this table, so a period across a change bills two price blocks and
 * a regenerated bill still finds the prices of its period.
 */
export const contractTariffs = pgTable(
  'contract_tariffs',
  {
    contractKey: text('contract_key')
      .notNull()
      .references(() => contracts.contractKey, { onDelete: 'cascade' }),
    validFrom: date('valid_from', { mode: 'string' }).notNull(),
    fixTariff: money('fix_tariff').notNull().default('0'),
    varTariff: numeric('var_tariff', { precision: 10, scale: 4 }).notNull().default('0'),
    onboardingFee: money('onboarding_fee').notNull().default('0'),
    fixTariffPerChargingRequest: money('fix_tariff_per_charging_request').notNull().default('0'),
  },
  (t) => [primaryKey({ name: 'contract_tariffs_pk', columns: [t.contractKey, t.validFrom] })],
);
