import { expect, test, type Page } from '@playwright/test';
import { SignJWT, decodeJwt } from 'jose';
import {
  assignLotOnDetail,
  assignLots,
  bearer,
  changeable,
  connector,
  freshLot,
  rowOf,
  setStoredTokens,
  signIn,
  waitForServiceWorker,
  type ConnectorRow,
} from './helpers';

/**
 * Issue 3, the field operator in the car park: everything here runs against the real server, and
 * "arrived exactly once" is checked through the API (each write bumps the connector's version by one).
 */

interface LocationRow {
  locationId: string;
  locationName: string;
}

const outboxButton = (page: Page) => page.getByRole('button', { name: /^Ausgang,/ });

/** The first page of a location's stations, as the location page asks for it. */
async function stationsAt(page: Page, locationId: string): Promise<ConnectorRow[]> {
  const res = await page.request.get(`/bff/connectors/get-by-cpo?page=0&size=10&locationId=${encodeURIComponent(locationId)}`, {
    headers: { Authorization: await bearer(page) },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { response: ConnectorRow[] } }).data.response;
}

/** A location of the operator whose first page has an Active connector with a lot plus another changeable one. */
async function fieldLocation(page: Page): Promise<{ location: LocationRow; lotsFor: [ConnectorRow, ConnectorRow] }> {
  const res = await page.request.get('/bff/locations/get-by-cpo?page=0&size=100', { headers: { Authorization: await bearer(page) } });
  expect(res.ok()).toBe(true);
  const locations = ((await res.json()) as { data: { response: LocationRow[] } }).data.response;
  for (const location of locations) {
    const rows = (await stationsAt(page, location.locationId)).filter(changeable);
    const active = rows.find((r) => r.connectorStatus === 'IDLE' && r.address.parkingLot);
    const other = rows.find((r) => r !== active);
    if (active && other) return { location, lotsFor: [active, other] };
  }
  throw new Error('The seed has no location with two changeable connectors for the operator');
}

async function setStatus(page: Page, connectorId: string, label: 'Aktiv' | 'Standby') {
  await rowOf(page, connectorId).getByRole('gridcell').first().click();
  await page.getByRole('button', { name: 'Status ändern' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: label }).check({ force: true });
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

/** Lets the query persister write its (throttled) snapshot to IndexedDB. */
const persisted = (page: Page) => page.waitForTimeout(1_500);

test('field operator: a location and its stations offline, two lots and a Standby queued across reloads, each arrives exactly once, in order', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'operator');
  const { location, lotsFor } = await fieldLocation(page);
  // a gets a lot and then Standby (two queued writes on one connector, the second built on the first).
  const [a, b] = lotsFor;
  const standby = a;

  // Online: the list, then the location with its stations (the default view) and its users.
  await page.goto('/standorte');
  const nameFilter = page.getByRole('searchbox', { name: 'Standortname' });
  await nameFilter.fill(location.locationName);
  await nameFilter.press('Enter');
  await page
    .getByRole('link', { name: `Details zu ${location.locationName}` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/standorte/${location.locationId}$`));
  await expect(page.getByRole('heading', { level: 1, name: location.locationName })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Ladestationen' })).toHaveAttribute('aria-selected', 'true');
  await expect(rowOf(page, a.connectorId)).toBeVisible();
  await page.getByRole('tab', { name: 'Nutzer' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Nutzer' })).toBeVisible();
  await page.getByRole('tab', { name: 'Ladestationen' }).click();
  await expect(rowOf(page, standby.connectorId)).toBeVisible();
  // One of its stations, and back.
  await rowOf(page, a.connectorId)
    .getByRole('link', { name: `Details zu Ladepunkt ${a.connectorId}` })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(a.cpId);
  await page.goBack();
  await expect(rowOf(page, a.connectorId)).toBeVisible();
  await waitForServiceWorker(page);
  await expect(rowOf(page, a.connectorId)).toBeVisible();
  await persisted(page);

  // Offline, reload: the cached location and its stations, each saying how old they are.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: location.locationName })).toBeVisible();
  await expect(rowOf(page, a.connectorId)).toBeVisible();
  await expect(page.getByTestId('data-age').first()).toContainText('Stand:');
  await expect(page.getByTestId('data-age')).toHaveCount(2);

  // Two lots (one all-or-nothing write for the selection) and one Standby, all while offline.
  const lots = { [a.connectorId]: freshLot(4), [b.connectorId]: freshLot(5) };
  await assignLots(page, lots);
  await setStatus(page, standby.connectorId, 'Standby');
  for (const id of [a.connectorId, b.connectorId]) {
    await expect(rowOf(page, id).getByTestId('station-pending')).toHaveText('ausstehend');
  }
  await expect(outboxButton(page)).toHaveAccessibleName('Ausgang, 2 Änderungen ausstehend');

  // Reload again, still offline: the outbox still holds the three writes.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: location.locationName })).toBeVisible();
  await expect(outboxButton(page)).toHaveAccessibleName('Ausgang, 2 Änderungen ausstehend');
  await outboxButton(page).click();
  const outbox = page.getByRole('dialog', { name: 'Ausstehende Änderungen' });
  await expect(outbox.getByRole('listitem')).toHaveCount(2);
  await expect(outbox).toContainText(`${a.connectorId} → ${lots[a.connectorId]}`);
  await expect(outbox).toContainText(`${b.connectorId} → ${lots[b.connectorId]}`);
  await expect(outbox).toContainText(`Status Standby für ${standby.connectorId}`);
  await page.keyboard.press('Escape');

  // The other screens seen online open offline too, each with its age: the location list and the station.
  await page.goto('/standorte');
  await expect(
    page
      .getByRole('grid', { name: 'Standortliste' })
      .getByRole('link', { name: /^Details zu / })
      .first(),
  ).toBeVisible();
  await expect(page.getByTestId('data-age').first()).toContainText('Stand:');
  await page.goto(`/stationen/${encodeURIComponent(a.connectorId)}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(a.cpId);
  await expect(page.getByTestId('data-age').first()).toContainText('Stand:');
  await page.goto(`/standorte/${location.locationId}`);
  await expect(rowOf(page, a.connectorId)).toBeVisible();

  // Online: each change arrives, exactly once (version + 1), and the screen catches up.
  await context.setOffline(false);
  await expect.poll(async () => (await connector(page, a.connectorId)).address.parkingLot, { timeout: 30_000 }).toBe(lots[a.connectorId]);
  await expect.poll(async () => (await connector(page, b.connectorId)).address.parkingLot, { timeout: 30_000 }).toBe(lots[b.connectorId]);
  await expect
    .poll(async () => (await connector(page, standby.connectorId)).connectorStatus, { timeout: 30_000 })
    .toBe('CONNECTED_UNAVAILABLE');
  await expect(outboxButton(page)).toHaveAccessibleName('Ausgang, nichts ausstehend', { timeout: 15_000 });
  expect((await connector(page, a.connectorId)).version).toBe(a.version + 2);
  expect((await connector(page, b.connectorId)).version).toBe(b.version + 1);
  expect((await connector(page, a.connectorId)).address.parkingLot).toBe(lots[a.connectorId]);
  await expect(rowOf(page, standby.connectorId).getByTestId('station-status')).toHaveText('Standby');
  await expect(rowOf(page, a.connectorId).getByTestId('station-parking-lot')).toHaveText(lots[a.connectorId]!);
});

test('a queued write that meets a connector changed meanwhile fails with what changed, and overwrites nothing', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const { location, lotsFor } = await fieldLocation(page);
  const x = lotsFor[0];
  await page.goto(`/standorte/${location.locationId}`);
  await expect(rowOf(page, x.connectorId)).toBeVisible();

  // Offline, the operator assigns a lot and then sets Standby; both wait, the second built on the first.
  await context.setOffline(true);
  const mine = freshLot(6);
  await assignLots(page, { [x.connectorId]: mine });
  await setStatus(page, x.connectorId, 'Standby');
  await expect(rowOf(page, x.connectorId).getByTestId('station-pending')).toHaveText('ausstehend');
  await expect(outboxButton(page)).toHaveAccessibleName('Ausgang, 2 Änderungen ausstehend');

  // Meanwhile a colleague assigns another lot on the server.
  const theirs = freshLot(7);
  const res = await request.put('/bff/connectors/update-parking-lots', {
    headers: { Authorization: await bearer(page), 'Idempotency-Key': crypto.randomUUID() },
    data: [{ connectorId: x.connectorId, cpId: x.cpId, locationId: location.locationId, parkingLotNumber: theirs }],
  });
  expect(res.status()).toBe(200);

  // Back online: refused with 409, parked as failed with what the server has now; so is the Standby
  // made on top of it (its version would match the colleague's change and overwrite it unseen).
  await context.setOffline(false);
  await expect(rowOf(page, x.connectorId).getByTestId('station-pending')).toHaveText('fehlgeschlagen', { timeout: 30_000 });
  await outboxButton(page).click();
  const outbox = page.getByRole('dialog', { name: 'Ausstehende Änderungen' });
  const item = outbox.getByRole('listitem').filter({ hasText: `Parkplatz ${mine} für ${x.connectorId}` });
  await expect(item).toContainText('Fehlgeschlagen');
  await expect(item).toContainText(`Zwischenzeitlich auf dem Server geändert: Parkplatz ${theirs}`);
  await expect(item).toContainText(`(Version ${x.version + 1})`);
  const follower = outbox.getByRole('listitem').filter({ hasText: `Status Standby für ${x.connectorId}` });
  await expect(follower).toContainText('Fehlgeschlagen');
  await expect(follower).toContainText(`Zwischenzeitlich auf dem Server geändert: Parkplatz ${theirs}`);

  // Discarding the first does not send the second; discarding both clears the outbox.
  await item.getByRole('button', { name: `Verwerfen: Parkplatz ${mine} für ${x.connectorId}` }).click();
  await outbox.getByRole('button', { name: 'Änderung verwerfen' }).click();
  await expect(outbox.getByRole('listitem')).toHaveCount(1);
  await expect(follower).toContainText('Fehlgeschlagen');
  await follower.getByRole('button', { name: `Verwerfen: Status Standby für ${x.connectorId}` }).click();
  await outbox.getByRole('button', { name: 'Änderung verwerfen' }).click();
  await expect(outbox.getByRole('listitem')).toHaveCount(0);
  const now = await connector(page, x.connectorId);
  expect(now.address.parkingLot).toBe(theirs);
  expect(now.connectorStatus).toBe(x.connectorStatus);
  expect(now.version).toBe(x.version + 1);
});

test('a refused write leads back to its form with what the user entered', async ({ page, context, request }) => {
  await signIn(page, 'operator');
  const { location, lotsFor } = await fieldLocation(page);
  const x = lotsFor[1] ?? lotsFor[0];
  await page.goto(`/stationen/${encodeURIComponent(x.connectorId)}`);
  await expect(page.getByRole('main')).toContainText(x.cpId);
  await context.setOffline(true);
  const mine = freshLot(4);
  await assignLotOnDetail(page, mine);
  // A colleague changes the lot meanwhile, so the queued one is refused.
  const res = await request.put('/bff/connectors/update-parking-lots', {
    headers: { Authorization: await bearer(page), 'Idempotency-Key': crypto.randomUUID() },
    data: [{ connectorId: x.connectorId, cpId: x.cpId, locationId: location.locationId, parkingLotNumber: freshLot(5) }],
  });
  expect(res.status()).toBe(200);
  await context.setOffline(false);
  await outboxButton(page).click();
  const outbox = page.getByRole('dialog', { name: 'Ausstehende Änderungen' });
  const item = outbox.getByRole('listitem').filter({ hasText: `Parkplatz ${mine} für ${x.connectorId}` });
  await expect(item).toContainText('Fehlgeschlagen', { timeout: 30_000 });
  await item.getByRole('link', { name: `Erneut bearbeiten: Parkplatz ${mine} für ${x.connectorId}` }).click();
  const form = page.getByRole('dialog', { name: /Parkplatz zuweisen/ });
  await expect(form).toBeVisible();
  await expect(form.getByRole('textbox')).toHaveValue(mine);
  await expect(page).not.toHaveURL(/edit=/);
});

test('an offline write made with an expired access token arrives after reconnect', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const { location, lotsFor } = await fieldLocation(page);
  const x = lotsFor[1];
  await page.goto(`/standorte/${location.locationId}`);
  await expect(rowOf(page, x.connectorId)).toBeVisible();
  await waitForServiceWorker(page);
  await expect(rowOf(page, x.connectorId)).toBeVisible();
  await persisted(page);

  // Offline long enough for the access token to expire: a validly signed token whose time is up.
  await context.setOffline(true);
  const current = await page.evaluate(() => localStorage.getItem('accessToken'));
  const claims = decodeJwt(current!);
  const past = Math.floor(Date.now() / 1000) - 3600;
  const expired = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(past)
    .setExpirationTime(past + 900)
    .sign(new TextEncoder().encode(process.env.E2E_JWT_SECRET));
  const refreshToken = (await page.evaluate(() => localStorage.getItem('refreshToken')))!;
  await setStoredTokens(page, { accessToken: expired, refreshToken });
  await page.reload();
  await expect(rowOf(page, x.connectorId)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBe(expired);

  const lot = freshLot(8);
  await assignLots(page, { [x.connectorId]: lot });
  await expect(outboxButton(page)).toHaveAccessibleName('Ausgang, 1 Änderung ausstehend');

  // Online: the token is refreshed first, then the write goes out, once.
  await context.setOffline(false);
  // Checked with the token from before (still valid on the server), not the page's expired one.
  await expect.poll(async () => (await connector(page, x.connectorId, current!)).address.parkingLot, { timeout: 30_000 }).toBe(lot);
  expect((await connector(page, x.connectorId, current!)).version).toBe(x.version + 1);
  await expect(outboxButton(page)).toHaveAccessibleName('Ausgang, nichts ausstehend', { timeout: 15_000 });
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).not.toBe(expired);
});
