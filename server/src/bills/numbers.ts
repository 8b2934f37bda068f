import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billNumberCounters } from '../db/schema/bookings';

/**
 * Bill numbers, without gaps per operator and year (issue 24): `RE-{year}-{cpoId}-{000001}`, or
 * `{billNumberPrefix}{year}-{000001}` when the operator has its own prefix. The counter row is
 * raised with an upsert, which locks it until the transaction ends: a second biller of the same
 * operator and year waits there, and a bill that fails rolls its number back with it.
 */
export function formatBillNumber(cpoId: string, prefix: string | null, year: number, n: number): string {
  const serial = String(n).padStart(6, '0');
  return prefix && prefix.trim() !== '' ? `${prefix.trim()}${year}-${serial}` : `RE-${year}-${cpoId}-${serial}`;
}

/** The next `count` numbers of the operator's year, taken in the caller's transaction. */
export async function takeBillNumbers(db: Db, cpoId: string, year: number, count: number): Promise<number[]> {
  if (count < 1) return [];
  const [row] = await db
    .insert(billNumberCounters)
    .values({ cpoId, year, lastNumber: count })
    .onConflictDoUpdate({
      target: [billNumberCounters.cpoId, billNumberCounters.year],
      set: { lastNumber: sql`${billNumberCounters.lastNumber} + ${count}` },
    })
    .returning({ last: billNumberCounters.lastNumber });
  return Array.from({ length: count }, (_, i) => row.last - count + 1 + i);
}
