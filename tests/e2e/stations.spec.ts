import { expect, test } from '@playwright/test';
import {
  assignLots,
  changeable,
  connector,
  expectNoSeriousA11yViolations,
  firstPage,
  freshLot,
  rowOf,
  signIn,
  waitForServiceWorker,
  type ConnectorRow,
} from './helpers';

test('operator assigns parking lots and changes a status; offline the write waits in the outbox', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const candidates = (await firstPage(page)).filter(changeable);
  expect(candidates.length).toBeGreaterThanOrEqual(3);
  const [a, b, c] = candidates as [ConnectorRow, ConnectorRow, ConnectorRow];

  await page.goto('/stationen');
  await expect(page.getByRole('heading', { name: 'Ladestationen', level: 1 })).toBeVisible();
  await expect(rowOf(page, a.connectorId)).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Nothing selected → warning.
  await page.getByRole('button', { name: 'Parkplatz zuweisen' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Bitte wählen Sie mindestens eine Ladestation aus');
  await page.getByRole('button', { name: 'OK' }).click();

  // Two lots online: each connector changes exactly once.
  const lots = { [a.connectorId]: freshLot(1), [b.connectorId]: freshLot(2) };
  await assignLots(page, lots);
  await expect.poll(async () => (await connector(page, a.connectorId)).address.parkingLot).toBe(lots[a.connectorId]);
  await expect.poll(async () => (await connector(page, b.connectorId)).address.parkingLot).toBe(lots[b.connectorId]);
  expect((await connector(page, a.connectorId)).version).toBe(a.version + 1);
  expect((await connector(page, b.connectorId)).version).toBe(b.version + 1);
  // The list refreshes (outbox effect) and the pending chips go away.
  await expect(rowOf(page, a.connectorId).getByTestId('station-parking-lot')).toHaveText(lots[a.connectorId]!);
  await expect(rowOf(page, a.connectorId).getByTestId('station-pending')).toHaveCount(0);

  // Status of one connector: switch to the other settable status.
  const target = a.connectorStatus === 'IDLE' ? 'CONNECTED_UNAVAILABLE' : 'IDLE';
  await rowOf(page, a.connectorId).getByRole('gridcell').first().click();
  await page.getByRole('button', { name: 'Status ändern' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: target === 'IDLE' ? 'Aktiv' : 'Standby' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect.poll(async () => (await connector(page, a.connectorId)).connectorStatus).toBe(target);
  await expect(rowOf(page, a.connectorId).getByTestId('station-status')).toHaveText(target === 'IDLE' ? 'Aktiv' : 'Standby');

  // Offline: the write is stored, shown as pending, survives a reload and arrives once online.
  await waitForServiceWorker(page);
  await page.waitForTimeout(1_500); // the persister writes at most once a second
  await context.setOffline(true);
  await page.reload();
  await expect(rowOf(page, c.connectorId)).toBeVisible();
  const offlineLot = freshLot(3);
  await assignLots(page, { [c.connectorId]: offlineLot });
  await expect(rowOf(page, c.connectorId).getByTestId('station-pending')).toHaveText('ausstehend');
  await expect(page.getByRole('button', { name: 'Ausgang, 1 Änderung ausstehend' })).toBeVisible();
  await page.reload();
  await expect(rowOf(page, c.connectorId).getByTestId('station-pending')).toHaveText('ausstehend');
  await expect(page.getByRole('button', { name: 'Ausgang, 1 Änderung ausstehend' })).toBeVisible();
  await context.setOffline(false);
  await expect.poll(async () => (await connector(page, c.connectorId)).address.parkingLot, { timeout: 30_000 }).toBe(offlineLot);
  expect((await connector(page, c.connectorId)).version).toBe(c.version + 1);
  await expect(rowOf(page, c.connectorId).getByTestId('station-pending')).toHaveCount(0, { timeout: 15_000 });
});

test('admin creates stations through the menu; an operator gets the form directly', async ({ page }) => {
  await signIn(page, 'admin');
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  // The location list is loaded first, in the same page load: its station count must follow.
  await nav.getByRole('link', { name: 'Standorte' }).click();
  const grid = page.getByRole('grid', { name: 'Standortliste' });
  const locationRow = grid.locator('tbody tr').first();
  await expect(locationRow).toBeVisible();
  const column = (await grid.getByRole('columnheader').allInnerTexts()).findIndex((h) => h.trim() === 'Ladestationen');
  const stationsCell = locationRow.locator('td, th').nth(column);
  const locationId = (await locationRow.locator('td, th').first().innerText()).trim();
  const countBefore = Number(await stationsCell.innerText());
  await nav.getByRole('link', { name: 'Ladestationen' }).click();
  await page.getByRole('button', { name: 'Ladestationen anlegen' }).click();
  await page.getByRole('menuitem', { name: 'Per Formular anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: /Ladestationen anlegen/ });
  const next = dialog.getByRole('button', { name: 'Weiter' });
  await expect(next).toBeDisabled();
  await dialog.getByRole('button', { name: /Ladestationsmodell\*?$/ }).click();
  await page.getByRole('option').first().click();
  await dialog.getByRole('button', { name: /Standort\*?$/ }).click();
  const option = page.getByRole('option', { name: new RegExp(`^${locationId}: `) });
  const locationLabel = (await option.innerText()).trim();
  await option.click();
  await expect(next).toBeEnabled();
  await next.click();
  // The confirm step names the location 'Name (L10019)', not the select's 'L10019: Name'.
  const locationName = locationLabel.slice(`${locationId}: `.length);
  await expect(dialog).toContainText(`${locationName} (${locationId})`);
  const posted = page.waitForResponse((r) => r.url().includes('/bff/connectors/create-cp') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  const { connectorIds } = ((await (await posted).json()) as { data: { connectorIds: string[] } }).data;
  const created = page.getByRole('alertdialog', { name: 'Ladestationen angelegt' });
  await expect(created.getByTestId('created-stations-id')).toHaveText(`Standort-ID: ${locationLabel.split(':')[0]}`);
  const cpId = /Neue Ladestationen: (\S+)/.exec(await created.innerText())![1]!;
  await created.getByRole('button', { name: 'OK' }).click();

  const cpFilter = page.getByRole('searchbox', { name: 'Ladestations-ID' });
  await cpFilter.fill(cpId);
  await cpFilter.press('Enter');
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: cpId }) });
  await expect(row.first()).toContainText('Inaktiv');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);

  // Back on the location list (no reload): the location counts its new connectors.
  await nav.getByRole('link', { name: 'Standorte' }).click();
  await expect(locationRow.locator('td, th').first()).toHaveText(locationId);
  await expect(stationsCell).toHaveText(String(countBefore + connectorIds.length));

  // An operator has no menu: the button opens the form.
  await page.getByRole('button', { name: /Abmelden/ }).click();
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, 'operator');
  await page.goto('/stationen');
  await page.getByRole('button', { name: 'Ladestationen anlegen' }).click();
  await expect(page.getByRole('dialog', { name: /Ladestationen anlegen/ })).toBeVisible();
  await expect(page.getByRole('menu')).toHaveCount(0);
});
