import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeClaims, makeJwt } from '../api/test-tokens';
import {
  ACCESS_TOKEN_KEY,
  REFRESH_TOKEN_KEY,
  clearTokens,
  decodeClaims,
  getClaims,
  getTokens,
  isAccessTokenValid,
  setTokenPair,
  setTokens,
  subscribeTokens,
  type TokenChange,
} from './token-store';

beforeEach(() => localStorage.clear());
afterEach(() => vi.restoreAllMocks());

describe('token storage', () => {
  it('stores the pair under the spec keys and clears both', () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('a');
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('r');
    expect(getTokens()).toEqual({ accessToken: 'a', refreshToken: 'r' });

    clearTokens();
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(getTokens()).toBeNull();
  });

  it('stores the wire token pair', () => {
    setTokenPair({ access_token: 'A', refresh_token: 'R' });
    expect(getTokens()).toEqual({ accessToken: 'A', refreshToken: 'R' });
  });
});

describe('decodeClaims', () => {
  it('decodes base64url UTF-8 claims', () => {
    const claims = makeClaims({ name: 'Jörg Müller-Lüdenscheidt ß?>' });
    expect(decodeClaims(makeJwt(claims))).toEqual(claims);
  });

  it('rejects payloads that are not the contract claims', () => {
    const { sub: _sub, ...withoutSub } = makeClaims();
    expect(decodeClaims(makeJwt(withoutSub))).toBeNull();
    expect(decodeClaims(makeJwt({ ...makeClaims(), exp: 'soon' }))).toBeNull();
  });

  it('rejects garbage', () => {
    expect(decodeClaims(null)).toBeNull();
    expect(decodeClaims('')).toBeNull();
    expect(decodeClaims('not-a-jwt')).toBeNull();
    expect(decodeClaims('a.%%%.c')).toBeNull();
    expect(decodeClaims(`a.${btoa('not json')}.c`)).toBeNull();
  });
});

describe('isAccessTokenValid', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  const exp = now / 1000 + 60;

  it('is true before exp and false at or after it', () => {
    setTokens({ accessToken: makeJwt(makeClaims({ exp })), refreshToken: 'r' });
    expect(isAccessTokenValid(now)).toBe(true);
    expect(isAccessTokenValid(now + 59_999)).toBe(true);
    expect(isAccessTokenValid(now + 60_000)).toBe(false);
    expect(getClaims()?.sub).toBe('user-1');
  });

  it('is false without a token or with an invalid one', () => {
    expect(isAccessTokenValid(now)).toBe(false);
    setTokens({ accessToken: 'garbage', refreshToken: 'r' });
    expect(isAccessTokenValid(now)).toBe(false);
  });
});

describe('subscribeTokens', () => {
  it('notifies on set and clear with the reason, and stops after unsubscribe', () => {
    const seen: TokenChange[] = [];
    const unsubscribe = subscribeTokens((c) => seen.push(c));
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    clearTokens('session-expired');
    unsubscribe();
    setTokens({ accessToken: 'b', refreshToken: 'r' });
    expect(seen).toEqual([
      { type: 'set', source: 'this-tab' },
      { type: 'cleared', source: 'this-tab', reason: 'session-expired' },
    ]);
  });

  it('reacts to other tabs through the storage event', () => {
    const seen: TokenChange[] = [];
    const unsubscribe = subscribeTokens((c) => seen.push(c));

    localStorage.setItem(ACCESS_TOKEN_KEY, 'from-other-tab');
    window.dispatchEvent(new StorageEvent('storage', { key: ACCESS_TOKEN_KEY, newValue: 'from-other-tab' }));
    localStorage.removeItem(ACCESS_TOKEN_KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: ACCESS_TOKEN_KEY, newValue: null }));
    window.dispatchEvent(new StorageEvent('storage', { key: 'theme', newValue: 'dark' }));
    unsubscribe();

    expect(seen).toEqual([
      { type: 'set', source: 'other-tab' },
      { type: 'cleared', source: 'other-tab', reason: 'unknown' },
    ]);
  });

  it('keeps notifying the others when one listener throws', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const second = vi.fn();
    const u1 = subscribeTokens(() => {
      throw new Error('boom');
    });
    const u2 = subscribeTokens(second);
    clearTokens();
    u1();
    u2();
    expect(second).toHaveBeenCalledOnce();
  });
});

describe('durable session copy', () => {
  it('brings back a session that localStorage lost (browser killed before writing it), and not a cleared one', async () => {
    const { restoreTokens, setTokens, clearTokens, getTokens, whenTokensStored } = await import('./token-store');
    setTokens({ accessToken: 'a.b.c', refreshToken: 'r1' });
    await whenTokensStored();
    localStorage.clear();
    expect(getTokens()).toBeNull();
    await restoreTokens();
    expect(getTokens()).toEqual({ accessToken: 'a.b.c', refreshToken: 'r1' });

    clearTokens('logout');
    await whenTokensStored();
    await restoreTokens();
    expect(getTokens()).toBeNull();
  });

  it('prefers the durable copy when localStorage kept an older pair (a refresh it did not write)', async () => {
    const { restoreTokens, setTokens, getTokens, whenTokensStored } = await import('./token-store');
    setTokens({ accessToken: 'a.b.c', refreshToken: 'r2' });
    await whenTokensStored();
    localStorage.setItem('refreshToken', 'r1');
    await restoreTokens();
    expect(getTokens()?.refreshToken).toBe('r2');
  });
});
