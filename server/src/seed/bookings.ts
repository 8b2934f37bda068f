import type { BillStatus } from '../../../contract/enums';
import type { bills } from '../db/schema/bookings';
import type { contracts } from '../db/schema/contracts';
import type { MonthlyUse } from './cockpit';
import { DAY, isoDate, round2, type SeedContext } from './common';

/** Monthly bills of the billed contracts, over `billMonths`. */
export function drawBills(
  ctx: SeedContext,
  contractRows: (typeof contracts.$inferInsert)[],
  monthly: MonthlyUse,
): (typeof bills.$inferInsert)[] {
  const { rnd, now, spec } = ctx;
  const billRows: (typeof bills.$inferInsert)[] = [];
  const forcedBills: BillStatus[] = ['PAID', 'UNPAID', 'GENERATED', 'SENT', 'NOT_APPLICABLE', 'DISPUTE_CREATED', 'DISPUTED'];
  for (let m = spec.billMonths; m >= 1; m--) {
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1));
    const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m + 1, 0));
    const generated = new Date(Date.UTC(monthEnd.getUTCFullYear(), monthEnd.getUTCMonth() + 1, 3, 6));
    for (const c of contractRows) {
      if (c.billingType !== 'WITH_BILLING' || c.userType === 'GLOBAL_ADMIN') continue;
      if (!['ACTIVE', 'BLOCKED', 'EXPIRED'].includes(c.contractStatus)) continue;
      if (c.startDate! > isoDate(monthEnd) || (c.endDate && c.endDate < isoDate(monthStart))) continue;
      const agg = monthly.get(`${c.contractKey}|${monthStart.getUTCFullYear()}-${monthStart.getUTCMonth()}`);
      const fix = round2(Number(c.fixTariff ?? 0) * 1.19);
      const varCost = round2(agg?.cost ?? 0);
      const seq = billRows.length;
      let status: BillStatus;
      if (seq < forcedBills.length) status = forcedBills[seq];
      else if (fix + varCost === 0) status = 'NOT_APPLICABLE';
      else if (m === 1) status = rnd.weighted<BillStatus>({ GENERATED: 30, SENT: 30, UNPAID: 25, PAID: 15 });
      else status = rnd.weighted<BillStatus>({ PAID: 85, UNPAID: 8, DISPUTE_CREATED: 3, DISPUTED: 3, SENT: 1 });
      const stripe = c.paymentMethod === 'STRIPE_SEPA';
      const collected = status === 'PAID' && (stripe || c.paymentMethod === 'SEPA');
      billRows.push({
        billId: rnd.uuid(),
        billNumber: `RE-${monthStart.getUTCFullYear()}${String(monthStart.getUTCMonth() + 1).padStart(2, '0')}-${String(seq + 1).padStart(6, '0')}`,
        contractKey: c.contractKey,
        cpoId: c.cpoId,
        locationId: c.locationId ?? null,
        endCustomerId: c.endCustomerId,
        endCustomerFirstName: c.firstName,
        endCustomerLastName: c.lastName,
        userType: c.userType,
        startDate: isoDate(monthStart),
        endDate: isoDate(monthEnd),
        energyLoaded: (agg?.energy ?? 0).toFixed(3),
        taxedFixCosts: fix.toFixed(2),
        taxedVarCosts: varCost.toFixed(2),
        totalTaxedCosts: round2(fix + varCost).toFixed(2),
        billingStatus: status,
        billGenerationDate: generated,
        billCollectionDate: collected ? new Date(generated.getTime() + 14 * DAY) : null,
        billDownloadDate: rnd.chance(0.3) ? new Date(generated.getTime() + rnd.int(1, 20) * DAY) : null,
        paymentMethod: c.paymentMethod,
        stripeSepaPaymentIntentId: stripe && status !== 'GENERATED' ? `pi_${rnd.hex(24)}` : null,
        stripeSepaBillPaymentStatus: stripe
          ? status === 'PAID'
            ? 'succeeded'
            : status === 'SENT'
              ? 'processing'
              : status === 'GENERATED'
                ? null
                : 'requires_payment_method'
          : null,
        monthNumber: monthStart.getUTCMonth() + 1,
        yearNumber: monthStart.getUTCFullYear(),
      });
    }
  }
  return billRows;
}
