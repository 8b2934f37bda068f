import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { dashboardUsers, passwordResetTokens } from '../db/schema/auth';
import { customers } from '../db/schema/customers';

/** SQL of the user service (sign-in, password reset, password and e-mail change); tokens are in tokens.ts. */

const byEmail = (email: string) => eq(sql`lower(${dashboardUsers.email})`, email.trim().toLowerCase());

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db.select().from(dashboardUsers).where(byEmail(email));
  return row;
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ passwordHash: dashboardUsers.passwordHash }).from(dashboardUsers).where(eq(dashboardUsers.id, userId));
  return row?.passwordHash;
}

/** Another account than `userId` with this e-mail (case-insensitive). */
export async function emailTaken(db: Db, email: string, userId: string): Promise<boolean> {
  const [taken] = await db
    .select({ id: dashboardUsers.id })
    .from(dashboardUsers)
    .where(and(byEmail(email), ne(dashboardUsers.id, userId)));
  return !!taken;
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string, now = new Date()) {
  await db.update(dashboardUsers).set({ passwordHash, updatedAt: now }).where(eq(dashboardUsers.id, userId));
}

export async function setEmail(db: Db, userId: string, email: string) {
  await db.update(dashboardUsers).set({ email, updatedAt: new Date() }).where(eq(dashboardUsers.id, userId));
}

/** A new reset link; the user's older, unused links stop working. */
export async function replaceResetToken(db: Db, userId: string, tokenHash: string, now: Date, expiresAt: Date) {
  await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  await db.insert(passwordResetTokens).values({ id: randomUUID(), userId, tokenHash, createdAt: now, expiresAt });
}

/** Uses up the unused, unexpired reset link with this hash; its user, or undefined. */
export async function consumeResetToken(db: Db, tokenHash: string, now: Date): Promise<string | undefined> {
  const [used] = await db
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, now)))
    .returning({ userId: passwordResetTokens.userId });
  return used?.userId;
}

/**
 * A password set from a link also activates an invited account (customers/handlers.ts): it can
 * sign in from now on. When it is its customer's first account (the one invited with the
 * customer), the customer's invitation counts as accepted: CREATED_UNSIGNED becomes CREATED_SIGNED
 * and the detail page no longer offers to resend it.
 */
export async function activateAccount(db: Db, userId: string, now: Date) {
  const [activated] = await db
    .update(dashboardUsers)
    .set({ verified: true, updatedAt: now })
    .where(and(eq(dashboardUsers.id, userId), eq(dashboardUsers.verified, false)))
    .returning({ customerId: dashboardUsers.customerId });
  if (!activated) return;
  const first = db
    .select({ id: dashboardUsers.id })
    .from(dashboardUsers)
    .where(eq(dashboardUsers.customerId, activated.customerId))
    .orderBy(dashboardUsers.createdAt, dashboardUsers.id)
    .limit(1);
  await db
    .update(customers)
    .set({ contractStatus: 'CREATED_SIGNED' })
    .where(
      and(
        eq(customers.customerId, activated.customerId),
        eq(customers.contractStatus, 'CREATED_UNSIGNED'),
        eq(sql`${userId}`, sql`(${first})`),
      ),
    );
}
