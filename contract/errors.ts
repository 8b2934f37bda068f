import * as z from 'zod/mini';

/**
 * Error codes of the spec's catalogues (spec 1 §8, spec 2 §8, spec 3 §8) plus the few the
 * server needs for itself (validation, auth, idempotency). Every non-2xx answer carries one.
 */
export const errorCodes = [
  // generic
  'VALIDATION_ERROR',
  'NOT_FOUND',
  'FORBIDDEN',
  'UNAUTHORIZED',
  'TOKEN_INVALID',
  'TOKEN_EXPIRED',
  'INTERNAL_ERROR',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_FILE_TYPE',
  /** An upload whose parsing exceeded its time or memory limit (a crafted file). */
  'UPLOAD_NOT_READABLE',
  /** A PDF with JavaScript or launch actions. */
  'UPLOAD_ACTIVE_CONTENT',
  /** An image whose declared width × height exceeds UPLOAD_MAX_PIXELS (a decompression bomb). */
  'IMAGE_TOO_LARGE',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_PROGRESS',
  'PRECONDITION_FAILED',
  'CONFLICT',
  // sign-in, password, e-mail
  'USER_NOT_FOUND',
  'USER_NOT_VERIFIED',
  /** A change of password whose current password is wrong (not 401: the session itself is fine). */
  'WRONG_CURRENT_PASSWORD',
  'WEAK_PASSWORD',
  'DUPLICATED_EMAIL',
  'SAME_EMAIL',
  'USER_ALREADY_REGISTERED',
  'CUSTOMER_ALREADY_PRESENT_WITH_CUSTOMER_ID',
  // operators, locations, stations
  'OPERATOR_NOT_FOUND',
  /** An operator's own bill-number prefix another operator has already (case-insensitive); `errorDetail.billNumberPrefix` names it. */
  'BILL_NUMBER_PREFIX_TAKEN',
  /** A customer outside the caller's own (or, for an admin, one that does not exist), e.g. as a new operator's owner. */
  'CUSTOMER_NOT_FOUND',
  'LOCATION_NOT_FOUND',
  'CONNECTOR_NOT_FOUND',
  'CONNECTOR_INACTIVE',
  'CONNECTOR_IN_OPERATION',
  'CONNECTOR_STATUS_NOT_CHANGEABLE',
  'DATA_INCONSISTENCY',
  // operations sent to a charge point (contract/ocpp.ts)
  'STATION_UNAVAILABLE',
  'STATION_NOT_CONNECTED',
  'STATION_NO_ANSWER',
  'STATION_CALL_FAILED',
  'CSV_SEPARATOR_NOT_SUPPORTED',
  'ERROR_PARSING_CSV_FILE',
  'ERROR_PARSING_XLS_FILE',
  'ERROR_PARSING_XLSX_FILE',
  'PARKINGLOT_EXISTS',
  'FILE_INVALID_LOCATION',
  'FILE_DUPLICATED_PARKINGLOT',
  'FILE_INVALID_ABBREVIATION',
  'FILE_DUPLICATED_CPIDS',
  'FILE_INVALID_LENGTH_PARKINGLOT',
  'FILE_INVALID_EMPTY_LOCATION_NOT_EMPTY_PARKINGlOT',
  'WALLBOX_INVALID_NUMBER_CONNECTORS',
  // contracts and RFID
  'ERR_RFID_ID_EXISTS',
  'ERR_RFID_SERIAL_NOT_EXISTS',
  'DB_CLIENT_ERROR',
  'DUPLICATED_END_CUSTOMER_ID',
  /** A contract names a parking lot its location does not have (any more); `errorDetail.parkingLots` names them. */
  'UNKNOWN_PARKING_LOT',
  'CONTRACT_NOT_FOUND',
  'PAYMENT_METHOD_DATA_INCONSISTENCY',
  'CONTRACT_STATUS_DATA_INCONSISTENCY',
  'STRIPE_SEPA_NOT_CONFIGURED',
  'TOO_MANY_REQUESTS',
  // payments (issue 26)
  /** A payment provider's webhook whose signature is missing, forged or too old: nothing was applied. */
  'WEBHOOK_SIGNATURE_INVALID',
  /** Stripe could not be reached or answered unexpectedly (503): nothing was changed, the request may be tried again. */
  'PAYMENT_PROVIDER_UNAVAILABLE',
  /** A test-mode checkout link that does not exist, or was completed already. */
  'CHECKOUT_NOT_FOUND',
  /**
   * A provider event for a payment intent made for one of our bills (its metadata names the bill)
   * that the bill does not hold yet (409): nothing was recorded, so the provider delivers it again.
   */
  'PAYMENT_EVENT_TOO_EARLY',
  // bills, ERP
  'NO_INPUT_PROVIDED_ERROR',
  'INVALID_INPUT_ERROR',
  'BILLS_WITH_GENERATED_STATUS_ERROR',
  'BILLING_UTILITY_ERROR',
  'BILLING_NOT_FOUND',
  'ERP_VALUE_NOT_FOUND',
  'ERP_SYSTEM_PARAMETERS_NOT_FOUND',
  'DEBIT_ACCOUNT_NR_MISSING',
  'COST_CENTER_NR_MISSING',
  'VAT_ID_MISSING',
  'CLIENT_NUMBER_MISSING',
  'NET_LEDGER_ACCOUNT_NUMBER_MISSING',
  /**
   * An ERP or DATEV export's value is there but not what the file allows (a ledger account not of
   * 4 to 8 digits, a debit account not of up to 9, a name too long): errorDetail `invalid` names it,
   * with `expected` and the operator or the end customers (issue 25).
   */
  'ERP_VALUE_INVALID',
  'XML_GENERATION_ERROR',
  'UNKNOWN_ERROR',
  // the SEPA direct-debit file (contract/downloads.ts, sepaDebitErrorCodes); errorDetail names what is missing
  /** The operator (the creditor) has no valid SEPA creditor identifier. */
  'SEPA_CREDITOR_ID_MISSING',
  /** The operator has no valid IBAN to collect to. */
  'SEPA_CREDITOR_IBAN_MISSING',
  /** Contracts of the date's bills without a mandate reference or mandate date. */
  'SEPA_MANDATE_MISSING',
  /** Contracts whose mandate reference holds characters outside the SEPA set, or more than 35. */
  'SEPA_MANDATE_REFERENCE_INVALID',
  /** Contracts whose IBAN fails its structure or check digits. */
  'SEPA_IBAN_INVALID',
  /** More bills on the date than one file carries (SEPA_FILE_MAX_BILLS). */
  'SEPA_TOO_MANY_BILLS',
  /**
   * An operator's payment details without a valid creditor id while contracts of it pay by SEPA
   * direct debit (issue 35): errorDetail `contractNumbers` (first 20) and `count` name them.
   */
  'SEPA_CREDITOR_ID_REQUIRED',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const fieldIssueSchema = z.object({
  path: z.string(),
  message: z.string(),
});

/** Body of every error answer. `errorCodeResponse` is a string so that unknown codes from another backend still parse. */
export const errorBodySchema = z.object({
  errorCodeResponse: z.string(),
  errorMessage: z._default(z.optional(z.string()), ''),
  errorDetail: z.optional(z.unknown()),
  issues: z.optional(z.array(fieldIssueSchema)),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
