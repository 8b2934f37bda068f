import { afterEach, describe, expect, it } from 'vitest';
import { makeClaims, makeJwt } from '../api/test-tokens';
import { clearTokens, setTokens } from '../auth/token-store';
import type { OutboxWrite } from './outbox-write';
import { clearSignedOutNote, readSignedOutNote } from './signed-out-note';
import { watchSignedOut } from './signed-out-watch';
import { storedWrite } from './test-writes';

const write = (owner: string, state: OutboxWrite['state']) =>
  storedWrite({ scope: 's', kind: 'k', data: {}, request: { service: 'bff', path: '/x', method: 'PUT' } }, { owner, state });

let stop = () => {};
afterEach(() => {
  stop();
  clearSignedOutNote();
  clearTokens('logout');
});

describe('signed out by the server', () => {
  it('notes why and how many changes of this account wait for its next sign-in', () => {
    setTokens({ accessToken: makeJwt(makeClaims({ sub: 'user-1' })), refreshToken: 'r1' });
    const writes = [write('user-1', 'pending'), write('user-1', 'failed'), write('user-1', 'done'), write('user-2', 'pending')];
    stop = watchSignedOut({ getSnapshot: () => writes });
    clearTokens('session-expired');
    expect(readSignedOutNote()).toEqual({ waiting: 2 });
  });

  it('says nothing after the user signed out here', () => {
    setTokens({ accessToken: makeJwt(makeClaims({ sub: 'user-1' })), refreshToken: 'r1' });
    stop = watchSignedOut({ getSnapshot: () => [] });
    clearTokens('session-expired');
    expect(readSignedOutNote()).toEqual({ waiting: 0 });
    setTokens({ accessToken: makeJwt(makeClaims({ sub: 'user-1' })), refreshToken: 'r2' });
    clearTokens('logout');
    expect(readSignedOutNote()).toBeNull();
  });

  it('reads no broken note', () => {
    localStorage.setItem('cpo-signed-out', '{"waiting":"many"}');
    expect(readSignedOutNote()).toBeNull();
    localStorage.setItem('cpo-signed-out', 'not json');
    expect(readSignedOutNote()).toBeNull();
  });
});
