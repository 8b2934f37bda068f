import { expect, test } from '@playwright/test';
import {
  accounts,
  assignLotOnDetail,
  setStoredTokens,
  freshLot,
  signIn,
  someConnectors,
  waitForServiceWorker,
  type AccountName,
} from './helpers';

for (const who of ['admin', 'operator', 'partner'] as AccountName[]) {
  test(`logout as ${who} lands on a plain /login without a page error`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await signIn(page, who);
    await page.goto('/stationen?page=1');
    await expect(page.getByRole('grid')).toBeVisible();
    await page.getByRole('button', { name: 'Abmelden' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    expect(new URL(page.url()).search).toBe('');
    expect(errors).toEqual([]);
    // Nothing of the session is left on the device to bring it back.
    await page.goto('/cockpit');
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('refreshToken'))).toBeNull();
  });
}

test('an expired session returns the same person to where they were, once; the return address never nests', async ({ page }) => {
  await page.goto('/login?redirect=%2Flogin%3Fredirect%3D%252Fcockpit');
  const { email, password } = accounts.operator;
  await page.getByLabel('E-Mail').fill(email);
  await page.getByLabel(/^Passwort\*?$/).fill(password);
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page).toHaveURL(/\/cockpit$/);
  // Signed out by the server (the refresh token refused): back to /login with the page to return to.
  await page.goto('/standorte');
  await setStoredTokens(page, { accessToken: 'x.y.z', refreshToken: 'revoked' });
  await page.reload();
  await expect(page).toHaveURL(/\/login\?redirect=%2Fstandorte$/);
});

test('the next person on a shared device sees none of the first one’s cached data', async ({ page, context }) => {
  await signIn(page, 'admin');
  await waitForServiceWorker(page);
  await page.goto('/stationen');
  await expect(page.getByRole('grid')).toBeVisible();
  await page.waitForTimeout(1_500); // the persister writes at most once a second
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await signIn(page, 'operator');
  await page.waitForTimeout(1_500);
  await context.setOffline(true);
  await page.goto('/stationen');
  // The admin's station list was dropped with the logout: nothing of it opens for the operator.
  await expect(page.getByRole('status').filter({ hasText: 'Offline nicht verfügbar' })).toBeVisible();
  await expect(page.getByRole('grid')).toHaveCount(0);
  await context.setOffline(false);
});

test('logout with changes still waiting asks first and keeps them on the device', async ({ page, context }) => {
  await signIn(page, 'operator');
  await waitForServiceWorker(page);
  const target = (await someConnectors(page)).find((r) => r.connectorStatus === 'IDLE' && r.address.parkingLot);
  expect(target, 'an active connector with a lot in the demo data').toBeTruthy();
  await page.goto(`/stationen/${encodeURIComponent(target!.connectorId)}`);
  await expect(page.getByRole('main')).toContainText(target!.address.parkingLot!);
  await context.setOffline(true);
  await assignLotOnDetail(page, freshLot(9));
  await expect(page.getByTestId('outbox-count')).toHaveText('1');

  await page.getByRole('button', { name: 'Abmelden' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Änderungen noch nicht gesendet' });
  await expect(ask).toContainText('1 Änderung wurde noch nicht gesendet');
  await ask.getByRole('button', { name: 'Angemeldet bleiben' }).click();
  await expect(page).toHaveURL(/\/stationen\//);

  await page.getByRole('button', { name: 'Abmelden' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Trotzdem abmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const kept = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open('cpo-cockpit-outbox');
        open.onsuccess = () => {
          const all = open.result.transaction('writes').objectStore('writes').getAll();
          all.onsuccess = () => resolve((all.result as unknown[]).length);
        };
      }),
  );
  expect(kept).toBe(1);
  await context.setOffline(false);
  // The same person signs in again: the change goes out.
  await signIn(page, 'operator');
  await expect(page.getByTestId('outbox-count')).toHaveCount(0, { timeout: 20_000 });
});
