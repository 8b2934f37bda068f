import { expect, test, type Locator, type Page } from '@playwright/test';
import { signIn } from './helpers';

/** Issue 23's details a new user meets: screen titles, touch targets, a happy path without console errors. */

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error('not rendered');
  return { width: Math.round(b.width * 10) / 10, height: Math.round(b.height * 10) / 10 };
}

/** The language switch of the top bar (shown on localhost): a radio group De/En. */
const languageTo = (page: Page, language: 'De' | 'En') => page.getByRole('radio', { name: language }).first().click();

test('each screen names itself in the title, in the language of the moment', async ({ page }) => {
  await page.goto('/login');
  await expect(page).toHaveTitle('Anmelden · CPO Cockpit');
  await languageTo(page, 'En');
  await expect(page).toHaveTitle('Sign in · CPO Cockpit');
  await languageTo(page, 'De');
  await signIn(page, 'operator');
  for (const [path, title] of [
    ['/cockpit', 'Cockpit · CPO Cockpit'],
    ['/standorte', 'Standorte · CPO Cockpit'],
    ['/stationen', 'Ladestationen · CPO Cockpit'],
    ['/nutzer', 'Nutzer · CPO Cockpit'],
    ['/einstellungen', 'Einstellungen · CPO Cockpit'],
    ['/gibt-es-nicht', 'Seite nicht gefunden · CPO Cockpit'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
  }
  await page.goto('/stationen');
  await page
    .getByRole('link', { name: /Details zu/ })
    .first()
    .click();
  await expect(page).toHaveTitle('Ladestation · CPO Cockpit');
  await page.goto('/stationen');
  await languageTo(page, 'En');
  await expect(page).toHaveTitle('Charging stations · CPO Cockpit');
});

test('touch targets: the station table link and the date-field segments are at least 44 × 44 px', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/stationen');
  const link = page.getByRole('link', { name: /Details zu/ }).first();
  await expect(link).toBeVisible();
  const linkBox = await box(link);
  test.info().annotations.push({ type: 'station link', description: `${linkBox.width} × ${linkBox.height}` });
  expect.soft(linkBox.width).toBeGreaterThanOrEqual(44);
  expect.soft(linkBox.height).toBeGreaterThanOrEqual(44);

  await link.click();
  const segments = page.getByRole('spinbutton');
  await expect(segments.first()).toBeVisible();
  const count = await segments.count();
  expect(count).toBeGreaterThanOrEqual(6);
  for (let i = 0; i < count; i++) {
    const b = await box(segments.nth(i));
    if (i === 0) test.info().annotations.push({ type: 'date segment', description: `${b.width} × ${b.height}` });
    expect.soft(b.width, `segment ${i}`).toBeGreaterThanOrEqual(44);
    expect.soft(b.height, `segment ${i}`).toBeGreaterThanOrEqual(44);
  }
});
