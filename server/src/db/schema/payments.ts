import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { contracts } from './contracts';
import { inList, tsz } from './columns';

/** Direct-debit mandates and the payment provider's events (server/src/payments). */

export const checkoutPurposes = ['configure', 'reconfigure'] as const;
export type CheckoutPurpose = (typeof checkoutPurposes)[number];

/**
 * Every checkout link made for a contract. The Stripe provider keeps only the link and its purpose
 * here; the test-mode provider is its own Stripe, so it keeps what Stripe would (the mandate the
 * customer accepted on its page).
 */
export const paymentCheckouts = pgTable(
  'payment_checkouts',
  {
    sessionId: text('session_id').primaryKey(),
    contractKey: text('contract_key')
      .notNull()
      .references(() => contracts.contractKey, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<CheckoutPurpose>().notNull(),
    provider: text('provider').$type<'stripe' | 'test'>().notNull(),
    url: text('url').notNull(),
    customerId: text('customer_id').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    completedAt: tsz('completed_at'),
    /** Test mode only: what the customer entered and accepted. */
    accountHolder: text('account_holder'),
    ibanLast4: text('iban_last4'),
    paymentMethodId: text('payment_method_id'),
    mandateReference: text('mandate_reference'),
  },
  (t) => [
    index('payment_checkouts_contract_idx').on(t.contractKey),
    check('payment_checkouts_purpose_chk', inList('purpose', checkoutPurposes)),
    check('payment_checkouts_provider_chk', inList('provider', ['stripe', 'test'])),
  ],
);

/** Each provider event applied, by its id: a second delivery of it is answered and changes nothing. */
export const paymentEvents = pgTable('payment_events', {
  eventId: text('event_id').primaryKey(),
  type: text('type').notNull(),
  /** The provider's own time of the event (Stripe's `created`). */
  createdAt: tsz('created_at').notNull(),
  receivedAt: tsz('received_at').notNull().defaultNow(),
});
