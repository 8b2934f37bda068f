import type { BillStatus } from '../../../contract/enums';

/** The two statuses a user sets by hand (spec 2 §4 payment status). */
export type PaymentStatus = 'PAID' | 'UNPAID';

/** A row the payment-status change works on: a user with its newest bill (/nutzer) or a bill (/rechnungen). */
export interface PaymentRow {
  id: string;
  billNumber: string | null;
  billingStatus: BillStatus | null;
  endCustomerId: string;
  name: string;
}

/**
 * What setting `status` on the selected rows does (spec 2 §2, §4): the rows with a bill that would
 * change, the rows without a bill (the no-invoice warning; nothing is sent for them), and whether
 * nothing changes at all ('Feld nicht geändert': the wizard does not go on).
 */
export function paymentStatusChange<R extends PaymentRow>(selected: readonly R[], status: PaymentStatus | null) {
  const withoutBill = selected.filter((r) => !r.billNumber);
  const changing = status === null ? [] : selected.filter((r) => r.billNumber && r.billingStatus !== status);
  return { changing, withoutBill, unchanged: status !== null && changing.length === 0 };
}
