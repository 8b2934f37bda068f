import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn, waitForServiceWorker } from './helpers';

interface ConnectorRow {
  connectorId: string;
  cpId: string;
  connectorStatus: string;
  address: { parkingLot: string | null };
  version: number;
}

async function bearer(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(token).toBeTruthy();
  return `Bearer ${token}`;
}

/** The first page of the list as the UI asks for it (same order, same size). */
async function firstPage(page: Page): Promise<ConnectorRow[]> {
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=10', { headers: { Authorization: await bearer(page) } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { response: ConnectorRow[] } }).data.response;
}

async function connector(page: Page, id: string): Promise<ConnectorRow> {
  const res = await page.request.get(`/bff/connectors/${encodeURIComponent(id)}`, { headers: { Authorization: await bearer(page) } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: ConnectorRow }).data;
}

const changeable = (c: ConnectorRow) => c.connectorStatus === 'IDLE' || (c.connectorStatus === 'CONNECTED_UNAVAILABLE' && !!c.address.parkingLot);

const rowOf = (page: Page, connectorId: string) =>
  page.getByRole('row').filter({ has: page.getByRole('link', { name: `Details zu Ladepunkt ${connectorId}`, exact: true }) });

/** A fresh lot (≤ 5 characters) unlikely to collide with the seed's. */
const freshLot = (n: number) => `Z${(Date.now() + n).toString(36).slice(-3).toUpperCase()}${n}`;

async function assignLots(page: Page, lots: Record<string, string>) {
  for (const id of Object.keys(lots)) await rowOf(page, id).getByRole('gridcell').first().click();
  await page.getByRole('button', { name: 'Parkplatz zuweisen' }).click();
  const dialog = page.getByRole('dialog');
  const fields = dialog.getByRole('textbox');
  await expect(fields).toHaveCount(Object.keys(lots).length);
  for (const [id, lot] of Object.entries(lots)) {
    const shown = id.slice(id.lastIndexOf('_') + 1);
    const cpId = id.slice(0, id.lastIndexOf('_'));
    await dialog.getByLabel(`Parkplatz für ${cpId} · Ladepunkt ${shown}`).fill(lot);
  }
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

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
