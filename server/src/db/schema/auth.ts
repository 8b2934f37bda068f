import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsz } from './columns';
import { customers } from './customers';
import { operators } from './operators';

/** Dashboard accounts and their sessions: refresh-token families and password-reset links. */

export const dashboardUsers = pgTable(
  'dashboard_users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** Free text (spec 3 §6), shown as role_company. */
    role: text('role').notNull(),
    customerId: text('customer_id')
      .notNull()
      .references(() => customers.customerId),
    /** Only for Operator-type customers: the one operator the account is bound to. */
    operatorId: text('operator_id').references(() => operators.cpoId),
    isAdmin: boolean('is_admin').notNull().default(false),
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    verified: boolean('verified').notNull().default(true),
    productPackage: text('product_package'),
    createdAt: tsz('created_at').notNull().defaultNow(),
    updatedAt: tsz('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dashboard_users_email_lower_uq').on(sql`lower(${t.email})`), index('dashboard_users_customer_idx').on(t.customerId)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: 'cascade' }),
    /** sha256 of the opaque token: a database leak yields no usable tokens. */
    tokenHash: text('token_hash').notNull().unique(),
    /** All tokens rotated from one login share a family; reuse of a revoked one kills the family. */
    familyId: text('family_id').notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    expiresAt: tsz('expires_at').notNull(),
    revokedAt: tsz('revoked_at'),
    /**
     * Set when the token was rotated (not when it was revoked): the pair that replaced it, encrypted
     * with a key derived from JWT_SECRET, so a refresh whose answer was lost can be answered again
     * with the same pair within the grace period instead of revoking the family.
     */
    successor: text('successor'),
  },
  (t) => [index('refresh_tokens_user_idx').on(t.userId), index('refresh_tokens_family_idx').on(t.familyId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => dashboardUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: tsz('created_at').notNull().defaultNow(),
    expiresAt: tsz('expires_at').notNull(),
    usedAt: tsz('used_at'),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);
