import * as z from 'zod/mini';
import { isoDateSchema } from './common';

/**
 * A contract's bills and charging history on the booking service (`/booking-service`, spec 2 §2,
 * §4, §7): the payment-status change of the user list and the history export of the user page.
 */

/** The payment statuses a user sets (spec 2 §4): Bezahlt / Offen. */
export const settableBillingStatuses = ['PAID', 'UNPAID'] as const;
export const BILLING_STATUS_UPDATE_MAX = 1000;

/**
 * `PUT /bookings/billing-status-update` (spec 2 §2, spec 3 §7): every named bill gets its status,
 * all or none. A bill number outside the caller's operators answers 404 BILLING_NOT_FOUND with
 * errorDetail `{ billingNumbers }`; the answer counts the bills whose status changed.
 */
export const billingStatusUpdateBodySchema = z
  .array(
    z.object({
      billingNumber: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100, 'max100')),
      billingStatus: z.enum(settableBillingStatuses),
    }),
  )
  .check(
    z.minLength(1, 'required'),
    z.maxLength(BILLING_STATUS_UPDATE_MAX, `max${BILLING_STATUS_UPDATE_MAX}`),
    z.refine((items) => new Set(items.map((i) => i.billingNumber)).size === items.length, 'duplicateBill'),
  );
export type BillingStatusUpdateBody = z.input<typeof billingStatusUpdateBodySchema>;
export const billingStatusUpdateAnswerSchema = z.object({ updated: z.int().check(z.nonnegative()) });

/**
 * `GET /bookings/charging-history/export?startDate&endDate&contractKey&format=CSV` (spec 2 §7): the
 * contract's charging history of the range as a CSV file for German Excel, streamed; 204 when the
 * range has none, 404 CONTRACT_NOT_FOUND for a contract outside the caller's operators.
 */
export const historyExportQuerySchema = z
  .object({
    contractKey: z.string().check(z.trim(), z.minLength(1, 'required'), z.maxLength(100)),
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    format: z._default(z.literal('CSV'), 'CSV'),
  })
  .check(
    z.superRefine((q, ctx) => {
      if (q.endDate < q.startDate) ctx.issues.push({ code: 'custom', message: 'endBeforeStart', input: q, path: ['endDate'] });
    }),
  );
export type HistoryExportQuery = z.input<typeof historyExportQuerySchema>;
/** The file's name (spec 2 §7: 'Ladehistorie' plus the date). */
export const historyExportFileName = (today: string) => `Ladehistorie_${today.split('-').reverse().join('.')}.csv`;
