import { expect, test } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { accounts, expectNoSeriousA11yViolations, signIn, waitForServiceWorker } from './helpers';

test('language switch: German by default, English on switch, kept after reload', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.getByRole('radio', { name: 'En' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in');
  await page.getByRole('radio', { name: 'De' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anmelden');
});

test('a chosen theme survives a reload; an unknown stored theme falls back to default', async ({ page }) => {
  await signIn(page, 'partner');
  await page.getByRole('button', { name: 'Farbschema' }).click();
  await page.getByRole('menuitemradio', { name: 'Dunkel' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.evaluate(() => localStorage.setItem('theme', 'neon'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'default');
});

test('unknown path shows the not-found page with a way to login', async ({ page }) => {
  await page.goto('/gibt-es-nicht/123');
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  await expect(page.getByText('Bitte überprüfen Sie den Link oder gehen Sie zur Anmeldung.')).toBeVisible();
  await page.getByRole('link', { name: 'Zur Anmeldung' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('signed in, an unknown path stays in the app with a way to the cockpit, and the menu hides unbuilt screens', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/gibt-es-nicht');
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(nav).toBeVisible();
  // Only screens that exist are in the menu: every entry of spec 1 §2 is built now.
  for (const entry of ['Cockpit', 'Standorte', 'Ladestationen', 'Downloadcenter', 'Einstellungen', 'Support']) {
    await expect(nav.getByRole('link', { name: entry })).toBeVisible();
  }
  const admin = nav.getByRole('button', { name: 'Administration' });
  if ((await admin.getAttribute('aria-expanded')) !== 'true') await admin.click();
  for (const entry of ['Betreiber', 'Rechnungen']) await expect(nav.getByRole('link', { name: entry })).toBeVisible();
  await page.getByRole('link', { name: 'Zum Cockpit' }).click();
  await expect(page).toHaveURL(/\/cockpit$/);
});

test('the Stripe success pages are public', async ({ page }) => {
  await page.goto('/stripesepa/configure/success/cs_test_123');
  await expect(page.getByRole('heading', { name: 'Lastschriftmandat erstellt' })).toBeVisible();
  await page.goto('/stripesepa/reconfigure/success/cs_test_456');
  await expect(page.getByText('Wir haben Ihnen eine E-Mail mit den Details gesendet.')).toBeVisible();
});

test('with the network off, the shell and a Stripe success page still open', async ({ page, context }) => {
  await signIn(page, 'operator');
  await waitForServiceWorker(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
  await page.goto('/einstellungen');
  await expect(page.getByRole('heading', { name: 'Einstellungen' })).toBeVisible();
  await page.goto('/stripesepa/reconfigure/success/cs_offline');
  await expect(page.getByRole('heading', { name: 'Lastschriftmandat erstellt' })).toBeVisible();
  await context.setOffline(false);
});

test('tablet: the menu collapses behind a button and opens as a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signIn(page, 'admin');
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Menü öffnen' }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole('link', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(nav).toBeHidden();
});

test('settings: data, rules of both forms, version 3.0.0, and a real e-mail change', async ({ page }) => {
  await signIn(page, 'partner');
  await page.goto('/einstellungen');
  await expect(page.getByText(accounts.partner.email).first()).toBeVisible();
  await expect(page.getByTestId('app-version')).toHaveText('Version 3.0.0');

  await page.getByRole('button', { name: 'Passwort ändern' }).click();
  const save = page.getByRole('button', { name: 'Speichern' }).first();
  await expect(save).toBeDisabled();
  await page.getByLabel(/^Aktuelles Passwort\*?$/).fill(accounts.partner.password);
  await page.getByLabel(/^Neues Passwort\*?$/).fill('kurz');
  await page.getByLabel('Neues Passwort wiederholen').fill('kurz');
  await save.click();
  await expect(page.getByText('mindestens 10 Zeichen').first()).toBeVisible();

  await page.getByRole('button', { name: 'E-Mail-Adresse ändern' }).click();
  const newEmail = page.getByLabel(/^Neue E-Mail-Adresse\*?$/);
  const repeat = page.getByLabel('Neue E-Mail-Adresse wiederholen');
  const emailSave = page.getByRole('button', { name: 'Speichern' }).last();
  await newEmail.fill('partner-neu@cockpit.example');
  await repeat.fill('partner-anders@cockpit.example');
  await expect(emailSave).toBeDisabled();
  await repeat.fill('partner-neu@cockpit.example');
  await emailSave.click();
  await expect(page.getByRole('alertdialog')).toContainText('E-Mail-Adresse geändert');
  await page.getByRole('button', { name: 'OK' }).click();
  await page.waitForLoadState('load');
  await expect(page.getByText('partner-neu@cockpit.example').first()).toBeVisible();
  const claims = await page.evaluate(() =>
    JSON.parse(atob(localStorage.getItem('accessToken')!.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/'))),
  );
  expect(claims.email).toBe('partner-neu@cockpit.example');

  // And back, so the demo account keeps its address for the other tests.
  await page.getByRole('button', { name: 'E-Mail-Adresse ändern' }).click();
  await page.getByLabel(/^Neue E-Mail-Adresse\*?$/).fill(accounts.partner.email);
  await page.getByLabel('Neue E-Mail-Adresse wiederholen').fill(accounts.partner.email);
  await page.getByRole('button', { name: 'Speichern' }).last().click();
  await expect(page.getByRole('alertdialog')).toContainText('E-Mail-Adresse geändert');
});

test('support: a message with a PDF is sent; a text file is refused', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/support');
  await page.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByText('Bitte füllen Sie das Feld aus').first()).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Datei auswählen' }).click();
  await (await chooser).setFiles({ name: 'notiz.txt', mimeType: 'text/plain', buffer: Buffer.from('hallo') });
  await expect(page.getByRole('alert')).toContainText('Bitte wählen Sie eine gültige PDF- oder Bilddatei aus.');

  await page.getByRole('textbox', { name: 'Betreff' }).fill('Ladepunkt defekt');
  await page.getByRole('textbox', { name: 'Nachricht' }).fill('Der Ladepunkt 3 in der Tiefgarage reagiert nicht.');
  const chooser2 = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Datei auswählen' }).click();
  // A real one-page PDF: the server parses attachments whole.
  const doc = await PDFDocument.create();
  doc.addPage();
  const pdf = Buffer.from(await doc.save());
  await (await chooser2).setFiles({ name: 'protokoll.pdf', mimeType: 'application/pdf', buffer: pdf });
  await expect(page.getByTestId('support-file')).toHaveText('protokoll.pdf');
  await page.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('Anfrage gesendet');
});

test.describe('accessibility: no serious or critical axe violations', () => {
  test('sign-in', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
  test('settings and support', async ({ page }) => {
    await signIn(page, 'admin');
    await page.goto('/einstellungen');
    await expect(page.getByRole('heading', { name: 'Einstellungen' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.goto('/support');
    await expect(page.getByRole('heading', { name: 'Support' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test('a slow write shows the loading overlay until the answer arrives', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/support');
  await page.getByRole('textbox', { name: 'Betreff' }).fill('Langsame Leitung');
  await page.getByRole('textbox', { name: 'Nachricht' }).fill('Test der Ladeanzeige.');
  await page.route('**/bff/mail/send', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.getByRole('button', { name: 'Senden' }).click();
  await expect(page.getByTestId('loading-overlay')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toContainText('Anfrage gesendet');
  await expect(page.getByTestId('loading-overlay')).toBeHidden();
});
