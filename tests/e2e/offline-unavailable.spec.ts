import { expect, test } from '@playwright/test';
import { signIn, waitForServiceWorker } from './helpers';

test('offline, a screen never loaded says it is not available and offers the kept ones', async ({ page, context }) => {
  await signIn(page, 'operator');
  await expect(page.getByTestId('kpi-users')).toBeVisible();
  await waitForServiceWorker(page);
  await page.waitForTimeout(1_500); // the persister writes at most once a second
  await context.setOffline(true);

  // In the app: the menu to a list this device never loaded.
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Ladestationen' }).click();
  const note = page.getByRole('status').filter({ hasText: 'Offline nicht verfügbar' });
  await expect(note).toBeVisible();
  await expect(note).toContainText('Diese Ansicht wurde auf diesem Gerät noch nicht geladen');
  await expect(page.getByText('Laden…')).toHaveCount(0);

  // And after a reload offline; the kept cockpit is offered and opens.
  await page.reload();
  await expect(note).toBeVisible();
  await note.getByRole('link', { name: 'Cockpit' }).click();
  await expect(page).toHaveURL(/\/cockpit$/);
  await expect(page.getByTestId('kpi-users')).toBeVisible();
});
