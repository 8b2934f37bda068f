import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { bearer, changeable, freshLot, signIn, someConnectors, waitForServiceWorker, type ConnectorRow } from './helpers';

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

/** Lets the query persister write its (throttled) copy to IndexedDB. */
const persisted = (page: Page) => page.waitForTimeout(1_500);

const usersGrid = (page: Page) => page.getByRole('grid', { name: 'Alle Nutzer' });
const rowsOf = (page: Page, name: string) => page.getByRole('grid', { name }).getByRole('row');

test('lie-fi: kept lists survive reloads, a save answers at once and arrives once the server answers; a sign-out elsewhere explains itself and keeps the writes', async ({
  page,
  context,
  request,
  browser,
}) => {
  test.setTimeout(300_000);
  const net = new LieFi();
  await net.install(context);
  await signIn(page, 'operator');
  await waitForServiceWorker(page);
  const station = (await someConnectors(page)).find(changeable)!;
  let auth = await bearer(page);
  // Asked past the browser (request fixture), so the lie-fi routes never touch it.
  const onServer = async (): Promise<ConnectorRow> => {
    const res = await request.get(`/bff/connectors/${encodeURIComponent(station.connectorId)}`, { headers: { Authorization: auth } });
    expect(res.ok()).toBe(true);
    return ((await res.json()) as { data: ConnectorRow }).data;
  };

  // Online: the three lists a field user opens in the morning, and a station. Each page is a page
  // load of its own here, and the persister writes at most once a second.
  await page.goto('/standorte');
  await expect(rowsOf(page, 'Standortliste').nth(1)).toBeVisible();
  await persisted(page);
  await page.goto('/stationen');
  await expect(rowsOf(page, 'Ladestationsliste').nth(1)).toBeVisible();
  await persisted(page);
  await page.goto(`/stationen/${encodeURIComponent(station.connectorId)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(station.cpId);
  await persisted(page);
  await page.goto('/nutzer');
  await expect(usersGrid(page).getByRole('row').nth(1)).toBeVisible();
  const usersShown = await usersGrid(page).getByRole('row').count();
  await persisted(page);

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
  // The top bar says the server does not answer, as it says 'Offline' when the browser knows.
  await expect(page.getByTestId('connection-status')).toHaveText('Server nicht erreichbar');

  // Another page or a filter that was never loaded says so, instead of showing the kept rows as its answer.
  const notKept = page.getByRole('status').filter({ hasText: 'Offline nicht verfügbar' });
  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(notKept).toContainText('Diese Seite der Liste oder dieser Filter wurde auf diesem Gerät noch nicht geladen');
  await expect(page.getByText('Laden…')).toHaveCount(0);
  await page.goBack();
  await expect(rowsOf(page, 'Ladestationsliste').nth(1)).toBeVisible();
  await expect(notKept).toHaveCount(0);
  const idFilter = page.getByRole('searchbox', { name: 'Ladestations-ID' });
  await idFilter.fill('OLI0000');
  await idFilter.press('Enter');
  await expect(notKept).toContainText('Diese Seite der Liste oder dieser Filter');

  // A save answers within 2 s with the on-device message, although the browser says online.
  await page.goto(`/stationen/${encodeURIComponent(station.connectorId)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(station.cpId);
  const lot = freshLot(3);
  await assignLotOnDetailTimed(page, lot);
  const before = await onServer();
  expect(before.version).toBe(station.version);
  // The value saved on the device shows where the lot shows, marked as on its way; also after a reload.
  const lotShown = page.getByTestId('station-detail-parking-lot');
  await expect(lotShown).toHaveText(lot);
  await expect(page.getByTestId('pending-value')).toHaveText('wird gesendet');
  await page.reload();
  await expect(lotShown).toHaveText(lot);
  await expect(page.getByTestId('pending-value')).toHaveText('wird gesendet');

  // The network answers again: no `online` event comes, the probe finds out, the write goes within 5 s.
  await net.restore();
  const back = Date.now();
  await expect.poll(async () => (await onServer()).address.parkingLot, { timeout: 5_000, intervals: [250] }).toBe(lot);
  expect(Date.now() - back).toBeLessThan(5_000);
  // Exactly once: each applied write moves the version on by one.
  await page.waitForTimeout(2_000);
  expect((await onServer()).version).toBe(station.version + 1);
  await expect(page.getByTestId('connection-status')).toHaveCount(0);
  await expect(lotShown).toHaveText(lot);
  await expect(page.getByTestId('pending-value')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Ausgang,/ })).toHaveAccessibleName('Ausgang, nichts ausstehend', { timeout: 10_000 });

  // Lie-fi again, a second change waits; meanwhile the user signs out on another device, which ends
  // every session of the account (this device's refresh token is revoked).
  // This time the network holds requests unanswered (no error at all): the client's own timeouts
  // find out that the server does not answer.
  net.mode = 'hold';
  await page.reload();
  await expect(page.getByTestId('station-detail-parking-lot')).toHaveText(lot);
  // The first read after the reload waits out the client's read timeout (10 s) before it says so;
  // on a loaded 2-core CI box the page's own start adds seconds (it once took just over 15 s).
  await expect(page.getByTestId('connection-status')).toHaveText('Server nicht erreichbar', { timeout: 25_000 });
  const lot2 = freshLot(4);
  await assignLotOnDetailTimed(page, lot2);
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  await signIn(elsewhere, 'operator');
  await elsewhere.getByRole('button', { name: 'Abmelden' }).click();
  await expect(elsewhere).toHaveURL(/\/login/);
  await other.close();

  // The network answers: this device learns it was signed out and says why, keeping the change.
  await net.restore();
  await expect(page).toHaveURL(/\/login/, { timeout: 15_000 });
  const note = page.getByTestId('signed-out-note');
  await expect(note).toContainText('Sie wurden abgemeldet');
  await expect(note).toContainText('1 Änderung wartet auf diesem Gerät');

  // The next sign-in of the same account sends it, once.
  await signIn(page, 'operator');
  auth = await bearer(page);
  await expect.poll(async () => (await onServer()).address.parkingLot, { timeout: 15_000 }).toBe(lot2);
  await page.waitForTimeout(2_000);
  expect((await onServer()).version).toBe(station.version + 2);
});

/** 'Parkplatz zuweisen' on the station's page; the answer must come within 2 s of 'Speichern'. */
async function assignLotOnDetailTimed(page: Page, lot: string) {
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: 'Parkplatz zuweisen' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox').fill(lot);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  const pressed = Date.now();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Gespeichert auf diesem Gerät; wird gesendet, sobald Sie online sind.')).toBeVisible({ timeout: 2_000 });
  expect(Date.now() - pressed).toBeLessThan(2_000);
}
