import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, text } from 'drizzle-orm/pg-core';
import { billStatuses, paymentMethods, userTypes } from '../../../../contract/enums';
import { tsz, money, inList } from './columns';
import { operators } from './operators';
import { locations } from './locations';
import { files, contracts } from './contracts';

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
