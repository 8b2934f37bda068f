import type { ADMIN_ROLE as CONTRACT_ADMIN_ROLE } from '../../contract/common';
import type { TokenClaims } from '../../contract/auth';
import {
  clearTokens,
  decodeClaims,
  getAccessToken,
  getRefreshToken,
  isAccessTokenValid,
  subscribeTokens,
  type ClearReason,
} from './token-store';
import { refreshAccessToken } from '../api/client';
import { SessionExpiredError } from '../api/errors';

export type SessionStatus = 'pending' | 'authenticated' | 'unauthenticated';

export interface Session {
  status: SessionStatus;
  claims: TokenClaims | null;
  isAdmin: boolean;
  /** Why a session ended in this page ('logout', 'session-expired', …); null while signed in or never signed in. */
  endedBy: ClearReason | null;
}

export interface SessionStore {
  getSnapshot(): Session;
  subscribe(listener: () => void): () => void;
  /** Resolves once the status is no longer pending (the route guard awaits this). */
  ready(): Promise<Session>;
}

// The contract's, held to it by its type: contract/common.ts carries zod, which the first route leaves out.
const ADMIN_ROLE = 'oli_move_admin' satisfies typeof CONTRACT_ADMIN_ROLE;

export const isAdminClaims = (claims: TokenClaims | null) => !!claims?.resource_access.admin_oli_move?.roles.includes(ADMIN_ROLE);

const make = (status: SessionStatus, claims: TokenClaims | null, endedBy: ClearReason | null = null): Session => ({
  status,
  claims: status === 'unauthenticated' ? null : claims,
  isAdmin: status === 'authenticated' && isAdminClaims(claims),
  endedBy: status === 'unauthenticated' ? endedBy : null,
});

/**
 * Spec 1 §4: pending, then authenticated when the stored access token is unexpired. Beyond the spec:
 * an expired access token with a refresh token is refreshed first, and when that fails only because
 * the network is down the user stays signed in, so a field worker in a car park can still open what
 * the app cached. The server checks every token anyway; this only decides what the app shows.
 */
export function createSessionStore(now: () => number = Date.now): SessionStore {
  const listeners = new Set<() => void>();
  let readyWaiters: Array<(s: Session) => void> = [];
  let snapshot: Session = make('pending', null);

  const set = (next: Session) => {
    snapshot = next;
    for (const l of [...listeners]) l();
    if (next.status !== 'pending') {
      const waiters = readyWaiters;
      readyWaiters = [];
      for (const w of waiters) w(next);
    }
  };

  let endedBy: ClearReason | null = null;

  const evaluate = () => {
    const claims = decodeClaims(getAccessToken());
    if (claims && isAccessTokenValid(now())) return set(make('authenticated', claims));
    if (!claims || !getRefreshToken()) return set(make('unauthenticated', null, endedBy));
    set(make('pending', claims));
    refreshAccessToken().then(
      // setTokens inside the refresh notifies subscribeTokens, which re-evaluates.
      () => undefined,
      (error: unknown) => {
        // Only a refused refresh ends the session; a 5xx or no network keeps the user in (offline use).
        if (error instanceof SessionExpiredError) {
          endedBy = 'session-expired';
          if (getAccessToken()) clearTokens('session-expired');
          set(make('unauthenticated', null, endedBy));
        } else {
          set(make('authenticated', claims));
        }
      },
    );
  };

  subscribeTokens((change) => {
    endedBy = change.type === 'cleared' ? change.reason : null;
    evaluate();
  });
  evaluate();

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ready() {
      if (snapshot.status !== 'pending') return Promise.resolve(snapshot);
      return new Promise((resolve) => readyWaiters.push(resolve));
    },
  };
}
