import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoAccounts } from '../seed/seed';
import { createHarness, type Harness } from '../test/harness';
import { forwardedClientAddress } from './request';

/**
 * Issue 34: with TRUST_PROXY the limits counted the first X-Forwarded-For entry, which the client
 * writes: rotating it, 30 wrong sign-ins never met a 429. The address is the entry the trusted
 * proxy appended (the station upgrade's side is in ocpp/upgrade-gate.test.ts).
 */

describe('forwardedClientAddress', () => {
  it('takes the entry the outermost of the trusted proxies appended', () => {
    const header = '203.0.113.1, 198.51.100.2 ,10.0.0.3';
    expect(forwardedClientAddress(header, '127.0.0.1', 1)).toBe('10.0.0.3');
    expect(forwardedClientAddress(header, '127.0.0.1', 2)).toBe('198.51.100.2');
    expect(forwardedClientAddress(header, '127.0.0.1', 3)).toBe('203.0.113.1');
    // Fewer entries than proxies: the first one there is (a proxy that did not append).
    expect(forwardedClientAddress(header, '127.0.0.1', 5)).toBe('203.0.113.1');
    // Not behind a proxy, or no header: the socket's.
    expect(forwardedClientAddress(header, '127.0.0.1', 0)).toBe('127.0.0.1');
    expect(forwardedClientAddress(undefined, '127.0.0.1', 1)).toBe('127.0.0.1');
    expect(forwardedClientAddress(' , ', '127.0.0.1', 1)).toBe('127.0.0.1');
    expect(forwardedClientAddress(undefined, undefined, 0)).toBe('unknown');
    // Two header lines are one list, in order.
    expect(forwardedClientAddress(['203.0.113.1', '198.51.100.2'], '127.0.0.1', 1)).toBe('198.51.100.2');
  });
});

describe('sign-in limits behind a trusted proxy', () => {
  let p: Harness;
  beforeAll(async () => {
    p = await createHarness({ TRUST_PROXY: 1 });
  });
  afterAll(() => p?.close());

  const forged = () => `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}`;
  const login = (forwardedFor: string, password: string, account: 'partner' | 'operator' = 'partner') =>
    p.request('POST', '/user-service/login', {
      body: { username: demoAccounts[account].email, password, origin: 'dashboard' },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('a rotated forged first entry still meets the 429: the proxy appended the same address each time', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await login(`${forged()}, 198.51.100.20`, 'Wrong-Password-1')).status);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
  }, 30_000);

  it("a forged entry naming the owner's address does not lock the owner out", async () => {
    const owner = '198.51.100.30';
    for (let i = 0; i < 5; i++) await login(`${owner}, 198.51.100.31`, 'Wrong-Password-1', 'operator');
    expect((await login(`${owner}, 198.51.100.31`, demoAccounts.operator.password, 'operator')).status).toBe(429);
    expect((await login(owner, demoAccounts.operator.password, 'operator')).status).toBe(200);
  }, 30_000);
});
