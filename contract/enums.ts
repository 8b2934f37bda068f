/**
 * Enumerations of the data model (spec 1 §4, spec 2 §3-4, spec 3 §3-4), shared by the server's
 * database schema, its validation and the PWA's selects.
 */
export const connectorStatuses = [
  'IDLE',
  'CONNECTED_UNAVAILABLE',
  'OCCUPIED_UNCHARGED',
  'OCCUPIED_CHARGING',
  'OFFLINE',
  'INACTIVE',
] as const;
export type ConnectorStatus = (typeof connectorStatuses)[number];

/** The statuses a user may set (spec 2 §4): Aktiv and Standby. */
export const settableConnectorStatuses = ['IDLE', 'CONNECTED_UNAVAILABLE'] as const satisfies readonly (typeof connectorStatuses)[number][];
export type SettableConnectorStatus = (typeof settableConnectorStatuses)[number];

export const contractStatuses = ['CREATED_UNSIGNED', 'CREATED_SIGNED', 'ACTIVE', 'BLOCKED', 'EXPIRED', 'UNSIGNED_EXPIRED'] as const;
export type ContractStatus = (typeof contractStatuses)[number];

export const userTypes = ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN', 'AD_HOC'] as const;
export type UserType = (typeof userTypes)[number];

export const authTypes = ['APP', 'RFID', 'APP_AND_RFID'] as const;
export const rfidTypes = ['TAG', 'SN'] as const;
export const billingTypes = ['WITH_BILLING', 'NO_BILLING'] as const;
export const billingCycles = ['IMMEDIATE', 'MONTHLY', 'QUARTERLY', 'SEMI_ANNUAL', 'ANNUAL'] as const;
/**
 * The VAT rates a bill can be made at (§ 12 UStG: the standard 19 %, the reduced 7 %, and 0 % for
 * a supply that is exempt or not taxable here; the bill then names why). The contract keeps its
 * rate in `erpSystemParameters.vatId` (spec 2: 'VAT id with a percent sign', digits); a contract
 * without one is billed at the standard rate.
 */
export const BILLABLE_VAT_PERCENTS = [19, 7, 0] as const;
export const DEFAULT_VAT_PERCENT = 19;
export const paymentMethods = ['BANK_TRANSFER', 'STRIPE_SEPA', 'SEPA', 'STRIPE_CARD', 'NO_PAYMENT_METHOD'] as const;
export type PaymentMethod = (typeof paymentMethods)[number];
/** Operator billing choice in the wizard (spec 1 §3). */
export const operatorBillingTypes = ['SEPA', 'BANK'] as const;
/** Payment preference of an operator (spec 1 §3, spec 3 §3: STRIPE_SEPA also displayed). */
export const operatorPaymentPreferences = ['SEPA', 'BANK_TRANSFER', 'STRIPE_SEPA', 'NO_PAYMENT_METHOD'] as const;
/** The payment methods an ERP value is kept for: the operator's own ones and Stripe's (issue 35). */
export const erpPaymentMethods = ['BANK_TRANSFER', 'STRIPE_SEPA', 'SEPA', 'STRIPE_CARD'] as const;
export type ErpPaymentMethod = (typeof erpPaymentMethods)[number];
/** The payment modes an operator chooses in its wizards (spec 1 §5, spec 3 §4): SEPA and/or BANK_TRANSFER. */
export const operatorPaymentModes = ['SEPA', 'BANK_TRANSFER'] as const satisfies readonly (typeof operatorPaymentPreferences)[number][];
export type OperatorPaymentMode = (typeof operatorPaymentModes)[number];
/** `workFlow` of `PUT /cpos/update-operator-information` (spec 3 §7): the invoice template or the address. */
export const operatorUpdateWorkflows = ['BillingInfo', 'AddressInfo'] as const;
export type OperatorUpdateWorkflow = (typeof operatorUpdateWorkflows)[number];

export const chargingRequestStatuses = [
  'processing',
  'accepted',
  'connected',
  'denied',
  'denied_parking_timer',
  'terminated_not_started',
  'termination_requested',
  'terminated_rejected',
  'broken',
  'charging',
  'paused',
  'terminated_request',
  'finished',
] as const;
export type ChargingRequestStatus = (typeof chargingRequestStatuses)[number];

export const chargingTypes = ['NORMAL', 'AD_HOC'] as const;

export const billStatuses = ['PAID', 'UNPAID', 'GENERATED', 'SENT', 'NOT_APPLICABLE', 'DISPUTE_CREATED', 'DISPUTED'] as const;
export type BillStatus = (typeof billStatuses)[number];

export const emsModels = ['Smart1 EMS', 'CFOS Charging Manager'] as const;
