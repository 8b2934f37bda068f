import { expect, test, type Locator } from '@playwright/test';
import { bearer, signIn } from './helpers';

test.use({ viewport: { width: 768, height: 1024 } });

/** The element lies inside the window, and its table does not scroll sideways. */
async function expectInView(cell: Locator) {
  await expect(cell).toBeVisible();
  const box = (await cell.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(768);
  const grid = cell.locator('xpath=ancestor::*[@role="grid"]/..');
  const [scroll, client] = await grid.evaluate((el) => [el.scrollWidth, el.clientWidth]);
  expect(scroll, 'the table scrolls sideways').toBeLessThanOrEqual(client + 1);
}

test('at 768 px portrait the status of the first row shows without sideways scrolling: cockpit, stations, a station’s history', async ({
  page,
}) => {
  await signIn(page, 'admin');
  const cockpitTable = page.getByRole('grid', { name: 'Ladevorgänge', exact: true });
  await expectInView(cockpitTable.getByRole('row').nth(1).getByRole('gridcell').last());

  await page.goto('/stationen');
  const status = page.getByTestId('station-status').first();
  await expectInView(status);

  // A station with a completed session in the last 7 days, so its history has a first row.
  const end = new Date();
  const start = new Date(end.getTime() - 6 * 86_400_000);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const res = await page.request.get(
    `/booking-service/bookings/get-charging-history?filters=Completed&startDate=${day(start)}&endDate=${day(end)}&page=0&size=1`,
    { headers: { Authorization: await bearer(page) } },
  );
  const [session] = ((await res.json()) as { data: { response: { connectorId: string }[] } }).data.response;
  expect(session, 'a completed session this week in the demo data').toBeTruthy();
  await page.goto(`/stationen/${encodeURIComponent(session!.connectorId)}`);
  const history = page.getByRole('grid', { name: 'Erfolgreiche Ladevorgänge' });
  await expectInView(history.getByRole('row').nth(1).getByRole('gridcell').last());

  await page.goto('/standorte');
  await expectInView(page.getByRole('link', { name: /Details/ }).first());
});
