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

/** Console errors of a page (a 404 answer is logged by the browser as one too). */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('create customer: the e-mail is checked when left, a refusal keeps every input, and the happy path logs no console error', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = consoleErrors(page);
  const stamp = Date.now().toString(36).toUpperCase();
  await signIn(page, 'admin');
  await page.goto('/customers');
  await page.getByRole('button', { name: 'Kunde anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: /Kunde anlegen/ });
  const field = (name: RegExp) => dialog.getByRole('textbox', { name });
  const next = dialog.getByRole('button', { name: 'Weiter' });
  // A free number: the check answers 'free' without an error answer (it was a 404 before).
  await field(/^Kundennummer/).fill(`E2E${stamp}`);
  await dialog.getByRole('button', { name: 'Prüfen' }).click();
  await expect(dialog.getByText('Kundennummer ist frei')).toBeVisible();
  await field(/^Firmenname/).fill(`E2E Mail ${stamp} GmbH`);
  await field(/^Straße und Hausnummer/).fill('Am Markt 5');
  await field(/^PLZ/).fill('04109');
  await field(/^Ort/).fill('Leipzig');
  await next.click();

  await field(/^Vorname/).fill('Nora');
  await field(/^Nachname/).fill('Neumann');
  await field(/^Rolle/).fill('Leitung');
  // An address in use shows at the field once it is left, and holds Next.
  await field(/^E-Mail/).fill('operator@cockpit.example');
  await field(/^E-Mail/).blur();
  await expect(dialog.getByText('Die E-Mail-Adresse wird bereits verwendet')).toBeVisible();
  await expect(next).toBeDisabled();
  await field(/^E-Mail/).fill(`nora.${stamp.toLowerCase()}@e2e-strom.example`);
  await field(/^E-Mail/).blur();
  await expect(dialog.getByText('Die E-Mail-Adresse wird bereits verwendet')).toBeHidden();
  expect(errors).toEqual([]);

  // The address is taken meanwhile (the check said free): the server refuses, the wizard keeps everything.
  await page.route('**/bff/cpos/validate-email', (route) => route.fulfill({ json: { data: true } }));
  await field(/^E-Mail/).fill('partner@cockpit.example');
  await field(/^E-Mail/).blur();
  await next.click();
  await dialog.getByRole('button', { name: 'Absenden' }).click();
  const refusal = page.getByRole('alertdialog');
  await expect(refusal).toContainText('Die E-Mail-Adresse wird bereits verwendet');
  await refusal.getByRole('button', { name: 'OK' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-summary')).toContainText(`E2E${stamp}`);
  await dialog.getByRole('button', { name: 'Zurück' }).click();
  await expect(field(/^E-Mail/)).toHaveValue('partner@cockpit.example');
  await expect(field(/^Vorname/)).toHaveValue('Nora');
  await expect(dialog.getByText('Die E-Mail-Adresse wird bereits verwendet')).toBeVisible();
  await expect(next).toBeDisabled();
});
