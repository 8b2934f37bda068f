import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { bills } from './bookings';
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

/**
 * A checkout link asked for (create, edit to STRIPE_SEPA, redo), recorded in the asking write's
 * transaction; the provider is called after the commit, never inside a transaction, with
 * `checkout-<requestId>` as its idempotency key, and the answer (link, mail) recorded in a short
 * transaction of its own. A request not answered (provider down, process gone) is taken again
 * once its claim has run out (`payments/checkout-requests.ts`).
 */
export const paymentCheckoutRequests = pgTable(
  'payment_checkout_requests',
  {
    requestId: text('request_id').primaryKey(),
    contractKey: text('contract_key')
      .notNull()
      .references(() => contracts.contractKey, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<CheckoutPurpose>().notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    /** Taken by a caller until then; after it, another may take the request again (same key). */
    claimedUntil: tsz('claimed_until'),
    attempts: integer('attempts').notNull().default(0),
    /** The last failure's kind only (no message: it may carry the provider's text about a person). */
    lastFailure: text('last_failure'),
    sessionId: text('session_id'),
    doneAt: tsz('done_at'),
  },
  (t) => [
    index('payment_checkout_requests_open_idx')
      .on(t.createdAt)
      .where(sql`done_at is null`),
    index('payment_checkout_requests_contract_idx').on(t.contractKey),
    check('payment_checkout_requests_purpose_chk', inList('purpose', checkoutPurposes)),
  ],
);

/**
 * A bill's collection asked of the provider: recorded (committed) before the call, answered after
 * it. The idempotency key stays the bill's, so a call cut short (crash, lost answer) is made again
 * with it and the provider answers the intent it made the first time: one debit.
 */
export const billCollections = pgTable('bill_collections', {
  billId: text('bill_id')
    .primaryKey()
    .references(() => bills.billId, { onDelete: 'cascade' }),
  idempotencyKey: text('idempotency_key').notNull(),
  requestedAt: tsz('requested_at').notNull().defaultNow(),
  claimedUntil: tsz('claimed_until'),
  attempts: integer('attempts').notNull().default(0),
  lastFailure: text('last_failure'),
  answeredAt: tsz('answered_at'),
});
