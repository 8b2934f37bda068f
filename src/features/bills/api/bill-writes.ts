import type { BillRow } from '../../../../contract/bills';
import type { TranslateFn } from '../../../i18n/i18n-context';
import type { OutboxError } from '../../../offline/outbox-write';
import type { NewWrite } from '../../../offline/outbox-write';
import { registerWriteKind } from '../../../offline/write-kinds';
import { billKeys } from './bill-keys';

/**
 * The bills area's outbox writes: sending bills by mail and setting them paid or unpaid, online or
 * not. Registered at start-up (src/write-kinds.ts), so a write replayed after a reload on any screen
 * refreshes the bill lists, and every query that shows bills (`meta.shows`: the users lists and a
 * contract's page) with them.
 */

export const BILL_SEND_WRITE = 'bill.send';
export const BILL_PAYMENT_STATUS_WRITE = 'bill.payment-status';

/**
 * Bill writes go out one after the other, in the users area's scope for bill statuses: a send and
 * a status change of the same bill arrive in the order they were made.
 */
export const BILLING_SCOPE = 'billing-status';

export interface BillWriteRow {
  billNumber: string;
  endCustomerId: string;
  name: string;
}

export interface BillSendData {
  rows: BillWriteRow[];
}

export interface BillStatusData {
  status: 'PAID' | 'UNPAID';
  rows: BillWriteRow[];
}

type BillFacts = Pick<BillRow, 'billNumber' | 'endCustomerId' | 'endCustomerFirstName' | 'endCustomerLastName'>;
const rowOf = (b: BillFacts): BillWriteRow => ({
  billNumber: b.billNumber,
  endCustomerId: b.endCustomerId,
  name: `${b.endCustomerFirstName} ${b.endCustomerLastName}`,
});

/** POST /bookings/send-bill-email: each bill's mail with its PDF; all or none; the bills become SENT. */
export const sendBillsWrite = (bills: readonly BillFacts[]): NewWrite<BillSendData> => ({
  scope: BILLING_SCOPE,
  kind: BILL_SEND_WRITE,
  data: { rows: bills.map(rowOf) },
  request: {
    service: 'bookingService',
    path: '/bookings/send-bill-email',
    method: 'POST',
    body: { billNumbers: bills.map((b) => b.billNumber) },
  },
});

/** PUT /bookings/billing-status-update, one write for the whole selection: the server sets all or none. */
export const billStatusWrite = (bills: readonly BillFacts[], status: 'PAID' | 'UNPAID'): NewWrite<BillStatusData> => ({
  scope: BILLING_SCOPE,
  kind: BILL_PAYMENT_STATUS_WRITE,
  data: { status, rows: bills.map(rowOf) },
  request: {
    service: 'bookingService',
    path: '/bookings/billing-status-update',
    method: 'PUT',
    body: bills.map((b) => ({ billingNumber: b.billNumber, billingStatus: status })),
  },
});

const numbersOf = (detail: unknown, key: 'billNumbers' | 'billingNumbers'): string => {
  const list = (detail as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(list) ? list.map(String).join(', ') : '';
};

/** A refused bill write in the area's words (spec 3 §8): which bills were not there or not GENERATED. */
export function describeBillRefusal(error: Pick<OutboxError, 'code' | 'detail'>, t: TranslateFn): string | null {
  if (error.code === 'BILLS_WITH_GENERATED_STATUS_ERROR')
    return t('bills.writes.notGenerated', { numbers: numbersOf(error.detail, 'billNumbers') });
  if (error.code === 'BILLING_NOT_FOUND')
    return t('bills.writes.notFound', { numbers: numbersOf(error.detail, 'billNumbers') || numbersOf(error.detail, 'billingNumbers') });
  return null;
}

const label = (rows: readonly BillWriteRow[]) =>
  rows.length <= 3 ? rows.map((r) => `${r.billNumber} · ${r.name}`).join(', ') : `${rows[0]!.billNumber} …`;

export function registerBillWrites(): void {
  registerWriteKind<BillSendData>({
    kind: BILL_SEND_WRITE,
    name: (t) => t('bills.writes.send'),
    label: (d, t) => t('bills.writes.billsLabel', { count: d.rows.length, bills: label(d.rows) }),
    refreshes: () => [billKeys.lists()],
    formPath: () => '/rechnungen',
    describeFailure: describeBillRefusal,
  });
  registerWriteKind<BillStatusData>({
    kind: BILL_PAYMENT_STATUS_WRITE,
    name: (t) => t('bills.writes.paymentStatus'),
    label: (d, t) =>
      t('bills.writes.paymentStatusLabel', { count: d.rows.length, bills: label(d.rows), status: t(`users.billingStatus.${d.status}`) }),
    refreshes: () => [billKeys.lists()],
    formPath: () => '/rechnungen',
    describeFailure: describeBillRefusal,
  });
}
