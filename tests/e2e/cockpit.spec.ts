import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn, waitForServiceWorker } from './helpers';

const GERMAN_MONTHS = [
  'Januar',
  'Februar',
  'März',
  'April',
  'Mai',
  'Juni',
  'Juli',
  'August',
  'September',
  'Oktober',
  'November',
  'Dezember',
];

// Wide enough for every column of the charging-request table (narrower tables fold some under the
// transaction id: tablet.spec.ts), so the columns can be read by position.
test.use({ viewport: { width: 1800, height: 1000 } });

const historyGrid = (page: Page) => page.getByRole('grid', { name: 'Ladevorgänge' });
const bodyRows = (page: Page) => historyGrid(page).locator('tbody tr');
/** Cells of one column (1-based, the transaction id being the first) on the current page. */
const column = (page: Page, n: number) => bodyRows(page).locator(`:scope > :nth-child(${n})`);

test('KPI cards and chart; graph type and range change the request and the labels', async ({ page }) => {
  await signIn(page, 'operator');

  await expect(page.getByTestId('kpi-energy')).toContainText(/Geladene Energie\s*[\d.]+,\d{2}\s*kWh/);
  await expect(page.getByTestId('kpi-revenue')).toContainText(/Gesamtumsatz\s*[\d.]+,\d{2}\s*€/);
  await expect(page.getByTestId('kpi-licenses')).toContainText(/Ladestationslizenzen\s*\d+/);
  await expect(page.getByTestId('kpi-users')).toContainText(/Nutzer gesamt\s*\d+/);
  await expect(page.getByRole('img', { name: /^Diagramm: Geladene Menge, letzte 7 Tage/ })).toBeVisible();
  await expect(page.getByTestId('chart-table').locator('tbody tr')).toHaveCount(7);

  const usersRequest = page.waitForRequest((r) => r.url().includes('/bff/kpi/get-graph') && r.url().includes('graphType=ACTIVE_USERS'));
  await page.getByRole('radio', { name: 'Aktive Nutzer' }).click();
  await usersRequest;
  await expect(page.getByRole('img', { name: /^Diagramm: Aktive Nutzer, letzte 7 Tage/ })).toBeVisible();
  await expect(page.getByTestId('chart-table')).toContainText('Aktive Nutzer');

  const monthsRequest = page.waitForRequest((r) => r.url().includes('/bff/kpi/get-graph') && r.url().includes('unit=MONTHS'));
  await page.getByRole('radio', { name: '12 Monate' }).click();
  const url = new URL((await monthsRequest).url());
  expect(url.searchParams.get('startDate')).toMatch(/^\d{4}-\d{2}-01$/);
  const table = page.getByTestId('chart-table');
  await expect(table.locator('tbody tr')).toHaveCount(12);
  const thisMonth = GERMAN_MONTHS[new Date().getMonth()];
  await expect(table.locator('tbody tr').last()).toContainText(new RegExp(`^${thisMonth} \\d{4}`));
  await expect(table.locator('thead')).toContainText('Monat');

  // The table alternative can also be shown on screen.
  await page.getByRole('button', { name: 'Als Tabelle anzeigen' }).click();
  await expect(table).toBeVisible();
  await expect(table).toContainText(`${thisMonth} `);
});

test('search by end customer id: typed digits get their dashes, results are filtered', async ({ page }) => {
  await signIn(page, 'operator');
  await expect(bodyRows(page).first()).toBeVisible();
  const id = (await column(page, 2).first().innerText()).trim();
  expect(id).toMatch(/^\d{3}-\d{5}-\d{3}$/);

  await page.getByRole('button', { name: /Suchen nach/ }).click();
  await page.getByRole('option', { name: 'Endkunden-ID' }).click();
  const field = page.getByRole('textbox', { name: 'Endkunden-ID' });
  await field.pressSequentially(id.replace(/-/g, ''));
  await expect(field).toHaveValue(id);

  const request = page.waitForRequest((r) => r.url().includes('/get-charging-history') && r.url().includes(`endCustomerId=${id}`));
  await page.getByRole('button', { name: 'Suchen', exact: true }).click();
  await request;
  // The previous page stays on screen until the filtered answer arrives, so wait for the rows to turn.
  await expect
    .poll(async () => {
      const ids = (await column(page, 2).allInnerTexts()).map((c) => c.trim());
      return ids.length > 0 && ids.every((cell) => cell === id);
    })
    .toBe(true);

  // Reset brings back everyone.
  await page.getByRole('button', { name: 'Zurücksetzen' }).click();
  await expect(field).toHaveCount(0);
  await expect.poll(async () => new Set((await column(page, 2).allInnerTexts()).map((s) => s.trim())).size).toBeGreaterThan(1);
});

test('paging: page 2 shows other rows, newest first', async ({ page }) => {
  await signIn(page, 'admin');
  await expect(bodyRows(page)).toHaveCount(10);
  const firstPage = await bodyRows(page).getByRole('rowheader').allInnerTexts();
  expect([...firstPage].sort().reverse()).toEqual(firstPage);

  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await expect(page.getByText('Seite 2 von')).toBeVisible();
  await expect(bodyRows(page).first().getByRole('rowheader')).not.toHaveText(firstPage[0]);
  const secondPage = await bodyRows(page).getByRole('rowheader').allInnerTexts();
  expect(secondPage.some((id) => firstPage.includes(id))).toBe(false);
  // Newest first across pages: every id on page 2 is older (smaller) than the last on page 1.
  expect(secondPage[0] < firstPage[firstPage.length - 1]).toBe(true);
});

test('status filter narrows the table to the chosen statuses', async ({ page }) => {
  await signIn(page, 'admin');
  await expect(bodyRows(page).first()).toBeVisible();
  const request = page.waitForRequest((r) => r.url().includes('/get-charging-history') && r.url().includes('filters=Completed'));
  await page.getByRole('button', { name: /^Status/ }).click();
  await page.getByRole('option', { name: 'Abgeschlossen' }).click();
  await page.keyboard.press('Escape');
  await request;
  await expect.poll(async () => [...new Set(await column(page, 9).allInnerTexts())]).toEqual(['Beendet']);
});

test('admin: clean needs a threshold above 0, then reports the changed count and refreshes', async ({ page }) => {
  await signIn(page, 'admin');
  await page.getByRole('button', { name: 'Ladevorgänge bereinigen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ladevorgänge bereinigen' });
  const threshold = dialog.getByRole('textbox', {
    name: /Schwellenwert in Minuten/,
  });
  const action = dialog.getByRole('button', { name: 'Bereinigen' });
  await expect(action).toBeDisabled();
  await threshold.fill('0');
  await expect(action).toBeDisabled();
  await threshold.fill('1');
  await expect(action).toBeEnabled();

  const refetch = page.waitForRequest((r) => r.url().includes('/get-charging-history'));
  const kpis = page.waitForRequest((r) => r.url().includes('/kpi/get-graph'));
  await action.click();
  const outcome = page.getByRole('alertdialog', {
    name: 'Bereinigung abgeschlossen',
  });
  await expect(outcome).toContainText(/(\d+ Ladevorg(ang|änge) (wurde|wurden) geändert|Es wurden keine Ladevorgänge geändert)\./);
  await refetch;
  await kpis;
  await outcome.getByRole('button', { name: 'OK' }).click();
  await expect(outcome).toBeHidden();
});

test('operators do not see the clean action', async ({ page }) => {
  await signIn(page, 'operator');
  await expect(page.getByRole('heading', { name: 'Ladevorgänge' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Ladevorgänge bereinigen' })).toHaveCount(0);
});

test('the cockpit has no serious accessibility violations, also with the clean dialog open', async ({ page }) => {
  // Right after sign-in, without a reload: the sign-in button's pending announcement is gone with it.
  await signIn(page, 'admin');
  await expect(page.getByRole('img', { name: /^Diagramm:/ })).toBeVisible();
  await expect(bodyRows(page).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByRole('button', { name: 'Ladevorgänge bereinigen' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});

test('offline: the cached KPIs, chart and table page stay, with how old they are', async ({ page, context }) => {
  await signIn(page, 'operator');
  await waitForServiceWorker(page);
  await expect(bodyRows(page).first()).toBeVisible();
  await expect(page.getByTestId('kpi-energy')).toContainText('kWh');
  // The persister writes at most once a second.
  await page.waitForTimeout(1_500);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByTestId('kpi-energy')).toContainText(/[\d.]+,\d{2}\s*kWh/);
  await expect(page.getByRole('img', { name: /^Diagramm:/ })).toBeVisible();
  await expect(bodyRows(page)).toHaveCount(10);
  // Offline data says it is offline and when it was fetched, never 'now' alone.
  await expect(page.getByTestId('data-age').first()).toHaveText(/^Offline · Stand: \d{2}:\d{2} \((jetzt|vor \d+ (Minute|Minuten))\)$/);
  await context.setOffline(false);
});
