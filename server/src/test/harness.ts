import { createApp, type App } from '../app';
import { createDb, type Db } from '../db/client';
import { testEnv, type Env } from '../env';
import { demoAccounts, seedDatabase, type SeedResult } from '../seed/seed';

/** Fixed clock for seeds, so every run sees the same data. */
export const TEST_NOW = new Date('2026-03-15T10:00:00Z');

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

/** A fresh in-memory PGlite, migrated and seeded with the `small` data set. */
export async function createHarness(envOverrides: Partial<Env> = {}): Promise<Harness> {
  const handle = await createDb({ dataDir: 'memory://' });
  await handle.migrate();
  const seed = await seedDatabase(handle.db, { size: 'small', now: TEST_NOW });
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
