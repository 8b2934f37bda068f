import * as z from 'zod/mini';
import { commaListSchema, isoDateSchema, pageQuerySchema, paged } from './common';
import { billStatuses, paymentMethods, userTypes } from './enums';

/**
 * Bills (spec 3 §2, §3, §7, §8; issue 24): the list of an operator's bills, sending them by mail,
 * a zip of their PDFs, regenerating one, and the PDF link. Status changes use the users area's
 * `PUT /bookings/billing-status-update` (`contract/contracts.ts`).
 */

/** Bills one send, zip or status change may name: a page of the largest page size, and then some. */
export const BILLS_PER_ACTION_MAX = 500;

const billNumberSchema = z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100, 'max100'));

/**
 * `GET /bookings/get-bills/operator` (spec 3 §7): the spec sends `startDate` with ' 00:00' and
 * `endDate` with ' 23:59' (Berlin days, both included); a plain yyyy-MM-dd is read the same way.
 * Sorted by generation date, newest first.
 */
const dayWithTime = z.pipe(
  z.string().check(z.trim()),
  z.transform((v: string) => v.replace(/ \d{2}:\d{2}$/, '')),
);
export const billListQuerySchema = z.extend(pageQuerySchema, {
  startDate: z.optional(z.pipe(dayWithTime, isoDateSchema)),
  endDate: z.optional(z.pipe(dayWithTime, isoDateSchema)),
  userTypes: z.pipe(commaListSchema, z.array(z.enum(userTypes))),
  paymentMethods: z.pipe(commaListSchema, z.array(z.enum(paymentMethods))),
  billingStatuses: z.pipe(commaListSchema, z.array(z.enum(billStatuses))),
  endCustomerId: z.optional(z.string().check(z.trim(), z.maxLength(100, 'max100'))),
  /** One contract's bills (a contract's detail: its send-bill button), not another contract's of the same end-customer id. */
  contractKey: z.optional(z.string().check(z.trim(), z.maxLength(100, 'max100'))),
  origin: z.optional(z.string()),
});
export type BillListQuery = z.output<typeof billListQuerySchema>;

/** A row of the list: the spec's Bill (spec 3 §3); amounts as decimal strings of euros ('12.34'). */
export const billRowSchema = z.object({
  billId: z.string(),
  billNumber: z.string(),
  contractKey: z.string(),
  startDate: isoDateSchema,
  endDate: isoDateSchema,
  energyLoaded: z.string(),
  taxedFixCosts: z.string(),
  taxedVarCosts: z.string(),
  totalTaxedCosts: z.string(),
  billingStatus: z.nullable(z.enum(billStatuses)),
  /** ISO timestamps. */
  billGenerationDate: z.string(),
  billCollectionDate: z.nullable(z.string()),
  billDownloadDate: z.nullable(z.string()),
  paymentMethod: z.nullable(z.enum(paymentMethods)),
  stripeSepaPaymentIntentId: z.nullable(z.string()),
  stripeSepaBillPaymentStatus: z.nullable(z.string()),
  monthNumber: z.int(),
  yearNumber: z.int(),
  endCustomerId: z.string(),
  endCustomerFirstName: z.string(),
  endCustomerLastName: z.string(),
  userType: z.enum(userTypes),
});
export type BillRow = z.infer<typeof billRowSchema>;
export const billPageSchema = paged(billRowSchema);
export type BillPage = z.infer<typeof billPageSchema>;

/** The PDF link is offered only for a bill with a status other than NOT_APPLICABLE (spec 3 §2). */
export const billHasPdf = (b: Pick<BillRow, 'billingStatus'>) => b.billingStatus !== null && b.billingStatus !== 'NOT_APPLICABLE';

/** `GET /bookings/pdf/{billNumber}?verificationId={billId}`: both must name the same bill in scope. */
export const billPdfPath = (b: Pick<BillRow, 'billNumber' | 'billId'>) =>
  `/bookings/pdf/${encodeURIComponent(b.billNumber)}?verificationId=${encodeURIComponent(b.billId)}`;
export const billPdfQuerySchema = z.object({ verificationId: z.string().check(z.minLength(1, 'required'), z.maxLength(100, 'max100')) });

const uniqueNumbers = z.refine<string[]>((items) => new Set(items).size === items.length, 'duplicateBill');

/**
 * `POST /bookings/send-bill-email` (spec 3 §7 'list of bills'): every named bill must be GENERATED
 * and in scope, all or none (404 BILLING_NOT_FOUND with errorDetail `{ billNumbers }` for numbers not
 * in scope; 409 BILLS_WITH_GENERATED_STATUS_ERROR with `{ billNumbers }` for those not GENERATED).
 * Each bill's mail, its PDF attached, goes through the mail outbox; the bill becomes SENT.
 */
export const sendBillsBodySchema = z.object({
  billNumbers: z
    .array(billNumberSchema)
    .check(z.minLength(1, 'required'), z.maxLength(BILLS_PER_ACTION_MAX, `max${BILLS_PER_ACTION_MAX}`), uniqueNumbers),
});
export type SendBillsBody = z.input<typeof sendBillsBodySchema>;
export const sendBillsAnswerSchema = z.object({ sent: z.int().check(z.nonnegative()) });

/**
 * `POST /bookings/download-bill` (spec 3 §7): a zip of the named bills' PDFs, streamed, named
 * 'Rechnungen.zip' in Content-Disposition. A number not in scope, or a billId that does not match
 * its number, answers 404 BILLING_NOT_FOUND before any byte of the zip.
 */
export const BILLS_ZIP_NAME = 'Rechnungen.zip';
export const downloadBillsBodySchema = z.object({
  billPdfDtoList: z
    .array(z.object({ billId: z.string().check(z.minLength(1, 'required'), z.maxLength(100, 'max100')), billNumber: billNumberSchema }))
    .check(z.minLength(1, 'required'), z.maxLength(BILLS_PER_ACTION_MAX, `max${BILLS_PER_ACTION_MAX}`)),
});
export type DownloadBillsBody = z.input<typeof downloadBillsBodySchema>;

/**
 * `POST /bookings/regenerate-bills` (spec 3 §2, §8; admins only): exactly one bill, GENERATED, not
 * AD_HOC, recomputed from today's data under its number. No number answers 400
 * NO_INPUT_PROVIDED_ERROR, more than one 400 INVALID_INPUT_ERROR; per bill, an unknown number is
 * unsuccessful with INVALID_INPUT_ERROR, a bill not GENERATED or AD_HOC with
 * BILLS_WITH_GENERATED_STATUS_ERROR, a failed computation with BILLING_UTILITY_ERROR.
 */
export const REGENERATE_MAX = 1;
export const regenerateBillsBodySchema = z.object({ billNumbers: z.array(billNumberSchema) });
export type RegenerateBillsBody = z.input<typeof regenerateBillsBodySchema>;
export const regenerateFailureCodes = ['INVALID_INPUT_ERROR', 'BILLS_WITH_GENERATED_STATUS_ERROR', 'BILLING_UTILITY_ERROR'] as const;
export const regenerateAnswerSchema = z.object({
  successfulBillRegenerations: z.array(z.string()),
  unSuccessfulBillRegenerations: z.array(z.object({ billNumber: z.string(), errorCode: z.enum(regenerateFailureCodes) })),
});
export type RegenerateAnswer = z.infer<typeof regenerateAnswerSchema>;

/** Which selections the actions menu accepts (spec 3 §2), the same rule on both sides. */
export const billSelectionProblem = (
  action: 'send' | 'download' | 'regenerate',
  selected: readonly Pick<BillRow, 'billingStatus' | 'userType'>[],
): 'select' | 'wrongSelection' | null => {
  if (selected.length === 0) return 'select';
  if (selected.length > BILLS_PER_ACTION_MAX) return 'wrongSelection';
  if (action === 'send') return selected.every((b) => b.billingStatus === 'GENERATED') ? null : 'wrongSelection';
  if (action === 'download') return selected.every(billHasPdf) ? null : 'wrongSelection';
  return selected.length === REGENERATE_MAX && selected[0].billingStatus === 'GENERATED' && selected[0].userType !== 'AD_HOC'
    ? null
    : 'wrongSelection';
};

/** A billing period as the run's command takes it: `2026-10`. */
export const billingMonthSchema = z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'yyyy-MM'));

/**
 * Every payment state a STRIPE_SEPA bill's `stripeSepaBillPaymentStatus` can hold (issue 35): the
 * PaymentIntent statuses Stripe answers when the bill is collected (payments/collection.ts) and the
 * states the provider's events set (payments/payment-states.ts). The bills list shows each by its
 * label (`bills.sepa.paymentStates.*`), never Stripe's raw word; one it does not know as 'other'.
 */
export const stripePaymentStates = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'requires_capture',
  'processing',
  'succeeded',
  'payment_failed',
  'canceled',
  'dispute_created',
  'dispute_won',
  'dispute_lost',
] as const;
export type StripePaymentState = (typeof stripePaymentStates)[number];
export const isStripePaymentState = (s: string): s is StripePaymentState => (stripePaymentStates as readonly string[]).includes(s);
