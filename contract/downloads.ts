import * as z from 'zod/mini';
import { isoDateSchema } from './common';
import { chargingTypes } from './enums';

/**
 * The download center's files (spec 3 §2, §7, §8; issue 25): the charging history over many
 * locations, the billing CSV, the ERP XML and the DATEV Buchungsstapel. Every file is streamed;
 * 204 means the range holds nothing, 404 a location or operator outside the caller's.
 */

/**
 * Who may use which tab of the download center, and call its files (spec 3 §6): the charging
 * history everyone signed in; the invoices (the billing CSV) Partner and Operator accounts and
 * admins; the ERP files (ERP XML, DATEV, SEPA) Partner accounts and admins. The screen shows the
 * tabs and the server answers the routes by this one rule.
 */
export const downloadTabCustomerTypes = {
  history: 'everyone',
  invoices: ['Partner', 'Operator'],
  erp: ['Partner'],
} as const satisfies Record<string, 'everyone' | readonly string[]>;
export type DownloadTabName = keyof typeof downloadTabCustomerTypes;

export function mayUseDownloadTab(tab: DownloadTabName, caller: { isAdmin: boolean; customerType: string | null | undefined }) {
  const types: 'everyone' | readonly string[] = downloadTabCustomerTypes[tab];
  return types === 'everyone' || caller.isAdmin || (!!caller.customerType && types.includes(caller.customerType));
}

/** Location ids one export may name; 'all' stands for every location of the caller's operators. */
export const EXPORT_LOCATIONS_MAX = 1000;
export const ALL_LOCATIONS = 'all';

/**
 * `locationIds`: a comma list, or 'all'. Answers the ids, or `'all'`. An empty list is refused:
 * the screen's buttons are disabled without a location (spec 3 §2).
 */
export const locationIdsSchema = z.pipe(
  z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(EXPORT_LOCATIONS_MAX * 40)),
  z.transform((v: string, ctx) => {
    if (v === ALL_LOCATIONS) return ALL_LOCATIONS;
    const ids = [...new Set(v.split(',').map((s) => s.trim()))].filter(Boolean);
    if (ids.length === 0 || ids.length > EXPORT_LOCATIONS_MAX || ids.some((id) => id.length > 100))
      ctx.issues.push({ code: 'custom', message: 'invalidLocationIds', input: v });
    return ids;
  }),
);
export type LocationSelection = string[] | typeof ALL_LOCATIONS;

const rangeCheck = z.superRefine((q: { startDate: string; endDate: string }, ctx) => {
  if (q.endDate < q.startDate) ctx.issues.push({ code: 'custom', message: 'endBeforeStart', input: q, path: ['endDate'] });
});

const rangeFields = { startDate: isoDateSchema, endDate: isoDateSchema };

/**
 * `GET /bookings/charging-history/export` over locations (spec 3 §7: startDate, endDate,
 * locationIds, exportType, chargingType). The users area's per-contract form (`contractKey`) is
 * `historyExportQuerySchema` in `contract/contracts.ts`; the route reads this one when no
 * contractKey is given. Requests started in the range (Berlin days, both included).
 */
export const locationHistoryExportQuerySchema = z
  .object({
    ...rangeFields,
    locationIds: locationIdsSchema,
    exportType: z._default(z.literal('CSV'), 'CSV'),
    chargingType: z._default(z.enum(chargingTypes), 'NORMAL'),
  })
  .check(rangeCheck);
export type LocationHistoryExportQuery = z.input<typeof locationHistoryExportQuerySchema>;

/**
 * `GET /bookings/standard-csv` (spec 3 §7): the bills generated in the range (Berlin days) at the
 * locations; with 'all' also the bills of contracts without a location (local and global admins).
 */
export const standardCsvQuerySchema = z
  .object({ ...rangeFields, locationIds: locationIdsSchema, exportType: z._default(z.literal('CSV'), 'CSV') })
  .check(rangeCheck);
export type StandardCsvQuery = z.input<typeof standardCsvQuerySchema>;

/**
 * The payment methods the ERP tab offers (spec 3 §2), and Stripe's (issue 35: an accountant books
 * all revenue), whose bills are posted against the operator's clearing account.
 */
export const erpExportPaymentMethods = ['SEPA', 'BANK_TRANSFER', 'STRIPE_SEPA', 'STRIPE_CARD'] as const;
/** Collected by a payment provider: the gross goes to the clearing account (Geldtransitkonto), not the debtor. */
export const clearingPaymentMethods = ['STRIPE_SEPA', 'STRIPE_CARD'] as const;
export const isClearingPaymentMethod = (m: string): m is (typeof clearingPaymentMethods)[number] =>
  (clearingPaymentMethods as readonly string[]).includes(m);

/**
 * `GET /bookings/generate/xml` (spec 3 §7) and `GET /bookings/generate/datev`: the bills of one
 * operator generated in the posting range at the locations, paid by the payment method.
 */
export const erpExportQuerySchema = z
  .object({
    ...rangeFields,
    cpoId: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100)),
    locationIds: locationIdsSchema,
    paymentMethod: z.enum(erpExportPaymentMethods),
  })
  .check(rangeCheck);
export type ErpExportQuery = z.input<typeof erpExportQuerySchema>;

/**
 * The codes an ERP or DATEV export answers instead of a file when a value it needs is missing
 * (spec 3 §8), each with `errorDetail` naming what is missing; the screen shows them in its
 * 'missing info' dialog.
 */
export const erpExportErrorCodes = [
  'BILLING_NOT_FOUND',
  'CONTRACT_NOT_FOUND',
  'OPERATOR_NOT_FOUND',
  'ERP_VALUE_NOT_FOUND',
  'ERP_SYSTEM_PARAMETERS_NOT_FOUND',
  'DEBIT_ACCOUNT_NR_MISSING',
  'COST_CENTER_NR_MISSING',
  'VAT_ID_MISSING',
  'CLIENT_NUMBER_MISSING',
  'NET_LEDGER_ACCOUNT_NUMBER_MISSING',
  'ERP_VALUE_INVALID',
  'XML_GENERATION_ERROR',
  'UNKNOWN_ERROR',
] as const;
export type ErpExportErrorCode = (typeof erpExportErrorCodes)[number];

/**
 * `GET /bookings/generate/sepa`: the SEPA direct-debit file (pain.008.001.08) of one operator for
 * one collection date: its GENERATED or SENT bills paid by SEPA (not STRIPE_SEPA) whose collection
 * date is that day. A bill's collection date is the day it was collected, if it has one, else its
 * generation day (Berlin) plus the operator's days until payment (none: the generation day), as
 * the bill's own document says.
 */
export const sepaDebitQuerySchema = z.object({
  cpoId: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100)),
  collectionDate: isoDateSchema,
});
export type SepaDebitQuery = z.input<typeof sepaDebitQuerySchema>;

/** Bills one SEPA file carries at most: the library builds the whole document in memory. */
export const SEPA_FILE_MAX_BILLS = 10_000;

/** The codes the SEPA file answers instead of a file, each with `errorDetail` naming the contracts or the operator. */
export const sepaDebitErrorCodes = [
  'OPERATOR_NOT_FOUND',
  'CONTRACT_NOT_FOUND',
  'SEPA_CREDITOR_ID_MISSING',
  'SEPA_CREDITOR_IBAN_MISSING',
  'SEPA_MANDATE_MISSING',
  'SEPA_MANDATE_REFERENCE_INVALID',
  'SEPA_IBAN_INVALID',
  'SEPA_TOO_MANY_BILLS',
  'XML_GENERATION_ERROR',
] as const;
export type SepaDebitErrorCode = (typeof sepaDebitErrorCodes)[number];

const compact = (isoDay: string) => isoDay.replaceAll('-', '');

/** The files' names (spec 3 §2); `today` is the Berlin day of the download, yyyy-MM-dd. */
export const downloadFileNames = {
  standardCsv: (today: string) => `StandardBills${compact(today)}.csv`,
  erpXml: (today: string) => `ERPDaten_${compact(today)}.xml`,
  /** DATEV's own convention: EXTF_ and the batch's name. */
  datev: (today: string) => `EXTF_Buchungsstapel_${compact(today)}.csv`,
  /** The operator and the collection date, the day the bank is asked to collect on. */
  sepa: (cpoId: string, collectionDate: string) => `SEPA-Lastschriften_${cpoId}_${compact(collectionDate)}.xml`,
};
