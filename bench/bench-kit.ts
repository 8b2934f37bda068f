/**
 * What the benches share: the server's environment for a bench run and the demo accounts' sign-in.
 * Never part of the tests.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { demoAccounts } from '../server/src/seed/seed';

/**
 * The variables a bench's server runs with: loopback on a free port, no static files, a fresh
 * secret, tokens valid for the whole run, PGlite in `dataDir` unless BENCH_DATABASE_URL names a
 * PostgreSQL database. `overrides` win.
 */
export function benchEnv(dataDir: string, overrides: Record<string, string> = {}): Record<string, string | undefined> {
  return {
    ...process.env,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    DATA_DIR: dataDir,
    PORT: '0',
    SEED: 'small',
    STATIC_DIR: path.join(dataDir, 'no-static'),
    JWT_SECRET: randomBytes(48).toString('base64url'),
    // A bench signs in once per account.
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    ...overrides,
  };
}

/** Signs a demo account in; its token pair. */
export async function signIn(
  base: string,
  account: 'admin' | 'operator' | 'partner',
): Promise<{ access_token: string; refresh_token: string }> {
  const { email, password } = demoAccounts[account];
  const res = await fetch(`${base}/user-service/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password, origin: 'dashboard' }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${account} failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { access_token: string; refresh_token: string } }).data;
}
