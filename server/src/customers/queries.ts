import { randomUUID } from 'node:crypto';
import { asc, count, desc, eq, sql } from 'drizzle-orm';
import { OPERATOR_ROLE } from '../../../contract/common';
import type { CustomerDetail, CustomerListRow, DashboardUserRow } from '../../../contract/customers';
import type { Db } from '../db/client';
import { dashboardUsers } from '../db/schema/auth';
import { customers } from '../db/schema/customers';
import { qualified } from '../db/sql-helpers';

/** SQL of customer management (spec 3 §7): customers and their dashboard users. Admins only: no scope. */

/**
 * The password hash of an account that was invited and has not set a password yet. Not a hash
 * `verifyPassword` can ever accept (its scheme is not scrypt), so nothing signs in with it; the
 * account is also `verified = false` until the invitation link is used (auth/queries.ts
 * `activateAccount`).
 */
export const INVITED_PASSWORD_HASH = '!invited';

/** The customer's first dashboard user: the one invited with the customer, whom a resend invites again. */
const firstUserOfRow = sql`(select u.id from ${dashboardUsers} u where u.customer_id = ${qualified(customers.customerId)} order by u.created_at, u.id limit 1)`;

export async function listCustomers(db: Db, page: number, size: number): Promise<{ total: number; rows: CustomerListRow[] }> {
  const total = db.select({ n: count() }).from(customers);
  const rows = await db
    .select({
      customerId: customers.customerId,
      companyName: customers.companyName,
      customerType: customers.customerType,
      firstName: dashboardUsers.firstName,
      lastName: dashboardUsers.lastName,
      listTotal: sql<number>`(${total})`.mapWith(Number),
    })
    .from(customers)
    .leftJoin(dashboardUsers, eq(dashboardUsers.id, firstUserOfRow))
    // Newest first: the customer just created is on the first page.
    .orderBy(desc(customers.createdAt), asc(customers.customerId))
    .limit(size)
    .offset(page * size);
  return { total: rows.length ? rows[0].listTotal : (await total)[0].n, rows: rows.map(({ listTotal: _t, ...r }) => r) };
}

/** A customer by its id, compared without case (K10001 and k10001 are one customer number). */
export async function findCustomerById(db: Db, customerId: string) {
  const [row] = await db
    .select()
    .from(customers)
    .where(eq(sql`lower(${customers.customerId})`, customerId.toLowerCase()));
  return row;
}

export async function findCustomerByContractKey(db: Db, contractKey: string) {
  const [row] = await db.select().from(customers).where(eq(customers.contractKey, contractKey));
  return row;
}

export function customerDetail(row: typeof customers.$inferSelect): CustomerDetail {
  return {
    customerId: row.customerId,
    companyName: row.companyName,
    customerType: row.customerType,
    address: {
      careOf: row.careOf,
      street: [row.street, row.houseNumber].filter(Boolean).join(' '),
      zipCode: row.zipCode,
      city: row.city,
    },
    contractKey: row.contractKey,
    contractStatus: row.contractStatus,
    createManualEndCustomerId: row.createManualEndCustomerId,
  };
}

export async function listDashboardUsers(
  db: Db,
  customerId: string,
  page: number,
  size: number,
): Promise<{ total: number; rows: DashboardUserRow[] }> {
  const where = eq(dashboardUsers.customerId, customerId);
  const total = db.select({ n: count() }).from(dashboardUsers).where(where);
  const rows = await db
    .select({
      id: dashboardUsers.id,
      firstName: dashboardUsers.firstName,
      lastName: dashboardUsers.lastName,
      email: dashboardUsers.email,
      role: dashboardUsers.role,
      activated: dashboardUsers.verified,
      listTotal: sql<number>`(${total})`.mapWith(Number),
    })
    .from(dashboardUsers)
    .where(where)
    .orderBy(asc(dashboardUsers.createdAt), asc(dashboardUsers.id))
    .limit(size)
    .offset(page * size);
  return { total: rows.length ? rows[0].listTotal : (await total)[0].n, rows: rows.map(({ listTotal: _t, ...r }) => r) };
}

export async function insertCustomer(db: Db, row: typeof customers.$inferInsert) {
  await db.insert(customers).values(row);
}

/** A dashboard account that cannot sign in until its invitation link is used. */
export async function insertInvitedUser(
  db: Db,
  user: { customerId: string; firstName: string; lastName: string; email: string; role: string; productPackage: string },
  now: Date,
): Promise<string> {
  const id = randomUUID();
  await db.insert(dashboardUsers).values({
    id,
    ...user,
    passwordHash: INVITED_PASSWORD_HASH,
    verified: false,
    isAdmin: false,
    roles: [OPERATOR_ROLE],
    // Operator-type accounts see their customer's first operator until one is bound (auth/scope.ts).
    operatorId: null,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

export async function findFirstUser(db: Db, customerId: string) {
  const [row] = await db
    .select()
    .from(dashboardUsers)
    .where(eq(dashboardUsers.customerId, customerId))
    .orderBy(asc(dashboardUsers.createdAt), asc(dashboardUsers.id))
    .limit(1);
  return row;
}
