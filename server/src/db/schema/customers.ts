import { boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { customerTypes } from '../../../../contract/common';
import { contractStatuses } from '../../../../contract/enums';
import { tsz, inList } from './columns';

/** The platform's customers: the companies that own operators and dashboard accounts (spec 3). */

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
