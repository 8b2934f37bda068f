import { expect, test, type Page } from '@playwright/test';
import { bearer, rowOf, signIn } from './helpers';

interface ListRow {
  connectorId: string;
  locationId: string | null;
  connectorStatus: string;
  address: { parkingLot: string | null };
}

/** 'Aktiv: 3' → 3 in the location's "stations by status" list; 0 when the status has no entry. */
async function countOf(page: Page, label: string): Promise<number> {
  const list = page.getByRole('list', { name: 'Ladestationen nach Status' });
  await expect(list).toBeVisible();
  const item = list.getByText(new RegExp(`^${label}: \\d+$`));
  if ((await item.count()) === 0) return 0;
  return Number((await item.textContent())!.split(': ')[1]);
}

test("a location page's status counts follow a status change made on it", async ({ page }) => {
  await signIn(page, 'operator');
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=100', { headers: { Authorization: await bearer(page) } });
  const rows = ((await res.json()) as { data: { response: ListRow[] } }).data.response;
  const target = rows.find((r) => r.connectorStatus === 'IDLE' && r.locationId);
  expect(target, 'an active connector with a location in the demo data').toBeTruthy();

  await page.goto(`/standorte/${encodeURIComponent(target!.locationId!)}`);
  // Standby without a parking lot reads 'Verknüpft (Parkplatz hinterlegen)' (spec 2 §3).
  const after = target!.address.parkingLot ? 'Standby' : 'Verknüpft (Parkplatz hinterlegen)';
  const active = await countOf(page, 'Aktiv');
  const before = await countOf(page, after);
  expect(active).toBeGreaterThan(0);

  await rowOf(page, target!.connectorId).getByRole('gridcell').first().click();
  await page.getByRole('button', { name: 'Status ändern' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: 'Standby' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();

  // Without a reload: the counts and the row follow the change.
  await expect.poll(() => countOf(page, 'Aktiv'), { timeout: 15_000 }).toBe(active - 1);
  await expect.poll(() => countOf(page, after)).toBe(before + 1);
  await expect(rowOf(page, target!.connectorId).getByTestId('station-status')).toHaveText(after);
});
