import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.E2E_PORT ?? 8181);
// A fresh database per run, so tests never depend on what an earlier run left behind.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'cockpit-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
// Known to the tests, so they can mint an expired access token (tests/e2e/field-offline.spec.ts).
const jwtSecret = (process.env.E2E_JWT_SECRET ??= 'e2e-only-secret-e2e-only-secret-0123456789');
// The server mails through the run's SMTP peer on this port (globalSetup: tests/e2e/mail-sink.ts),
// which keeps each mail in this directory for the tests to read.
const smtpPort = Number((process.env.E2E_SMTP_PORT ??= String(port + 1000)));
process.env.E2E_MAIL_DIR ??= join(dataDir, 'mails');

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/mail-sink.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
    trace: 'off',
    actionTimeout: 10_000,
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'npx tsx server/src/main.ts',
    url: `http://localhost:${port}/config.json`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      PORT: String(port),
      // PostgreSQL for scripts/test.sh's run of tests/e2e/postgres.spec.ts (a fresh, empty database);
      // empty means PGlite in DATA_DIR, also when the shell happens to have a DATABASE_URL.
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
      DATA_DIR: dataDir,
      JWT_SECRET: jwtSecret,
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      SEED: 'small',
      STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist',
      NODE_ENV: 'production',
      // The payments' test mode (its own checkout page and events), never real Stripe, also when
      // the shell happens to have Stripe's keys or another API host set.
      STRIPE_SECRET_KEY: '',
      STRIPE_WEBHOOK_SECRET: '',
      STRIPE_API_URL: '',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
