import { expect, test, type Page } from '@playwright/test';
import { assignLotOnDetail, bearer, connector, freshLot, rowOf, signIn, someConnectors, waitForServiceWorker } from './helpers';

interface ListRow {
  connectorId: string;
  locationId: string | null;
  connectorStatus: string;
  address: { parkingLot: string | null };
}

/** 'Aktiv: 3' → 3 in the location's "stations by status" list; 0 when the status has no entry. */
async function countOf(page: Page, label: string): Promise<number> {
  const list = page.getByRole('list', { name: 'Ladepunkte nach Status' });
  await expect(list).toBeVisible();
  // One read of all entries: an entry may vanish while it is read (its count went to 0).
  const entry = (await list.getByRole('listitem').allTextContents())
    .map((text) => text.trim())
    .find((text) => text.startsWith(`${label}: `));
  return entry ? Number(entry.slice(label.length + 2)) : 0;
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

test('a write replayed after a reload on another screen refreshes the station it changed, also in the offline copy', async ({
  page,
  context,
}) => {
  await signIn(page, 'operator');
  await waitForServiceWorker(page);
  const rows = await someConnectors(page);
  // Any connector with a lot that takes a new one (all but INACTIVE, spec 2 §4): earlier tests may
  // have put the seed's active ones to Standby.
  const target = rows.find((r) => r.connectorStatus !== 'INACTIVE' && r.address.parkingLot);
  expect(target, 'a connector with a lot in the demo data').toBeTruthy();
  const lot = freshLot(7);
  const url = `/stationen/${encodeURIComponent(target!.connectorId)}`;
  await page.goto(url);
  await expect(page.getByRole('main')).toContainText(target!.address.parkingLot!);
  await expect.poll(() => persistedCache(page), { timeout: 15_000 }).toContain(`"stations","detail"`);

  // Offline on the station: the lot waits in the outbox, and the user is told so.
  await context.setOffline(true);
  await assignLotOnDetail(page, lot);
  await expect(page.getByText('wird gesendet, sobald Sie online sind')).toBeVisible();

  // Online again, but on the cockpit after a reload: the replay happens there.
  await page.goto('/cockpit');
  await context.setOffline(false);
  await page.reload();
  await expect.poll(async () => (await connector(page, target!.connectorId)).address.parkingLot, { timeout: 20_000 }).toBe(lot);

  // The station's query was refetched though its screen was not open, and the kept copy has it ...
  await expect.poll(() => persistedCache(page), { timeout: 15_000 }).toContain(`"parkingLot":"${lot}"`);
  // ... so back on the station, offline, the new lot shows, not the old one.
  await context.setOffline(true);
  await page.goto(url);
  await expect(page.getByRole('main')).toContainText(lot, { timeout: 15_000 });
  await context.setOffline(false);
});

/** The kept offline copy of the query cache (src/offline/persister.ts) as stored. */
function persistedCache(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('cpo-cockpit');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const get = open.result.transaction('query-cache').objectStore('query-cache').get('query-client');
          get.onsuccess = () => resolve(String(get.result ?? ''));
          get.onerror = () => reject(get.error);
        };
      }),
  );
}

test('online, a saved lot shows on the station page at once with "Gespeichert"', async ({ page }) => {
  await signIn(page, 'admin');
  const rows = await someConnectors(page);
  const target = rows.find((r) => r.connectorStatus === 'IDLE' && r.address.parkingLot);
  const lot = freshLot(8);
  await page.goto(`/stationen/${encodeURIComponent(target!.connectorId)}`);
  await assignLotOnDetail(page, lot);
  await expect(page.getByText('Gespeichert.')).toBeVisible();
  await expect(page.getByRole('main')).toContainText(lot);
});
