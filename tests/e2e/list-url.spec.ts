import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

const cpIdField = (page: Page) => page.getByLabel('Ladestations-ID');
const cpIdCells = (page: Page) => page.getByRole('rowheader');

test('a filtered, paged station list survives a reload and the back button with its filters', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/stationen');
  await expect(page).toHaveURL(/\/stationen$/);
  await expect(cpIdCells(page).first()).toBeVisible();

  await cpIdField(page).fill(' OLI0000 ');
  await cpIdField(page).press('Enter');
  await expect(page).toHaveURL(/\/stationen\?cpId=OLI0000$/);
  await expect(page.getByText(/^Seite 1 von \d+$/)).toBeVisible();

  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(page).toHaveURL(/cpId=OLI0000/);
  await expect(page).toHaveURL(/page=1/);
  await expect(page.getByText(/^Seite 2 von \d+$/)).toBeVisible();
  const secondPage = await cpIdCells(page).allTextContents();
  expect(secondPage.length).toBeGreaterThan(0);
  for (const cpId of secondPage) expect(cpId).toContain('OLI0000');

  // A reload opens the same page with the same filter, in the form too.
  await page.reload();
  await expect(page.getByText(/^Seite 2 von \d+$/)).toBeVisible();
  await expect(cpIdField(page)).toHaveValue('OLI0000');
  await expect(cpIdCells(page)).toHaveText(secondPage);

  // Back: the first page of the filtered list; back again: the unfiltered list with an empty form.
  await page.goBack();
  await expect(page).toHaveURL(/\/stationen\?cpId=OLI0000$/);
  await expect(page.getByText(/^Seite 1 von \d+$/)).toBeVisible();
  await expect(cpIdField(page)).toHaveValue('OLI0000');
  await page.goBack();
  await expect(page).toHaveURL(/\/stationen$/);
  await expect(cpIdField(page)).toHaveValue('');

  // A hand-edited link with nonsense falls back to what makes sense instead of an error.
  await page.goto('/stationen?page=-4&size=7&cpId=OLI0000');
  await expect(page.getByText(/^Seite 1 von \d+$/)).toBeVisible();
  await expect(cpIdField(page)).toHaveValue('OLI0000');
});

test("the cockpit's charging-request search and page survive a reload and the back button", async ({ page }) => {
  await signIn(page, 'admin');
  const rows = page.getByRole('grid', { name: 'Ladevorgänge' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();

  await page.getByRole('button', { name: /^Status/ }).click();
  await page.getByRole('option', { name: 'Abgeschlossen' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/cockpit\?filters=/);
  // The transaction ids (other columns may fold under them on a narrow table).
  const ids = async () => (await rows.getByRole('rowheader').allInnerTexts()).map((text) => /TX\d+/.exec(text)?.[0]);
  await expect.poll(async () => (await ids()).length).toBe(10);
  const firstPage = await ids();
  const secondPageAnswer = page.waitForResponse((r) => r.url().includes('get-charging-history') && /[?&]page=1\b/.test(r.url()));
  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(page).toHaveURL(/page=1/);
  await secondPageAnswer;
  // Read the second page once it is on screen, not the first one still showing.
  await expect.poll(async () => (await ids()).join() !== firstPage.join() && (await ids()).length === 10).toBe(true);
  const secondPage = await ids();

  await page.reload();
  await expect.poll(ids).toEqual(secondPage);
  await expect(page.getByRole('button', { name: /^Status/ })).toContainText('Abgeschlossen');

  await page.goBack();
  await expect(page).not.toHaveURL(/page=1/);
  await expect(page).toHaveURL(/filters=/);
  await page.goBack();
  await expect(page).toHaveURL(/\/cockpit$/);
});

test("the cockpit chart's settings are in the URL like every other filter", async ({ page }) => {
  await signIn(page, 'operator');
  const chart = (name: RegExp) => page.getByRole('img', { name });
  await expect(chart(/^Diagramm: Geladene Menge, letzte 7 Tage/)).toBeVisible();

  await page.getByRole('radio', { name: 'Aktive Nutzer' }).click();
  await expect(page).toHaveURL(/\/cockpit\?graphType=ACTIVE_USERS$/);
  await page.getByRole('radio', { name: '12 Monate' }).click();
  await expect(page).toHaveURL(/graphType=ACTIVE_USERS/);
  await expect(page).toHaveURL(/range=MONTHS_12/);
  await expect(chart(/^Diagramm: Aktive Nutzer, letzte 12 Monate/)).toBeVisible();

  // A reload asks the server for the same chart, and the toggles show it.
  const reloaded = page.waitForRequest(
    (r) => r.url().includes('/kpi/get-graph') && r.url().includes('graphType=ACTIVE_USERS') && r.url().includes('unit=MONTHS'),
  );
  await page.reload();
  await reloaded;
  await expect(chart(/^Diagramm: Aktive Nutzer, letzte 12 Monate/)).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Aktive Nutzer' })).toBeChecked();
  await expect(page.getByRole('radio', { name: '12 Monate' })).toBeChecked();

  // Back one step: the 7 days again; back again: the defaults, a plain /cockpit.
  await page.goBack();
  await expect(page).toHaveURL(/\/cockpit\?graphType=ACTIVE_USERS$/);
  await expect(chart(/^Diagramm: Aktive Nutzer, letzte 7 Tage/)).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\/cockpit$/);
  await expect(chart(/^Diagramm: Geladene Menge, letzte 7 Tage/)).toBeVisible();

  // A hand-edited link with nonsense shows the default chart instead of an error.
  await page.goto('/cockpit?graphType=PIE&range=DAYS_9');
  await expect(chart(/^Diagramm: Geladene Menge, letzte 7 Tage/)).toBeVisible();
});
