import type { TokenClaims, TokenPair } from '../../contract/auth';
import { readOrNull } from '../api/answer-check';
import { readDurableTokens, writeDurableTokens, type StoredTokens } from './durable-session';
import { readTokenClaims } from './token-answers';

/** Storage keys of spec 1 §4; other deployments of the dashboard read the same keys. */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';

export type { StoredTokens };

/**
 * Why the tokens were cleared. The app redirects to /login for every reason, but only an explicit
 * `logout` (or a clear in another tab, whose reason is `unknown`) should throw away cached data:
 * after `session-expired` the same person usually signs in again and still wants what they saw.
 */
export type ClearReason = 'logout' | 'session-expired' | 'unknown';

export type TokenChange =
  { type: 'set'; source: 'this-tab' | 'other-tab' } | { type: 'cleared'; source: 'this-tab' | 'other-tab'; reason: ClearReason };

export type TokenListener = (change: TokenChange) => void;

const listeners = new Set<TokenListener>();

// localStorage throws in some privacy modes and sandboxed iframes; treat that as "no token".
function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Nothing useful to do: the in-memory flow still works for this page's lifetime.
  }
}

function emit(change: TokenChange): void {
  for (const listener of [...listeners]) {
    try {
      listener(change);
    } catch (error) {
      // One broken subscriber must not keep the others (e.g. the redirect to /login) from running.
      console.error(error);
    }
  }
}

export function getAccessToken(): string | null {
  return read(ACCESS_TOKEN_KEY);
}

export function getRefreshToken(): string | null {
  return read(REFRESH_TOKEN_KEY);
}

export function getTokens(): StoredTokens | null {
  const accessToken = getAccessToken();
  const refreshToken = getRefreshToken();
  return accessToken && refreshToken ? { accessToken, refreshToken } : null;
}

// The last durable write; writes go in order, so awaiting the last one awaits them all.
let durable: Promise<void> = Promise.resolve();
const persist = (tokens: StoredTokens | null) => (durable = durable.then(() => writeDurableTokens(tokens)));

/** Removes the durable copy (localStorage is left to clearTokens); resolves once committed. */
export function forgetDurableTokens(): Promise<void> {
  return persist(null);
}

/** Resolves once the tokens set or cleared last are committed to IndexedDB (durable-session.ts). */
export function whenTokensStored(): Promise<void> {
  return durable;
}

/**
 * At start, before anything reads the session: a session that only the durable copy kept (the
 * browser was killed before it wrote localStorage to disk) is put back. The durable copy wins: it
 * is written after every change and committed before sign-in or a refresh counts as done.
 */
export async function restoreTokens(): Promise<void> {
  const kept = await readDurableTokens();
  if (kept && (kept.accessToken !== getAccessToken() || kept.refreshToken !== getRefreshToken())) {
    write(ACCESS_TOKEN_KEY, kept.accessToken);
    write(REFRESH_TOKEN_KEY, kept.refreshToken);
  }
}

export function setTokens(tokens: StoredTokens): void {
  write(ACCESS_TOKEN_KEY, tokens.accessToken);
  write(REFRESH_TOKEN_KEY, tokens.refreshToken);
  void persist(tokens);
  emit({ type: 'set', source: 'this-tab' });
}

/** Stores the pair as the user service answers it (`/login`, `/refresh-token`). */
export function setTokenPair(pair: Pick<TokenPair, 'access_token' | 'refresh_token'>): void {
  setTokens({ accessToken: pair.access_token, refreshToken: pair.refresh_token });
}

export function clearTokens(reason: ClearReason = 'logout'): void {
  write(ACCESS_TOKEN_KEY, null);
  write(REFRESH_TOKEN_KEY, null);
  void persist(null);
  emit({ type: 'cleared', source: 'this-tab', reason });
}

function base64UrlDecode(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  // Names and addresses carry umlauts; atob alone would hand back mojibake.
  return new TextDecoder().decode(bytes);
}

/**
 * Reads the claims of a JWT without verifying its signature: the client cannot verify it and does
 * not need to (the server does on every call). Anything that is not a well-formed token with the
 * contract's claims gives null, which the app treats as "not signed in".
 */
export function decodeClaims(token: string | null | undefined): TokenClaims | null {
  if (!token) return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    return readOrNull(readTokenClaims, JSON.parse(base64UrlDecode(parts[1])));
  } catch {
    return null;
  }
}

export function getClaims(): TokenClaims | null {
  return decodeClaims(getAccessToken());
}

/** Spec 1 §4: authenticated iff the stored access token is well-formed and `exp` (seconds) lies after `now` (ms). */
export function isAccessTokenValid(now: number = Date.now()): boolean {
  const claims = getClaims();
  return claims !== null && claims.exp * 1000 > now;
}

function onStorage(event: StorageEvent): void {
  // key null means another tab called localStorage.clear().
  if (event.key !== null && event.key !== ACCESS_TOKEN_KEY && event.key !== REFRESH_TOKEN_KEY) return;
  if (event.storageArea && event.storageArea !== globalThis.localStorage) return;
  if (getAccessToken()) emit({ type: 'set', source: 'other-tab' });
  // The storage event does not say why the other tab cleared them.
  else emit({ type: 'cleared', source: 'other-tab', reason: 'unknown' });
}

/**
 * Calls `listener` whenever tokens are set or cleared, in this tab or (through the `storage` event)
 * in another one. Works as the `subscribe` of `useSyncExternalStore(subscribeTokens, getAccessToken)`.
 */
export function subscribeTokens(listener: TokenListener): () => void {
  if (listeners.size === 0 && typeof window !== 'undefined') window.addEventListener('storage', onStorage);
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') window.removeEventListener('storage', onStorage);
  };
}
