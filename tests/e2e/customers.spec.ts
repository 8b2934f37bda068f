import { expect, test, type Locator, type Page } from '@playwright/test';
import { bearer, expectNoSeriousA11yViolations, signIn } from './helpers';
import { waitForMail } from './mail-sink';

/**
 * Issue 14, the admin area: a platform admin creates an Operator-type customer, the invitation
 * arrives at the run's real SMTP peer (tests/e2e/mail-sink.ts, playwright.config.ts), the invited
 * person sets a password with its link and sees that customer's cockpit only; an external user is
 * added to an existing customer; RFID cards are added, listed, and a duplicate is refused.
 */

const field = (dialog: Locator, name: RegExp) => dialog.getByRole('textbox', { name });

/** react-aria's transient announcement of a chosen option is flagged by axe until it expires: wait for it. */
async function expectAccessible(page: Page) {
  await expect(page.locator('[data-live-announcer] [role=img]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
}

/** The set-password link of the mail to `to` that names `marker`, as a path of this app (the mail's host is PUBLIC_URL's). */
async function invitationPath(to: string, marker: string): Promise<string> {
  // The server's sender drains the outbox every 10 s.
  const mail = await waitForMail((m) => m.to.includes(to) && m.text.includes(marker), 45_000);
  const link = /https?:\/\/\S+\/passwort-vergessen\?token=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const url = new URL(link!);
  return `${url.pathname}${url.search}`;
}

async function setPassword(page: Page, path: string, password: string) {
  await page.goto(path);
  await page.getByLabel(/^Neues Passwort/).fill(password);
  await page.getByLabel(/^Passwort wiederholen/).fill(password);
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
}

test('admin creates an Operator-type customer; the invited person sets a password and sees that customer only', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36).toUpperCase();
  const customerId = `E2E${stamp}`;
  const company = `E2E Strom ${stamp} GmbH`;
  const email = `nora.${stamp.toLowerCase()}@e2e-strom.example`;
  await signIn(page, 'admin');
  await page.goto('/customers');
  await expect(page.getByRole('heading', { level: 1, name: 'Kundenverwaltung' })).toBeVisible();
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Kunde anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: /Kunde anlegen/ });
  const next = dialog.getByRole('button', { name: 'Weiter' });
  await expect(next).toBeDisabled();
  // The customer number: letters and digits only, and one already in use is refused.
  await field(dialog, /^Kundennummer/).fill('E2E-1');
  await field(dialog, /^Kundennummer/).blur();
  await expect(dialog.getByText('Bitte geben Sie nur Buchstaben und Ziffern ein', { exact: true })).toBeVisible();
  await field(dialog, /^Kundennummer/).fill('K10001');
  await dialog.getByRole('button', { name: 'Prüfen' }).click();
  await expect(dialog.getByText('Kundennummer ist vergeben')).toBeVisible();
  await field(dialog, /^Kundennummer/).fill(customerId);
  await dialog.getByRole('button', { name: 'Prüfen' }).click();
  await expect(dialog.getByText('Kundennummer ist frei')).toBeVisible();
  await field(dialog, /^Firmenname/).fill(company);
  await field(dialog, /^c\/o/).fill('Hausverwaltung Kurz');
  await field(dialog, /^Straße und Hausnummer/).fill('Am Markt 5');
  await field(dialog, /^PLZ/).fill('04109');
  await field(dialog, /^Ort/).fill('Leipzig');
  await expectAccessible(page);
  await next.click();

  // Step 2 validates on load, with the spec's messages.
  await expect(dialog.getByText('Bitte füllen Sie das Feld aus').first()).toBeVisible();
  await expect(next).toBeDisabled();
  await field(dialog, /^Vorname/).fill('Nora');
  await field(dialog, /^Nachname/).fill('Neumann');
  await field(dialog, /^E-Mail/).fill('nora@');
  await expect(dialog.getByText('Bitte geben Sie eine gültige E-Mail-Adresse ein')).toBeVisible();
  await field(dialog, /^E-Mail/).fill(email);
  await field(dialog, /^Rolle/).fill('Geschäftsführerin');
  await expectAccessible(page);
  await next.click();

  const summary = dialog.getByTestId('confirm-summary');
  for (const value of [
    'Nora',
    'Neumann',
    email,
    customerId,
    'Betreiber',
    'c/o Hausverwaltung Kurz',
    'Am Markt 5',
    '04109',
    'Leipzig',
    company,
    'Geschäftsführerin',
    'Prosessional',
    'Nein',
  ])
    await expect(summary).toContainText(value);
  await dialog.getByRole('button', { name: 'Absenden' }).click();
  const success = page.getByRole('alertdialog');
  await expect(success).toContainText('Neuer Nutzer angelegt');
  await expect(success).toContainText('Vielen Dank für Ihre Eingabe!');
  await expect(success).toContainText('an das Operations-Team gesendet');
  await success.getByRole('button', { name: 'OK' }).click();
  // The list reloaded: the new customer is on the first page.
  await expect(page.getByRole('row', { name: new RegExp(company) })).toBeVisible();

  // Its detail offers to resend the invitation while it is not accepted.
  await page.getByRole('link', { name: `Details zu ${company}` }).click();
  await expect(page).toHaveURL(new RegExp(`/customers/${customerId}$`));
  await expect(page.getByText('c/o Hausverwaltung Kurz, Am Markt 5, 04109 Leipzig')).toBeVisible();
  await expect(page.getByRole('row', { name: /Nora Neumann/ })).toContainText(email);
  await expect(page.getByRole('button', { name: 'Einladung erneut senden' })).toBeVisible();
  await expectAccessible(page);

  // An operator for the new customer (the operator wizard's call), so there is data to see.
  const created = await page.request.post('/bff/cpos/create-operator', {
    headers: { Authorization: await bearer(page), 'Idempotency-Key': `e2e-${stamp}` },
    data: {
      cpoName: `E2E Strom ${stamp} Nord`,
      cpoAddress: { street: 'Am Markt 5', zipCode: '04109', city: 'Leipzig' },
      customerId,
      createManualEndCustomerId: false,
      contactPersonDetails: {
        contactPersonName: 'Nora Neumann',
        contactPersonPosition: 'Geschäftsführerin',
        contactPersonPhone: '0341123456',
        contactPersonEmail: email,
      },
      withBillingInfo: false,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const cpoId = ((await created.json()) as { data: { cpoId: string } }).data.cpoId;

  // The invitation went to the operations team; the invited person uses its link in their own browser.
  const path = await invitationPath('operations@cockpit.example', customerId);
  const person = await browser.newContext();
  const invited = await person.newPage();
  await setPassword(invited, path, 'Nora-Passwort-2026');
  await expect(invited.getByRole('alertdialog')).toContainText('Passwort geändert');
  await invited.getByRole('alertdialog').getByRole('button').first().click();
  // The link works once.
  await setPassword(invited, path, 'Noch-ein-Passwort-2026');
  await expect(invited.getByRole('alertdialog')).toContainText('ungültig oder abgelaufen');

  await invited.goto('/login');
  await invited.getByLabel('E-Mail').fill(email);
  await invited.getByLabel(/^Passwort\*?$/).fill('Nora-Passwort-2026');
  await invited.getByRole('button', { name: 'Anmelden' }).click();
  await expect(invited).toHaveURL(/\/cockpit$/);
  await expect(invited.getByRole('heading', { level: 1 })).toContainText('Nora');
  await expect(invited.getByTestId('sidebar-user')).toContainText('Nora Neumann');
  const nav = invited.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(nav.getByRole('link', { name: 'Kunden' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'RFID' })).toHaveCount(0);
  // That customer's operator and nothing else.
  await invited.goto('/betreiber');
  const rows = invited.getByRole('grid').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(cpoId);
  const ops = await invited.request.get('/bff/cpos?page=0&size=100', { headers: { Authorization: await bearer(invited) } });
  expect(((await ops.json()) as { data: { response: { cpoId: string }[] } }).data.response.map((o) => o.cpoId)).toEqual([cpoId]);
  await person.close();

  // Accepted: the detail no longer offers the resend.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: 'Kundeninformationen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Einladung erneut senden' })).toHaveCount(0);
});

test('admin adds an external user to an existing customer; the person gets the invitation', async ({ page }) => {
  test.setTimeout(90_000);
  const email = `erik.${Date.now().toString(36)}@revision.example`;
  await signIn(page, 'admin');
  await page.goto('/customers/K10001');
  await expect(page.getByRole('heading', { level: 1, name: 'Kunde' })).toBeVisible();
  await page.getByRole('button', { name: 'Externen Nutzer hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: /Externen Nutzer für/ });
  await field(dialog, /^Vorname/).fill('Erik');
  await field(dialog, /^Nachname/).fill('Extern');
  await field(dialog, /^E-Mail/).fill(email);
  await field(dialog, /^Rolle/).fill('Revision');
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await expect(dialog.getByTestId('confirm-summary')).toContainText(email);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('alertdialog')).toContainText(email);
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('row', { name: /Erik Extern/ })).toContainText('Revision');
  const path = await invitationPath(email, 'Hallo Erik Extern');
  expect(path).toMatch(/^\/passwort-vergessen\?token=/);
});

test('admin adds two RFID cards, sees them listed, and a duplicate is refused with its value', async ({ page }) => {
  const stamp = Date.now().toString(36).toUpperCase();
  await signIn(page, 'admin');
  await page.goto('/rfid');
  await expect(page.getByRole('heading', { level: 1, name: 'RFID-Verwaltung' })).toBeVisible();
  await expect(page.getByRole('grid').getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'RFID hinzufügen' }).click();
  let dialog = page.getByRole('dialog', { name: /RFID hinzufügen/ });
  await field(dialog, /^Seriennummer 1/).fill(`  SN-${stamp}-1 `);
  await field(dialog, /^RFID-Tag 1/).fill(`TAG-${stamp}-1`);
  await dialog.getByRole('button', { name: 'Zeile hinzufügen' }).click();
  await field(dialog, /^Seriennummer 2/).fill(`SN-${stamp}-2`);
  await field(dialog, /^RFID-Tag 2/).fill(` TAG-${stamp}-2`);
  // A third row, removed again.
  await dialog.getByRole('button', { name: 'Zeile hinzufügen' }).click();
  await dialog.getByRole('button', { name: 'Zeile 3 entfernen' }).click();
  await expect(field(dialog, /^Seriennummer 3/)).toHaveCount(0);
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await expect(dialog.getByTestId('rfid-confirm')).toContainText(`SN-${stamp}-1`);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('2 RFID-Karten wurden gespeichert');
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  const rows = page.getByRole('grid').getByRole('row');
  await expect(rows.nth(1)).toContainText(`SN-${stamp}-2`);
  await expect(rows.nth(1)).toContainText(`TAG-${stamp}-2`);
  await expect(rows.nth(2)).toContainText(`SN-${stamp}-1`);
  await expect(rows.nth(2)).toContainText(`TAG-${stamp}-1`);

  await page.getByRole('button', { name: 'RFID hinzufügen' }).click();
  dialog = page.getByRole('dialog', { name: /RFID hinzufügen/ });
  await field(dialog, /^Seriennummer 1/).fill(`SN-${stamp}-1`);
  await field(dialog, /^RFID-Tag 1/).fill(`TAG-${stamp}-3`);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  const error = page.getByRole('alertdialog');
  await expect(error).toContainText('RFID bereits vergeben');
  await expect(error.getByTestId('rfid-conflicts')).toContainText(`Seriennummer SN-${stamp}-1`);
  await expectAccessible(page);
  await error.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('grid')).not.toContainText(`TAG-${stamp}-3`);
});

test('anyone but a platform admin gets the admin-only screen on the admin pages, and no admin list is asked for', async ({ page }) => {
  await signIn(page, 'operator');
  const adminLists: string[] = [];
  page.on('request', (r) => {
    if (/\/cpos\/get-(all-customer|customer|dashboard-user)|\/get-rfid-tags/.test(r.url())) adminLists.push(r.url());
  });
  for (const [path, title] of [
    ['/customers', 'Kundenverwaltung'],
    ['/customers/K10001', 'Kunde'],
    ['/rfid', 'RFID-Verwaltung'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.getByText('Diese Seite ist Plattform-Administratoren vorbehalten.')).toBeVisible();
    // Inside the shell: the menu stays.
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' })).toBeVisible();
  }
  expect(adminLists).toEqual([]);
});
