import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import { SignJWT, compactVerify, errors as joseErrors, jwtVerify } from 'jose';
import { ADMIN_ROLE, OPERATOR_ROLE } from '../../../contract/common';
import type { TokenClaims, TokenPair } from '../../../contract/auth';
import type { Db } from '../db/client';
import { refreshTokens } from '../db/schema/auth';
import { customers } from '../db/schema/customers';
import { operators } from '../db/schema/operators';
import { sha256 } from '../db/stored-hash';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { ownOperatorIds, type AuthUser } from './scope';

const ALG = 'HS256';

export const opaqueToken = () => randomBytes(32).toString('base64url');

const secretKey = (env: Env) => new TextEncoder().encode(env.JWT_SECRET);

export type AccessClaims = Omit<TokenClaims, 'exp' | 'iat'> & { sid?: string };

/** Claims are rebuilt from the database each time, so e-mail changes and new operators show up on refresh. */
export async function buildClaims(db: Db, user: AuthUser, sessionFamilyId?: string): Promise<AccessClaims> {
  const [customer] = await db.select().from(customers).where(eq(customers.customerId, user.customerId));
  const cpoIds = await ownOperatorIds(db, user);
  let manualIds = customer.createManualEndCustomerId;
  if (cpoIds.length > 0) {
    const [first] = await db.select({ flag: operators.createManualEndCustomerId }).from(operators).where(eq(operators.cpoId, cpoIds[0]));
    if (first) manualIds = first.flag;
  }
  return {
    sub: user.id,
    name: `${user.firstName} ${user.lastName}`.trim(),
    email: user.email,
    preferred_username: user.email,
    role_company: user.role,
    customer_id: customer.customerId,
    customer_type: customer.customerType,
    company_name: customer.companyName,
    c_o: customer.careOf ?? '',
    street_name: customer.street,
    house_number: customer.houseNumber ?? '',
    postcode: customer.zipCode,
    city: customer.city,
    country: customer.countryCode,
    cpo_id: cpoIds,
    createManualEndCustomerId: manualIds,
    resource_access: {
      ...(user.isAdmin ? { admin_oli_move: { roles: [ADMIN_ROLE] } } : {}),
      dashboard_oli_move: { roles: [OPERATOR_ROLE] },
    },
    ...(sessionFamilyId ? { sid: sessionFamilyId } : {}),
  };
}

export async function signAccessToken(env: Env, claims: AccessClaims, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: ALG, typ: 'JWT' })
    .setIssuer(env.JWT_ISSUER)
    .setSubject(claims.sub)
    .setIssuedAt(iat)
    .setExpirationTime(iat + env.ACCESS_TOKEN_TTL_SECONDS)
    .sign(secretKey(env));
}

/** What a verified access token said; `exp`/`nbf` are checked again on every use. */
interface VerifiedToken {
  sub: string;
  sid: string;
  exp: number;
  nbf?: number;
}

/** Verified tokens kept per process; past this many the oldest go first. */
const VERIFIED_TOKENS_MAX = 5000;

/**
 * Tokens this process has verified, by their exact text, for the secret and issuer they were
 * checked with. Whether a token's signature and claims hold depends on nothing but its text, the
 * secret, the issuer and the clock, so a repeat of the same text needs only the clock checked
 * again; jose's verification (an HMAC through WebCrypto, ~90 µs) ran once for it. Only tokens
 * that passed are kept, never a failure, and nothing of the caller: the session and the scope are
 * still loaded from the database on every request.
 */
const verifiedTokens = new WeakMap<Env, { secret: string; issuer: string; tokens: Map<string, VerifiedToken> }>();

function verifiedCache(env: Env) {
  let cache = verifiedTokens.get(env);
  if (!cache || cache.secret !== env.JWT_SECRET || cache.issuer !== env.JWT_ISSUER) {
    cache = { secret: env.JWT_SECRET, issuer: env.JWT_ISSUER, tokens: new Map() };
    verifiedTokens.set(env, cache);
  }
  return cache.tokens;
}

/** jose's clock checks (no tolerance): expired when `exp <= now`, not yet valid when `nbf > now`. */
function checkClock(t: VerifiedToken): { sub: string; sid: string } {
  const now = Math.floor(Date.now() / 1000);
  if (t.nbf !== undefined && t.nbf > now) throw new ApiError(401, 'TOKEN_INVALID', 'Invalid token');
  if (t.exp <= now) throw new ApiError(401, 'TOKEN_EXPIRED', 'Token expired');
  return { sub: t.sub, sid: t.sid };
}

/**
 * Full verification for API calls: signature (HS256 only), issuer, expiry (a token without `exp`
 * is refused), subject and session id (checked against the database by the caller).
 */
export async function verifyAccessToken(env: Env, token: string): Promise<{ sub: string; sid: string }> {
  const cache = verifiedCache(env);
  const known = cache.get(token);
  if (known) return checkClock(known);
  let verified: VerifiedToken;
  try {
    const { payload } = await jwtVerify(token, secretKey(env), {
      algorithms: [ALG],
      issuer: env.JWT_ISSUER,
      requiredClaims: ['exp', 'sub'],
    });
    if (typeof payload.sub !== 'string') throw new ApiError(401, 'TOKEN_INVALID', 'Token has no subject');
    if (typeof payload.sid !== 'string') throw new ApiError(401, 'TOKEN_INVALID', 'Token has no session');
    // jose has checked that exp (required) and nbf (when present) are numbers.
    verified = { sub: payload.sub, sid: payload.sid, exp: payload.exp!, nbf: payload.nbf };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new ApiError(401, 'TOKEN_EXPIRED', 'Token expired');
    throw new ApiError(401, 'TOKEN_INVALID', 'Invalid token');
  }
  if (cache.size >= VERIFIED_TOKENS_MAX) cache.delete(cache.keys().next().value!);
  cache.set(token, verified);
  return { sub: verified.sub, sid: verified.sid };
}

/** For refresh: the signature and issuer must hold, but the access token may have expired already. */
export async function verifyAccessTokenIgnoringExpiry(env: Env, token: string): Promise<{ sub: string }> {
  try {
    const { payload } = await compactVerify(token, secretKey(env), { algorithms: [ALG] });
    const claims = JSON.parse(new TextDecoder().decode(payload)) as { sub?: unknown; iss?: unknown };
    if (typeof claims.sub !== 'string' || claims.iss !== env.JWT_ISSUER) throw new Error('bad claims');
    return { sub: claims.sub };
  } catch {
    throw new ApiError(401, 'TOKEN_INVALID', 'Invalid token');
  }
}

async function insertRefreshToken(db: Db, env: Env, userId: string, familyId: string, now: Date) {
  const token = opaqueToken();
  await db.insert(refreshTokens).values({
    id: randomUUID(),
    userId,
    tokenHash: sha256(token),
    familyId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + env.REFRESH_TOKEN_TTL_SECONDS * 1000),
  });
  return token;
}

async function pairFor(db: Db, env: Env, user: AuthUser, familyId: string, now: Date): Promise<TokenPair> {
  const refreshToken = await insertRefreshToken(db, env, user.id, familyId, now);
  const accessToken = await signAccessToken(env, await buildClaims(db, user, familyId), now);
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: env.ACCESS_TOKEN_TTL_SECONDS,
    refresh_expires_in: env.REFRESH_TOKEN_TTL_SECONDS,
    token_type: 'Bearer',
  };
}

/** A fresh login starts a new token family. */
export const issueTokenPair = (db: Db, env: Env, user: AuthUser, now = new Date()) => pairFor(db, env, user, randomUUID(), now);

export type RotationResult = { ok: true; pair: TokenPair } | { ok: false; reason: 'unknown' | 'expired' | 'reused' | 'wrong-user' };

/**
 * How long a rotated refresh token still gets the pair that replaced it: a refresh whose answer
 * was lost on a weak line, or two tabs refreshing at once, stay signed in. Later reuse revokes.
 */
export const REFRESH_GRACE_SECONDS = 60;

const successorKey = (env: Env) => createHash('sha256').update(`refresh-successor:${env.JWT_SECRET}`).digest();

function sealPair(env: Env, pair: TokenPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', successorKey(env), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(pair), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}

function openPair(env: Env, sealed: string): TokenPair | undefined {
  try {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', successorKey(env), iv);
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8')) as TokenPair;
  } catch {
    return undefined;
  }
}

async function familyAlive(db: Db, familyId: string, now: Date) {
  const [live] = await db
    .select({ id: refreshTokens.id })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now)))
    .limit(1);
  return !!live;
}

/** The pair that replaced a rotated token, while the grace period lasts and the session is alive. */
async function graceAnswer(db: Db, env: Env, row: typeof refreshTokens.$inferSelect, now: Date): Promise<TokenPair | undefined> {
  if (!row.revokedAt || !row.successor) return undefined;
  if (now.getTime() - row.revokedAt.getTime() > REFRESH_GRACE_SECONDS * 1000) return undefined;
  if (!(await familyAlive(db, row.familyId, now))) return undefined;
  return openPair(env, row.successor);
}

/**
 * Rotation: each refresh token works once. Within the grace period a rotated token is answered with
 * the same new pair; after it, presenting a spent one means it leaked (or a replay): the whole family
 * is revoked so the thief's copy dies with it.
 */
export async function rotateRefreshToken(db: Db, env: Env, user: AuthUser, presented: string, now = new Date()): Promise<RotationResult> {
  const byHash = eq(refreshTokens.tokenHash, sha256(presented));
  const [row] = await db.select().from(refreshTokens).where(byHash);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.userId !== user.id) return { ok: false, reason: 'wrong-user' };
  const reuse = async (current: typeof row): Promise<RotationResult> => {
    const pair = await graceAnswer(db, env, current, now);
    if (pair) return { ok: true, pair };
    await revokeFamily(db, current.familyId, now);
    return { ok: false, reason: 'reused' };
  };
  if (row.revokedAt) return reuse(row);
  if (row.expiresAt <= now) return { ok: false, reason: 'expired' };
  const taken = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (taken.length === 0) {
    // A concurrent refresh of the same token won (on PostgreSQL this statement waited for it to
    // commit): answer with the pair it made.
    const [current] = await db.select().from(refreshTokens).where(byHash);
    return reuse(current ?? row);
  }
  const pair = await pairFor(db, env, user, row.familyId, now);
  await db
    .update(refreshTokens)
    .set({ successor: sealPair(env, pair) })
    .where(eq(refreshTokens.id, row.id));
  return { ok: true, pair };
}

export async function revokeFamily(db: Db, familyId: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes every live refresh token of the user, except those of `keepFamilyId` (the current session). */
export async function revokeUserTokens(db: Db, userId: string, keepFamilyId?: string, now = new Date()) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
        keepFamilyId ? ne(refreshTokens.familyId, keepFamilyId) : undefined,
      ),
    );
}
