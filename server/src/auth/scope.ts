import { eq, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, dashboardUsers, operators, refreshTokens } from '../db/schema';

export interface Scope {
  /** 'all' for platform admins, otherwise the operator ids the caller may see. */
  operatorIds: string[] | 'all';
  canSeeOperator(cpoId: string): boolean;
  /** A WHERE condition restricting `column` (an operator id column) to the scope; undefined means no restriction. */
  where(column: Column | SQL): SQL | undefined;
}

export interface AuthUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  customerId: string;
  customerType: 'Operator' | 'Partner';
  operatorId: string | null;
  isAdmin: boolean;
}

export interface AuthContext {
  user: AuthUser;
  scope: Scope;
  isAdmin: boolean;
  /** Refresh-token family of the session that minted the access token (claim `sid`). */
  sessionFamilyId?: string;
}

export function makeScope(operatorIds: string[] | 'all'): Scope {
  const set = operatorIds === 'all' ? undefined : new Set(operatorIds);
  return {
    operatorIds,
    canSeeOperator: (cpoId) => (set ? set.has(cpoId) : true),
    where: (column) => {
      if (!set) return undefined;
      if (set.size === 0) return sql`false`;
      return inArray(column as Column, [...set]);
    },
  };
}

const authUserColumns = {
  id: dashboardUsers.id,
  email: dashboardUsers.email,
  firstName: dashboardUsers.firstName,
  lastName: dashboardUsers.lastName,
  role: dashboardUsers.role,
  customerId: dashboardUsers.customerId,
  customerType: customers.customerType,
  operatorId: dashboardUsers.operatorId,
  isAdmin: dashboardUsers.isAdmin,
  verified: dashboardUsers.verified,
};

/**
 * The caller as `loadSessionCaller` reads it, for the user and session (refresh-token family) in
 * `userId` and `familyId`: its columns, whether the session is alive, the customer's operators,
 * and `print`, all of them as the text of one row, by which a statement can check in passing that
 * the caller is still the one a request assumed (`callerGuard`; the text itself, not a hash of it,
 * so equal means the same caller without any doubt of a collision).
 */
function sessionCallerParts(userId: SQL, familyId: SQL) {
  const live = sql`exists(select 1 from ${refreshTokens} where ${refreshTokens.familyId} = ${familyId} and ${refreshTokens.userId} = ${userId}
    and ${refreshTokens.revokedAt} is null and ${refreshTokens.expiresAt} > now())`;
  // The customer's operators in cpo_id order; which of them the caller sees is decided in `loadSessionCaller`.
  const customerOperatorIds = sql`array(select o.cpo_id from ${operators} o where o.customer_id = ${dashboardUsers.customerId} order by o.cpo_id)`;
  const print = sql`row(${sql.join(Object.values(authUserColumns), sql`, `)}, ${live}, ${customerOperatorIds})::text`;
  return { live, customerOperatorIds, print, where: eq(dashboardUsers.id, userId) };
}

/**
 * The statement behind `loadSessionCaller`, built once per database handle: drizzle then only
 * fills in the two values per request (building it cost ~100 µs of the event loop), and on
 * PostgreSQL it is a named prepared statement, planned once per connection.
 */
function sessionCallerStatement(db: Db) {
  const parts = sessionCallerParts(sql`${sql.placeholder('userId')}`, sql`${sql.placeholder('familyId')}`);
  return db
    .select({
      ...authUserColumns,
      sessionAlive: sql<boolean>`${parts.live}`,
      customerOperatorIds: sql<string[]>`${parts.customerOperatorIds}`,
      print: sql<string>`${parts.print}`,
    })
    .from(dashboardUsers)
    .innerJoin(customers, eq(customers.customerId, dashboardUsers.customerId))
    .where(parts.where)
    .prepare('session_caller');
}

const sessionCallerStatements = new WeakMap<Db, ReturnType<typeof sessionCallerStatement>>();

export type SessionCaller = AuthUser & { verified: boolean; sessionAlive: boolean; scope: Scope; print: string };

/**
 * Everything `requireAuth` needs in one statement: the caller, whether its session (refresh-token
 * family `sid`) is alive, and the operator ids it may see, by the same rules as `ownOperatorIds`
 * (admins: all). Loaded per request (see `requireAuth` and `readAsCaller`).
 */
export async function loadSessionCaller(db: Db, userId: string, familyId: string): Promise<SessionCaller | undefined> {
  let statement = sessionCallerStatements.get(db);
  if (!statement) sessionCallerStatements.set(db, (statement = sessionCallerStatement(db)));
  const [row] = await statement.execute({ userId, familyId });
  if (!row) return undefined;
  const { customerOperatorIds, ...user } = row;
  if (user.isAdmin) return { ...user, scope: makeScope('all') };
  // ownOperatorIds' rules: a bound Operator-type account sees its operator, an unbound one the
  // first of its customer's, a Partner all of its customer's.
  const operatorIds =
    user.customerType !== 'Operator' ? customerOperatorIds : user.operatorId ? [user.operatorId] : customerOperatorIds.slice(0, 1);
  return { ...user, scope: makeScope(operatorIds) };
}

/**
 * A read that assumes who its caller is (`readAsCaller` in middleware.ts) and checks it in its own
 * statement: `values` fill `callerGuard`'s placeholders, and the read sets `confirmed` when that
 * column came back true. Until then nothing the read found may leave the server.
 */
export interface CallerCheck {
  values: { callerId: string; callerFamily: string; callerPrint: string };
  confirmed: boolean;
}

/**
 * A boolean column for a statement: whether the caller (placeholders `callerId`, `callerFamily`)
 * is still, in this statement's snapshot, exactly the one whose `print` is `callerPrint`: same
 * user, still verified, session alive, same operators. Same SQL as `loadSessionCaller`'s.
 */
export function callerGuard(db: Db): SQL<boolean> {
  const parts = sessionCallerParts(sql`${sql.placeholder('callerId')}`, sql`${sql.placeholder('callerFamily')}`);
  const print = db
    .select({ print: parts.print })
    .from(dashboardUsers)
    .innerJoin(customers, eq(customers.customerId, dashboardUsers.customerId))
    .where(parts.where);
  return sql<boolean>`coalesce((${print}) = ${sql.placeholder('callerPrint')}, false)`;
}

export async function loadAuthUser(db: Db, userId: string): Promise<(AuthUser & { verified: boolean }) | undefined> {
  const [row] = await db
    .select(authUserColumns)
    .from(dashboardUsers)
    .innerJoin(customers, eq(customers.customerId, dashboardUsers.customerId))
    .where(eq(dashboardUsers.id, userId));
  return row;
}

/** The caller's own operators (the token's cpo_id): Operator-type → its bound one; otherwise its customer's. */
export async function ownOperatorIds(db: Db, user: AuthUser): Promise<string[]> {
  if (user.customerType === 'Operator' && user.operatorId) return [user.operatorId];
  const rows = await db
    .select({ cpoId: operators.cpoId })
    .from(operators)
    .where(eq(operators.customerId, user.customerId))
    .orderBy(operators.cpoId);
  // An Operator-type account without a binding falls back to the first operator of its customer.
  if (user.customerType === 'Operator') return rows.slice(0, 1).map((r) => r.cpoId);
  return rows.map((r) => r.cpoId);
}

/** Tenancy comes from the database on every request, never from the token's cpo_id. */
export async function scopeFor(db: Db, user: AuthUser): Promise<Scope> {
  if (user.isAdmin) return makeScope('all');
  return makeScope(await ownOperatorIds(db, user));
}

/** The `callerOk` column of a list's statement: `callerGuard` in the one built for requests with a caller check, else null. */
export const callerOkColumn = (db: Db, guarded: boolean): SQL<boolean | null> => (guarded ? callerGuard(db) : sql<null>`null`);

/** Marks `check` confirmed when the statement's first row says its caller is the assumed one (no row: not confirmed). */
export function confirmCaller(check: CallerCheck | undefined, rows: readonly unknown[]): void {
  if (check && (rows[0] as { callerOk?: unknown } | undefined)?.callerOk === true) check.confirmed = true;
}
