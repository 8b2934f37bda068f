import { expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

export const accounts = {
  admin: { email: 'admin@cockpit.example', password: 'Admin-Demo-2026' },
  operator: { email: 'operator@cockpit.example', password: 'Operator-Demo-2026' },
  partner: { email: 'partner@cockpit.example', password: 'Partner-Demo-2026' },
} as const;
export type AccountName = keyof typeof accounts;

export async function signIn(page: Page, who: AccountName) {
  const { email, password } = accounts[who];
  await page.goto('/login');
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel(/^Passwort\*?$/).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/cockpit$/);
}

/** No serious or critical axe violations (DESIGN.md budgets). */
export async function expectNoSeriousA11yViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

/** Waits until the service worker has installed (precache complete) and controls the page. */
export async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => !!navigator.serviceWorker.controller))) {
    await page.reload();
    await page.waitForFunction(() => !!navigator.serviceWorker.controller);
  }
}
