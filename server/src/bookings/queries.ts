import { and, inArray, isNull, ne, or } from 'drizzle-orm';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { bills } from '../db/schema/bookings';

/** The bills with these numbers among the caller's operators', locked until the transaction ends. */
export async function lockBills(db: Db, scope: Scope, billNumbers: string[]) {
  return db
    .select({ billNumber: bills.billNumber, billingStatus: bills.billingStatus })
    .from(bills)
    .where(and(inArray(bills.billNumber, billNumbers), scope.where(bills.cpoId)))
    .for('update');
}

/** Sets the status of the bills that do not have it yet; answers how many changed. */
export async function setBillingStatus(db: Db, billNumbers: string[], status: 'PAID' | 'UNPAID'): Promise<number> {
  if (billNumbers.length === 0) return 0;
  const changed = await db
    .update(bills)
    .set({ billingStatus: status })
    .where(and(inArray(bills.billNumber, billNumbers), or(isNull(bills.billingStatus), ne(bills.billingStatus, status))))
    .returning({ billNumber: bills.billNumber });
  return changed.length;
}
