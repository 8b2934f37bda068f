import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, test, type Browser } from '@playwright/test';
import { accounts } from './helpers';

/**
 * A tablet's system kills the browser in the background. Here the browser process itself is
 * killed (SIGKILL, no chance to write anything), with a profile on disk, and started again.
 */
async function launch(profile: string): Promise<{ process: ChildProcess; browser: Browser }> {
  const port = 9300 + Math.floor(Math.random() * 600);
  const child = spawn(
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    [
      '--headless=new',
      `--remote-debugging-port=${port}`,
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--lang=de-DE',
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/json/version`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { process: child, browser: await chromium.connectOverCDP(`http://127.0.0.1:${port}`) };
}

async function kill(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

test('a browser killed right after sign-in comes back signed in, offline, with the screens it had', async ({ baseURL }) => {
  test.setTimeout(120_000);
  const profile = mkdtempSync(join(tmpdir(), 'cockpit-profile-'));
  let run = await launch(profile);
  try {
    const page = run.browser.contexts()[0]!.pages()[0] ?? (await run.browser.contexts()[0]!.newPage());
    await page.goto(`${baseURL}/login`);
    await page.getByLabel('E-Mail').fill(accounts.operator.email);
    await page.getByLabel(/^Passwort\*?$/).fill(accounts.operator.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(page).toHaveURL(/\/cockpit$/);
    await expect(page.getByTestId('kpi-users')).toBeVisible();
    // The app for offline use, and the cockpit's data (the persister writes at most once a second).
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.waitForTimeout(1_500);
    await kill(run.process);

    run = await launch(profile);
    const context = run.browser.contexts()[0]!;
    await context.setOffline(true);
    const again = context.pages()[0] ?? (await context.newPage());
    await again.goto(`${baseURL}/cockpit`);
    await expect(again).toHaveURL(/\/cockpit$/);
    await expect(again.getByTestId('kpi-users')).toBeVisible();
    await expect(again.getByTestId('data-age').first()).toContainText('Offline');
  } finally {
    await kill(run.process);
    // The killed browser's helper processes may still write into the profile for a while (ENOTEMPTY
    // after 2 s on a busy machine): try for longer, and never fail the journey over a temp folder.
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 40, retryDelay: 250 });
    } catch (error) {
      console.warn(`left the killed browser's profile ${profile}: ${String(error)}`);
    }
  }
});
