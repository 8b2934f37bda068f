import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, numeric, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { billStatuses, paymentMethods, userTypes } from '../../../../contract/enums';
import { tsz, money, inList } from './columns';
import { operators } from './operators';
import { locations } from './locations';
import { files, contracts } from './contracts';

/** One bill line as stored: compute.ts's `BillLine` with its BigInts as decimal strings. */
export interface StoredBillLine {
  kind: 'fixed' | 'energy' | 'per-request' | 'onboarding';
  from: string;
  to: string;
  quantity: { numerator: string; denominator: string };
  unitPrice: string;
  netCents: string;
}

/** Bills (spec 2 §2). */

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
    /** The bill run's figures (issue 24): net, VAT rate and VAT beside the gross above. */
    netCosts: money('net_costs').notNull().default('0'),
    vatPercent: numeric('vat_percent', { precision: 5, scale: 2 }).notNull().default('19'),
    vatCosts: money('vat_costs').notNull().default('0'),
    /** The bill's lines as compute.ts made them, amounts as decimal strings (`StoredBillLine`). */
    lines: jsonb('lines')
      .$type<StoredBillLine[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** An IMMEDIATE bill's one charging request; null for a bill of a period. */
    chargingRequestId: text('charging_request_id'),
    /**
     * What the invoice says, frozen when the bill is issued (the run, a regeneration; issue 35):
     * `bills/document.ts` `IssuedInvoice`, serialised generically (bigint and Date tagged). Null
     * for a bill issued before migration 0020 until its first drawing takes it from that day's data.
     */
    issuedDocument: jsonb('issued_document'),
  },
  (t) => [
    // The list's order (generation, then number, newest first): per operator, and for the admins' unscoped list.
    index('bills_cpo_generation_number_idx').on(t.cpoId, t.billGenerationDate.desc().nullsFirst(), t.billNumber.desc().nullsFirst()),
    index('bills_generation_number_idx').on(t.billGenerationDate.desc().nullsFirst(), t.billNumber.desc().nullsFirst()),
    index('bills_status_idx').on(t.billingStatus),
    index('bills_payment_method_idx').on(t.paymentMethod),
    index('bills_user_type_idx').on(t.userType),
    index('bills_contract_idx').on(t.contractKey, t.billGenerationDate.desc()),
    index('bills_end_customer_idx').on(t.endCustomerId),
    // A period is billed once per contract, a charging request once (the run's idempotence).
    uniqueIndex('bills_contract_period_uq')
      .on(t.contractKey, t.startDate, t.endDate)
      .where(sql`charging_request_id is null`),
    uniqueIndex('bills_charging_request_uq').on(t.chargingRequestId),
    check('bills_status_chk', sql`billing_status is null or ${inList('billing_status', billStatuses)}`),
  ],
);

/**
 * The last bill number given out per operator and year (issue 24). Taken with the row locked in
 * the transaction that writes the bill, so numbers have no gaps: a failed bill rolls its number back.
 */
export const billNumberCounters = pgTable(
  'bill_number_counters',
  {
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    year: integer('year').notNull(),
    lastNumber: integer('last_number').notNull().default(0),
  },
  (t) => [primaryKey({ name: 'bill_number_counters_pk', columns: [t.cpoId, t.year] })],
);

/** Bills per operator, Berlin day (month) of generation, status, payment method and user type ('' for a null status or method). */
const billRollupColumns = {
  cpoId: text('cpo_id').notNull(),
  statusKey: text('status_key').notNull(),
  paymentMethodKey: text('payment_method_key').notNull(),
  userType: text('user_type').notNull(),
  bills: integer('bills').notNull(),
};

/**
 * The bill list's totals (migration 0016_list_rollups, kept by statement triggers on bills in the writing
 * transaction, like the charging requests' roll-ups): a range sums its whole months from
 * bill_months and the days at its ragged ends from bill_days.
 */
export const billDays = pgTable('bill_days', { day: date('day', { mode: 'string' }).notNull(), ...billRollupColumns }, (t) => [
  primaryKey({ name: 'bill_days_pk', columns: [t.cpoId, t.day, t.statusKey, t.paymentMethodKey, t.userType] }),
  index('bill_days_day_idx').on(t.day),
]);

export const billMonths = pgTable('bill_months', { month: date('month', { mode: 'string' }).notNull(), ...billRollupColumns }, (t) => [
  primaryKey({ name: 'bill_months_pk', columns: [t.cpoId, t.month, t.statusKey, t.paymentMethodKey, t.userType] }),
  index('bill_months_month_idx').on(t.month),
]);

/**
 * Bills per operator and Berlin day (month) of generation, whatever their status, payment method or
 * user type (migration 0019_operator_rollups, kept by the same statement triggers): the list's total without those
 * filters reads a row per operator and month instead of one per operator, month, status, method
 * and user type (~20 times fewer). Per operator, so two operators' bill runs never lock one row.
 */
const billOperatorRollupColumns = { cpoId: text('cpo_id').notNull(), bills: integer('bills').notNull() };

export const billOperatorDays = pgTable(
  'bill_operator_days',
  { day: date('day', { mode: 'string' }).notNull(), ...billOperatorRollupColumns },
  (t) => [primaryKey({ name: 'bill_operator_days_pk', columns: [t.cpoId, t.day] }), index('bill_operator_days_day_idx').on(t.day)],
);

export const billOperatorMonths = pgTable(
  'bill_operator_months',
  { month: date('month', { mode: 'string' }).notNull(), ...billOperatorRollupColumns },
  (t) => [
    primaryKey({ name: 'bill_operator_months_pk', columns: [t.cpoId, t.month] }),
    index('bill_operator_months_month_idx').on(t.month),
  ],
);
