import { and, eq, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { ErrorCode } from '../../../contract/errors';
import type { Db } from '../db/client';
import { dashboardUsers, refreshTokens } from '../db/schema/auth';
import { contracts } from '../db/schema/contracts';
import { customers } from '../db/schema/customers';
import { locations } from '../db/schema/locations';
import { operators } from '../db/schema/operators';
import { connectors } from '../db/schema/stations';
import { ApiError } from '../http/errors';

export interface Scope {
  /** 'all' for platform admins, otherwise the operator ids the caller may see. */
  operatorIds: string[] | 'all';
  canSeeOperator(cpoId: string): boolean;
  /** A WHERE condition restricting `column` (an operator id column) to the scope; undefined means no restriction. */
  where(column: Column | SQL): SQL | undefined;
}

// Who is calling is part of every request's context from auth/middleware.ts on (see http/types.ts).
declare module '../http/types' {
  interface AppVariables {
    auth: AuthContext;
    /** Set while a read runs on an assumed caller that its own statement must confirm (`readAsCaller`). */
    callerCheck: CallerCheck | undefined;
  }
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

/**
 * The value of the placeholder `operatorIds` of a statement scoped with `anyOf(column, 'operatorIds')`
 * (a statement for an admin has no such condition: `scope.operatorIds === 'all'` is part of its shape).
 */
export const scopeValues = (scope: Scope) => ({ operatorIds: scope.operatorIds === 'all' ? [] : scope.operatorIds });

// ---- What a request names, inside the caller's scope ---------------------------------------------

/**
 * Each kind of entity a request names by id, with its 404 code. One outside the caller's scope
 * answers exactly like one that does not exist, so an answer tells nothing about other customers'
 * data (the access matrix checks it). `listField` is the errorDetail field of a kind that a request
 * may name several of at once; the others name their one id in `idField`.
 */
const entityKinds = {
  operator: { label: 'Operator', code: 'OPERATOR_NOT_FOUND', idField: 'cpoId' },
  location: { label: 'Location', code: 'LOCATION_NOT_FOUND', idField: 'locationId', listField: 'locationIds' },
  connector: { label: 'Connector', code: 'CONNECTOR_NOT_FOUND', idField: 'connectorId', listField: 'connectorIds' },
  contract: { label: 'Contract', code: 'CONTRACT_NOT_FOUND', idField: 'contractKey' },
  customer: { label: 'Customer', code: 'CUSTOMER_NOT_FOUND', idField: 'customerId' },
  bill: { label: 'Bill', code: 'BILLING_NOT_FOUND', idField: 'billingNumber', listField: 'billingNumbers' },
} satisfies Record<string, { label: string; code: ErrorCode; idField: string; listField?: string }>;

export type EntityKind = keyof typeof entityKinds;

/** 404 with the kind's code, naming the ids the request named that are missing or outside the scope. */
export function notFound(kind: EntityKind, ids: string | readonly string[]): ApiError {
  const k: { label: string; code: ErrorCode; idField: string; listField?: string } = entityKinds[kind];
  const list = typeof ids === 'string' ? [ids] : [...ids];
  const detail = k.listField ? { [k.listField]: list } : { [k.idField]: list[0] };
  return new ApiError(404, k.code, `${k.label} ${list.join(', ')} not found`, detail);
}

/** What `found` resolves to (a row read inside the caller's scope), or 404 with the kind's code when it found nothing. */
export async function foundOr404<T>(kind: EntityKind, id: string, found: Promise<T | undefined>): Promise<T> {
  const row = await found;
  if (row === undefined) throw notFound(kind, id);
  return row;
}

/** Where `assertVisible` looks for each kind: its table, id column and operator column. */
const scopedTables: Partial<Record<EntityKind, { table: PgTable; id: PgColumn; cpoId: PgColumn }>> = {
  operator: { table: operators, id: operators.cpoId, cpoId: operators.cpoId },
  location: { table: locations, id: locations.locationId, cpoId: locations.cpoId },
  connector: { table: connectors, id: connectors.connectorId, cpoId: connectors.cpoId },
  contract: { table: contracts, id: contracts.contractKey, cpoId: contracts.cpoId },
};

/**
 * Every id a request names (a filter, a parent, a new entity's owner) must exist inside the caller's
 * scope: otherwise 404 with the kind's code naming the others, for admins asking for an unknown one
 * too, never an empty answer that reads like an entity without data.
 */
export async function assertVisible(
  db: Db,
  scope: Scope,
  kind: 'operator' | 'location' | 'connector' | 'contract',
  ids: readonly string[],
) {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const t = scopedTables[kind]!;
  const rows = await db
    .select({ id: t.id })
    .from(t.table)
    .where(and(inArray(t.id, wanted), scope.where(t.cpoId)));
  const visible = new Set(rows.map((r) => r.id as string));
  const missing = wanted.filter((id) => !visible.has(id));
  if (missing.length > 0) throw notFound(kind, missing);
}

/** How a versioned write reaches its kind of entity. */
export interface VersionedAccess<Row extends { version: number }> {
  /** The entities of these ids inside the caller's scope, locked until the transaction ends; a missing one is absent. */
  lock: (ids: string[]) => Promise<Map<string, Row>>;
  /** The entity as the caller would read it now: a conflict's `current`. */
  current: (row: Row) => unknown;
}

/**
 * The entities a write names, each at the version its caller saw: locked (so nothing changes them
 * until the transaction ends), 404 with the kind's code naming every one missing or outside the
 * scope, and 409 CONFLICT when any `version` given is not the entity's, with errorDetail the first
 * stale entity (`{ <idField>, currentVersion, current }`) plus `conflicts`, every stale one.
 */
export const lockAtVersions = <Row extends { version: number }>(
  kind: EntityKind,
  requested: readonly { id: string; version: number | undefined }[],
  access: VersionedAccess<Row>,
) => lockChecked(kind, requested, access, (stale) => ({ ...stale[0], conflicts: stale }));

/** One entity a write names, at the version its caller saw (as `lockAtVersions`); a conflict's errorDetail is the entity alone. */
export async function lockAtVersion<Row extends { version: number }>(
  kind: EntityKind,
  id: string,
  version: number | undefined,
  access: { lock: (id: string) => Promise<Row | undefined>; current: (row: Row) => unknown },
): Promise<Row> {
  const lockOne = async () => {
    const row = await access.lock(id);
    return new Map(row ? [[id, row]] : []);
  };
  const rows = await lockChecked(kind, [{ id, version }], { lock: lockOne, current: access.current }, (stale) => stale[0]);
  return rows.get(id)!;
}

async function lockChecked<Row extends { version: number }>(
  kind: EntityKind,
  requested: readonly { id: string; version: number | undefined }[],
  access: VersionedAccess<Row>,
  detailOf: (stale: Record<string, unknown>[]) => unknown,
): Promise<Map<string, Row>> {
  const ids = [...new Set(requested.map((r) => r.id))];
  const rows = await access.lock(ids);
  const missing = ids.filter((id) => !rows.has(id));
  if (missing.length > 0) throw notFound(kind, missing);
  const { label, idField } = entityKinds[kind];
  const stale = await Promise.all(
    requested
      .filter((r) => r.version !== undefined && r.version !== rows.get(r.id)!.version)
      .map(async ({ id }) => ({ [idField]: id, currentVersion: rows.get(id)!.version, current: await access.current(rows.get(id)!) })),
  );
  if (stale.length > 0) {
    const names = stale.map((s) => s[idField]).join(', ');
    throw new ApiError(409, 'CONFLICT', `${label} ${names} was changed by someone else`, detailOf(stale));
  }
  return rows;
}
