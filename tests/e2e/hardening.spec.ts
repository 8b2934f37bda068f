import { expect, test, type Page } from '@playwright/test';
import { signIn, waitForServiceWorker } from './helpers';

/** Every Content-Security-Policy violation the page reports, from the start of each document. */
async function collectCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { reportCspViolation: (v: string) => void }).reportCspViolation(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`,
      );
    });
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  return violations;
}

test('the app works under its Content-Security-Policy: sign-in, a screen with a chart, a list, an offline reload', async ({
  page,
  context,
}) => {
  const violations = await collectCspViolations(page);
  const response = await page.goto('/login');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-inline');
  expect(response?.headers()['x-content-type-options']).toBe('nosniff');

  // The stored theme still applies before first paint (now from /boot.js, not an inline script).
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  await signIn(page, 'operator');
  await expect(page.getByTestId('kpi-users')).toBeVisible();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Ladestationen' }).click();
  await expect(page.getByRole('row').nth(1)).toBeVisible();
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Cockpit' }).click();
  await expect(page.getByTestId('kpi-users')).toBeVisible();

  await waitForServiceWorker(page);
  await page.waitForTimeout(1_500); // the persister writes at most once a second
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('kpi-users')).toBeVisible();
  await context.setOffline(false);

  expect(violations).toEqual([]);
});

test('too many wrong passwords: the sign-in says when to try again', async ({ page }) => {
  // An address no one has: its attempts are limited all the same, and no demo account gets blocked for the other tests.
  const email = `nobody-${Date.now()}@cockpit.example`;
  await page.goto('/login');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel(/^Passwort\*?$/).fill('Falsch-123456');
  const dialog = page.getByRole('alertdialog');
  for (let i = 0; i < 5; i++) {
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await expect(dialog).toContainText('Falsche Eingabe');
    await dialog.getByRole('button').first().click();
    await expect(dialog).toHaveCount(0);
  }
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(dialog).toContainText('Zu viele Anfragen');
  await expect(dialog).toContainText(/Zu viele Versuche\. Bitte versuchen Sie es in (1 Minute|\d+ Sekunden) erneut\./);
  await expect(page).toHaveURL(/\/login/);
});
