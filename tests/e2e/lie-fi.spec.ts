import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { signIn, waitForServiceWorker } from './helpers';

/**
 * Issue 23, the field user's normal day: the browser says online while requests to the server fail
 * or hang ("lie-fi": one bar of signal, a captive portal, a dead cell). Unlike field-offline.spec.ts
 * (context.setOffline), navigator.onLine stays true here throughout.
 */

const SERVER_PATHS = /\/(?:bff|user-service|contract-management|booking-service)\/|\/config\.json/;

/** What the network does with requests to the server: pass them, fail them at once, or hold them unanswered. */
class LieFi {
  mode: 'pass' | 'abort' | 'hold' = 'pass';
  private held: Route[] = [];

  async install(context: BrowserContext) {
    await context.route(SERVER_PATHS, async (route) => {
      if (this.mode === 'pass') return route.continue();
      if (this.mode === 'abort') return route.abort('internetdisconnected');
      this.held.push(route);
    });
  }

  /** The network answers again; what was held is dropped (the browser never got an answer). */
  async restore() {
    this.mode = 'pass';
    const held = this.held.splice(0);
    await Promise.all(held.map((r) => r.abort('timedout').catch(() => undefined)));
  }
}

const usersGrid = (page: Page) => page.getByRole('grid', { name: 'Alle Nutzer' });
const rowsOf = (page: Page, name: string) => page.getByRole('grid', { name }).getByRole('row');

test('lie-fi: kept lists survive reloads while the server does not answer', async ({ page, context }) => {
  test.setTimeout(240_000);
  const net = new LieFi();
  await net.install(context);
  await signIn(page, 'operator');
  await waitForServiceWorker(page);

  // Online: the three lists a field user opens in the morning.
  await page.goto('/standorte');
  await expect(rowsOf(page, 'Standortliste').nth(1)).toBeVisible();
  await page.goto('/stationen');
  await expect(rowsOf(page, 'Ladestationsliste').nth(1)).toBeVisible();
  await page.goto('/nutzer');
  await expect(usersGrid(page).getByRole('row').nth(1)).toBeVisible();
  const usersShown = await usersGrid(page).getByRole('row').count();
  await page.waitForTimeout(1_500); // the persister writes at most once a second

  // Lie-fi: the browser stays online, the server never answers.
  net.mode = 'abort';
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  await page.reload();
  await expect(usersGrid(page).getByRole('row')).toHaveCount(usersShown);
  await page.waitForTimeout(45_000);
  await page.reload();
  await expect(usersGrid(page).getByRole('row')).toHaveCount(usersShown);
  await expect(page.getByText('Laden…')).toHaveCount(0);

  // The location select of 'Nutzer anlegen' still has the kept locations.
  await page.getByRole('button', { name: 'Nutzer anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: /Nutzer anlegen/ });
  await dialog.getByRole('textbox', { name: /^Vorname/ }).fill('Erika');
  await dialog.getByRole('textbox', { name: /^Nachname/ }).fill('Funkloch');
  await dialog.getByRole('textbox', { name: /^E-Mail/ }).fill(`erika.${Date.now()}@example.com`);
  await dialog.getByRole('textbox', { name: /^Straße und Hausnummer/ }).fill('Hafenstraße 7');
  await dialog.getByRole('textbox', { name: /^PLZ/ }).fill('20457');
  await dialog.getByRole('textbox', { name: /^Ort/ }).fill('Hamburg');
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: /Standort\*?$/ }).click();
  await expect(page.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');

  await page.goto('/stationen');
  await expect(rowsOf(page, 'Ladestationsliste').nth(1)).toBeVisible();
  await net.restore();
});
