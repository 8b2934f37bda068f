import Stripe from 'stripe';

/**
 * Stripe's answers for the calls the Stripe provider makes (payments/stripe-provider.ts), as whole
 * objects of the API version the installed SDK pins (`Stripe.API_VERSION`), in the shape of
 * Stripe's API reference for that version. Typed as the SDK's own resource types, so a field the
 * SDK's version has and these lack fails the type check: when the SDK is upgraded, `tsc` names
 * what the answers must gain. Values are those of a SEPA setup and an off-session debit in test
 * mode (Stripe's sample IBAN DE89370400440532013000, its mandate reference format).
 */

export const STRIPE_API_VERSION: string = Stripe.API_VERSION;

const NOW = 1_764_000_000; // 2025-11-24T16:00:00Z
export const IDS = {
  customer: 'cus_TQxT3abcDEFgh1',
  session: 'cs_test_c1aB2cD3eF4gH5iJ6kL7mN8oP9qR0sT1uV2wX3yZ4aB5cD6eF7gH8',
  setupIntent: 'seti_1SQxT3aLkdIwHu7ixQ1w2E3r',
  paymentMethod: 'pm_1SQxT3bLkdIwHu7ixSEPAdeb',
  mandate: 'mandate_1SQxT3bLkdIwHu7ixM4n5B6v',
  mandateReference: 'K7XQ2WZ9P3M8R1TV',
  paymentIntent: 'pi_3SQxT4dLkdIwHu7ix0A1b2C3',
} as const;

/** POST /v1/customers */
export function customer(form: URLSearchParams): Stripe.Customer {
  return {
    id: IDS.customer,
    object: 'customer',
    address: null,
    balance: 0,
    created: NOW,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: form.get('email'),
    invoice_prefix: '5B1F2C3D',
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: metadataOf(form),
    name: form.get('name'),
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** POST /v1/checkout/sessions (mode setup, sepa_debit): open, with its hosted page's URL. */
export function checkoutSession(form: URLSearchParams, id: string = IDS.session): Stripe.Checkout.Session {
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: ['sepa_debit'],
    amount_subtotal: null,
    amount_total: null,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: form.get('cancel_url'),
    client_reference_id: null,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: NOW,
    currency: form.get('currency'),
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: form.get('customer'),
    customer_account: null,
    customer_creation: null,
    customer_details: null,
    customer_email: null,
    discounts: null,
    expires_at: NOW + 24 * 3600,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: metadataOf(form),
    mode: 'setup',
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'always',
    payment_method_configuration_details: null,
    payment_method_options: { sepa_debit: {} },
    payment_method_types: ['sepa_debit'],
    payment_status: 'no_payment_required',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: IDS.setupIntent,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: form.get('success_url'),
    total_details: null,
    ui_mode: 'hosted',
    url: `https://checkout.stripe.com/c/pay/${id}#fidkdWxOYHwnPyd1blpxYHZxWjA0T0JhUEFnYTF`,
    wallet_options: null,
  };
}

/** The mandate the customer accepted on Checkout's page (expanded into its setup intent). */
export function mandate(): Stripe.Mandate {
  return {
    id: IDS.mandate,
    object: 'mandate',
    customer_acceptance: {
      accepted_at: NOW,
      online: { ip_address: '203.0.113.7', user_agent: 'Mozilla/5.0 (X11; Linux x86_64)' },
      type: 'online',
    },
    livemode: false,
    multi_use: {},
    payment_method: IDS.paymentMethod,
    payment_method_details: {
      sepa_debit: {
        reference: IDS.mandateReference,
        url: `https://payments.stripe.com/sepa_debit/mandate/${IDS.mandate}`,
      },
      type: 'sepa_debit',
    },
    status: 'active',
    type: 'multi_use',
  };
}

/** GET /v1/setup_intents/{id}?expand[]=mandate: succeeded, its payment method and mandate set. */
export function setupIntent(expandMandate: boolean, metadata: Stripe.Metadata = {}): Stripe.SetupIntent {
  return {
    id: IDS.setupIntent,
    object: 'setup_intent',
    allowed_payment_method_types: ['sepa_debit'],
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${IDS.setupIntent}_secret_Tq1w2e3r4t5y6u7i8o9p`,
    created: NOW,
    customer: IDS.customer,
    description: null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: 'setatt_1SQxT3bLkdIwHu7ixZ9y8X7w',
    livemode: false,
    mandate: expandMandate ? mandate() : IDS.mandate,
    metadata,
    next_action: null,
    on_behalf_of: null,
    payment_method: IDS.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: { sepa_debit: {} },
    payment_method_types: ['sepa_debit'],
    single_use_mandate: null,
    status: 'succeeded',
    usage: 'off_session',
  };
}

/** POST /v1/payment_intents (confirm, off_session, sepa_debit): a SEPA debit is 'processing' for days. */
export function paymentIntent(form: URLSearchParams, status: Stripe.PaymentIntent.Status = 'processing'): Stripe.PaymentIntent {
  return {
    id: IDS.paymentIntent,
    object: 'payment_intent',
    allowed_payment_method_types: ['sepa_debit'],
    amount: Number(form.get('amount')),
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: status === 'succeeded' ? Number(form.get('amount')) : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${IDS.paymentIntent}_secret_Zx9c8v7b6n5m4`,
    confirmation_method: 'automatic',
    created: NOW,
    currency: form.get('currency') ?? 'eur',
    customer: form.get('customer'),
    customer_account: null,
    description: form.get('description'),
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: 'py_3SQxT4dLkdIwHu7ix0K9j8H7',
    livemode: false,
    managed_payments: null,
    metadata: metadataOf(form),
    next_action: null,
    on_behalf_of: null,
    payment_method: form.get('payment_method'),
    payment_method_configuration_details: null,
    payment_method_options: { sepa_debit: {} },
    payment_method_types: ['sepa_debit'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_group: null,
  };
}

/** A webhook event of the SDK's API version, as Stripe sends it to an endpoint. */
export function event<T extends Stripe.Event['type']>(
  id: string,
  type: T,
  object: Extract<Stripe.Event, { type: T }>['data']['object'],
): Extract<Stripe.Event, { type: T }> {
  return {
    id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  } satisfies Stripe.EventBase & { type: T; data: { object: unknown } } as Extract<Stripe.Event, { type: T }>;
}

/** `metadata[key]=value` of a form-encoded request, as Stripe stores it. */
function metadataOf(form: URLSearchParams): Stripe.Metadata {
  const metadata: Stripe.Metadata = {};
  for (const [k, v] of form) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) metadata[m[1]!] = v;
  }
  return metadata;
}
