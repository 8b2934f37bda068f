import { createApp, type App } from '../app';
import type { Db } from '../db/client';
import { testEnv, type Env } from '../env';
import { demoAccounts, type SeedResult } from '../seed/seed';
import { createSeededTestDb } from './databases';

export { TEST_NOW } from './databases';

export interface Harness {
  app: App;
  db: Db;
  env: Env;
  seed: SeedResult;
  close: () => Promise<void>;
  /** JSON request against the app; `token` adds the bearer header. */
  request: (
    method: string,
    path: string,
    opts?: { body?: unknown; raw?: string; token?: string; headers?: Record<string, string> },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests poke into arbitrary answers
  ) => Promise<{ status: number; body: any; headers: Headers }>;
  login: (account: keyof typeof accountsWithPassword) => Promise<{ access_token: string; refresh_token: string }>;
}

const accountsWithPassword = {
  admin: demoAccounts.admin,
  operator: demoAccounts.operator,
  partner: demoAccounts.partner,
};

/**
 * A fresh database, migrated and seeded with the `small` data set: an in-memory PGlite, or with
 * TEST_DATABASE_URL a new PostgreSQL database copied from a seeded template (test/databases.ts).
 */
export async function createHarness(envOverrides: Partial<Env> = {}): Promise<Harness> {
  const { handle, seed } = await createSeededTestDb();
  const env = testEnv(envOverrides);
  const app = createApp({ db: handle.db, env, log: () => {} });

  const request: Harness['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const res = await app.request(path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* plain text answer */
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };

  const login: Harness['login'] = async (account) => {
    const { email, password } = accountsWithPassword[account];
    const res = await request('POST', '/user-service/login', {
      body: { username: email, password, origin: 'dashboard' },
    });
    if (res.status !== 200) throw new Error(`login ${account} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  return { app, db: handle.db, env, seed, close: handle.close, request, login };
}
