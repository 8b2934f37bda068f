import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { contracts, contractTariffs, pendingTariffChanges } from '../db/schema/contracts';

/**
 * A contract's tariff history (issue 24): the prices from each date on, which the bill run reads,
 * and the tariff changes still to come, applied on their day.
 */

/** The tariff change still to come (not yet applied), if any. */
export async function pendingTariffChange(db: Db, contractKey: string) {
  const [row] = await db
    .select()
    .from(pendingTariffChanges)
    .where(and(eq(pendingTariffChanges.contractKey, contractKey), isNull(pendingTariffChanges.appliedAt)))
    .orderBy(desc(pendingTariffChanges.id))
    .limit(1);
  return row;
}

/**
 * Drops the tariff changes still to come: a terminated contract has no future tariff (issue 23).
 * Applied ones stay, as the contract's history.
 */
export async function dropPendingTariffChanges(db: Db, contractKey: string): Promise<void> {
  await db
    .delete(pendingTariffChanges)
    .where(and(eq(pendingTariffChanges.contractKey, contractKey), isNull(pendingTariffChanges.appliedAt)));
}

export async function insertPendingTariffChange(db: Db, row: typeof pendingTariffChanges.$inferInsert): Promise<void> {
  await db.insert(pendingTariffChanges).values(row);
}

/** A contract's four prices; null (no billing) is stored as 0. */
export type TariffValues = {
  [K in 'fixTariff' | 'varTariff' | 'onboardingFee' | 'fixTariffPerChargingRequest']: string | null | undefined;
};

/** The contract's prices from `validFrom` on, in its tariff history (the bill run reads it, issue 24). */
export async function putTariffFrom(db: Db, contractKey: string, validFrom: string, t: TariffValues): Promise<void> {
  const values = {
    fixTariff: t.fixTariff ?? '0',
    varTariff: t.varTariff ?? '0',
    onboardingFee: t.onboardingFee ?? '0',
    fixTariffPerChargingRequest: t.fixTariffPerChargingRequest ?? '0',
  };
  await db
    .insert(contractTariffs)
    .values({ contractKey, validFrom, ...values })
    .onConflictDoUpdate({ target: [contractTariffs.contractKey, contractTariffs.validFrom], set: values });
}

/**
 * The tariff history of a contract not yet ACTIVE: only the tariff it will start with, from its
 * start date. Such a contract cannot have had a tariff change (spec 2 §4), so nothing else is lost.
 */
export async function resetTariffHistory(db: Db, contractKey: string, startDate: string, t: TariffValues): Promise<void> {
  await db.delete(contractTariffs).where(eq(contractTariffs.contractKey, contractKey));
  await putTariffFrom(db, contractKey, startDate, t);
}

/**
 * Puts the tariff changes whose day has come into their contracts (spec 2 §4: the pending change
 * shows until it takes effect). Run at start and hourly by every instance: a change is taken by
 * one of them (`skip locked`) and applied once; each moves its contract's version on and enters
 * the tariff history at its date in the same transaction.
 */
export async function applyDueTariffChanges(db: Db, today: string, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(pendingTariffChanges)
      .where(and(isNull(pendingTariffChanges.appliedAt), lte(pendingTariffChanges.newTariffDate, today)))
      .for('update', { skipLocked: true });
    for (const p of due) {
      await tx
        .update(contracts)
        .set({
          fixTariff: p.fixTariff,
          varTariff: p.varTariff,
          onboardingFee: p.onboardingFee,
          fixTariffPerChargingRequest: p.fixTariffPerChargingRequest,
          updatedAt: now,
          version: sql`${contracts.version} + 1`,
        })
        .where(eq(contracts.contractKey, p.contractKey));
      await tx.update(pendingTariffChanges).set({ appliedAt: now }).where(eq(pendingTariffChanges.id, p.id));
      await putTariffFrom(tx, p.contractKey, p.newTariffDate, p);
    }
    return due.length;
  });
}
