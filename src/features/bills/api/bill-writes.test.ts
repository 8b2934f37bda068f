import { describe, expect, it } from 'vitest';
import type { TranslateFn } from '../../../i18n/i18n-context';
import {
  BILLING_SCOPE,
  BILL_PAYMENT_STATUS_WRITE,
  BILL_SEND_WRITE,
  billStatusWrite,
  describeBillRefusal,
  sendBillsWrite,
} from './bill-writes';

const bill = (n: string) => ({ billNumber: n, endCustomerId: `K-${n}`, endCustomerFirstName: 'Erika', endCustomerLastName: 'Muster' });
const t: TranslateFn = (id, values) => `${id}${values ? ` ${JSON.stringify(values)}` : ''}`;

describe('bill writes', () => {
  it('sends the selected bills in one all-or-none write, in the scope of bill statuses', () => {
    const w = sendBillsWrite([bill('R-1'), bill('R-2')]);
    expect(w).toMatchObject({
      scope: BILLING_SCOPE,
      kind: BILL_SEND_WRITE,
      request: { service: 'bookingService', path: '/bookings/send-bill-email', method: 'POST', body: { billNumbers: ['R-1', 'R-2'] } },
    });
    expect(w.data.rows[0]).toEqual({ billNumber: 'R-1', endCustomerId: 'K-R-1', name: 'Erika Muster' });
  });

  it("sets paid or unpaid with the users list's call", () => {
    expect(billStatusWrite([bill('R-1')], 'PAID')).toMatchObject({
      scope: BILLING_SCOPE,
      kind: BILL_PAYMENT_STATUS_WRITE,
      request: { path: '/bookings/billing-status-update', method: 'PUT', body: [{ billingNumber: 'R-1', billingStatus: 'PAID' }] },
    });
  });

  it('names the bills a refusal is about', () => {
    expect(describeBillRefusal({ code: 'BILLS_WITH_GENERATED_STATUS_ERROR', detail: { billNumbers: ['R-1', 'R-2'] } }, t)).toBe(
      'bills.writes.notGenerated {"numbers":"R-1, R-2"}',
    );
    expect(describeBillRefusal({ code: 'BILLING_NOT_FOUND', detail: { billingNumbers: ['R-9'] } }, t)).toBe(
      'bills.writes.notFound {"numbers":"R-9"}',
    );
    expect(describeBillRefusal({ code: 'CONFLICT', detail: undefined }, t)).toBeNull();
  });
});
