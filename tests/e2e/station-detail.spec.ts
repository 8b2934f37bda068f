import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './helpers';

interface ConnectorRow {
  connectorId: string;
  cpId: string;
  locationName: string | null;
}

/** One connector of the signed-in operator, asked from the API with the page's own bearer. */
async function firstConnector(page: Page): Promise<ConnectorRow> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(token).toBeTruthy();
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=1', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as { data: { response: ConnectorRow[] } };
  const row = body.data.response[0];
  expect(row).toBeTruthy();
  return row!;
}

const isHistoryRequest = (url: string) => url.includes('/booking-service/bookings/get-charging-history');

test('operator opens a station, sees its cards and KPIs, changes the date range and sees the table', async ({ page }) => {
  await signIn(page, 'operator');
  const connector = await firstConnector(page);
  const shownId = connector.connectorId.slice(connector.connectorId.lastIndexOf('_') + 1);

  // The cockpit signIn lands on may still be asking for its own (unfiltered) history: wait for the
  // first history request that names a connector.
  const firstHistory = page.waitForRequest((r) => isHistoryRequest(r.url()) && new URL(r.url()).searchParams.has('connectorId'));
  await page.goto(`/stationen/${encodeURIComponent(connector.connectorId)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(connector.cpId);

  // The history asks for this connector's completed requests of the last 7 days.
  const url = new URL((await firstHistory).url());
  expect(url.searchParams.get('connectorId')).toBe(connector.connectorId);
  expect(url.searchParams.get('filters')).toBe('Completed');
  const start = url.searchParams.get('startDate')!;
  const end = url.searchParams.get('endDate')!;
  expect(Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000)).toBe(7);

  const info = page.getByRole('region', { name: 'Informationen zur Ladestation' });
  await expect(info).toContainText('Stations-ID');
  await expect(info).toContainText(connector.cpId);
  // The connector's own number, right after its label (a parking lot may read the same).
  await expect(info.locator('dt', { hasText: 'Ladepunkt' }).locator('xpath=following-sibling::dd[1]')).toHaveText(shownId);
  for (const label of ['Standort-ID', 'Standortname', 'Adresse', 'Parkplatz', 'Wallbox-Modell', 'Online seit']) {
    await expect(info.getByText(label, { exact: true })).toBeVisible();
  }

  const status = page.getByRole('region', { name: 'Aktueller Status' });
  await expect(status.getByText('Letztes Lebenszeichen')).toBeVisible();
  await expect(page.getByTestId('kpi-energy')).toContainText('kWh');
  await expect(page.getByTestId('kpi-revenue')).toContainText('€');

  const grid = page.getByRole('grid', { name: 'Erfolgreiche Ladevorgänge' });
  await expect(grid).toBeVisible();
  await expect(grid.getByRole('columnheader', { name: /Transaktions-ID/ })).toBeVisible();

  // One year further back: a new request with the new start, same connector.
  const nextHistory = page.waitForRequest((r) => isHistoryRequest(r.url()) && new URL(r.url()).searchParams.get('startDate') !== start);
  const startYear = page.locator('[role=spinbutton][data-type=year]').first();
  await startYear.click();
  await page.keyboard.press('ArrowDown');
  const next = new URL((await nextHistory).url());
  expect(next.searchParams.get('startDate')).toBe(`${Number(start.slice(0, 4)) - 1}${start.slice(4)}`);
  expect(next.searchParams.get('connectorId')).toBe(connector.connectorId);
  expect(next.searchParams.get('page')).toBe('0');
  await expect(grid).toBeVisible();

  await page.setViewportSize({ width: 1024, height: 768 });
  await expect(page.locator('[data-live-announcer] [role=img]')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/station-detail-de-1024.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('link', { name: 'Zurück zu den Ladestationen' }).click();
  await expect(page).toHaveURL(/\/stationen\/?$/);
});

test('an unknown station says it does not exist and leads back to the list', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/stationen/XYZ_9');
  const alert = page.getByRole('alert').filter({ hasText: 'Diese Ladestation gibt es nicht, oder sie gehört nicht zu Ihren Betreibern.' });
  await expect(alert).toBeVisible();
  await expect(page.getByText('Der Server ist gerade nicht erreichbar')).toHaveCount(0);
  await alert.getByRole('link', { name: 'Zurück zu den Ladestationen' }).click();
  await expect(page).toHaveURL(/\/stationen$/);
});

/** Connectors of the signed-in user with their status and lot, to pick one in a given state. */
async function connectors(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=100', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  const body = (await res.json()) as {
    data: { response: Array<{ connectorId: string; connectorStatus: string; address: { parkingLot: string | null } }> };
  };
  return body.data.response;
}

test('the Actions menu opens the parking-lot modal for an active station and warns for an inactive one', async ({ page }) => {
  await signIn(page, 'admin');
  const rows = await connectors(page);
  const active = rows.find((r) => r.connectorStatus === 'IDLE' && r.address.parkingLot);
  const inactive = rows.find((r) => r.connectorStatus === 'INACTIVE');
  expect(active && inactive).toBeTruthy();

  await page.goto(`/stationen/${encodeURIComponent(active!.connectorId)}`);
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: 'Parkplatz zuweisen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Parkplatz zuweisen');
  await expect(dialog.getByRole('button', { name: 'Weiter' })).toBeDisabled();
  await page.keyboard.press('Escape');

  await page.goto(`/stationen/${encodeURIComponent(inactive!.connectorId)}`);
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: 'Parkplatz zuweisen' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Inaktive Ladestationen können nicht bearbeitet werden');
  await page.getByRole('button', { name: 'OK' }).click();
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: 'Status ändern' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Standby oder Aktiv');
});
