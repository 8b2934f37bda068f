import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { erpPaymentMethods, operatorBillingTypes, operatorPaymentPreferences } from '../../../../contract/enums';
import { tsz, inList } from './columns';
import { customers } from './customers';

/** Operators (CPOs) and their ERP values (spec 1 §6, spec 3 §3-5). */

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
    /** § 14 UStG: the issuer's VAT id or, without one, its tax number, printed on every invoice. */
    vatId: text('vat_id'),
    taxNumber: text('tax_number'),
    /** The operator's own bill-number prefix; `RE-{year}-{cpoId}-` when empty (issue 24). */
    billNumberPrefix: text('bill_number_prefix'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('operators_customer_idx').on(t.customerId),
    // Bill numbers are unique across operators, so their own prefixes are too (case-insensitive).
    uniqueIndex('operators_bill_number_prefix_uq').using('btree', sql`upper(${t.billNumberPrefix})`),
    check('operators_billing_type_chk', sql`billing_type is null or ${inList('billing_type', operatorBillingTypes)}`),
    check('operators_gap_chk', sql`money_collection_gap_in_days is null or money_collection_gap_in_days >= 1`),
  ],
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
    /** The clearing account (Geldtransitkonto) a payment provider's bills are posted against (issue 35: Stripe). */
    clearingAccountNr: text('clearing_account_nr'),
    paymentMethod: text('payment_method').$type<(typeof erpPaymentMethods)[number]>().notNull(),
  },
  (t) => [
    uniqueIndex('erp_values_cpo_method_uq').on(t.cpoId, t.paymentMethod),
    check('erp_values_method_chk', inList('payment_method', erpPaymentMethods)),
  ],
);
