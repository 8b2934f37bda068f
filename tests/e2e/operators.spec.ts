import { expect, test, type Locator, type Page } from '@playwright/test';
import { bearer, expectNoSeriousA11yViolations, signIn, waitForServiceWorker } from './helpers';

/**
 * Issue 12, the operator journey: create an operator through the wizard, find it in the list and in
 * the location wizard's operator select without signing in again, edit its invoice template and ERP
 * values, and an edit made offline that arrives exactly once (checked through the API: every accepted
 * write moves the operator's version on by one).
 */

interface OperatorDetailRow {
  cpoId: string;
  cpoName: string;
  customerId: string;
  version: number;
  billingTemplateHeader: Record<string, string | null>;
  erpValues: { clientNumber: string; paymentMethod: string }[];
}

async function operatorDetail(page: Page, cpoId: string): Promise<OperatorDetailRow> {
  const res = await page.request.get(`/bff/cpos/${encodeURIComponent(cpoId)}/operator-details`, {
    headers: { Authorization: await bearer(page) },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: OperatorDetailRow }).data;
}

async function firstOperatorId(page: Page): Promise<string> {
  const res = await page.request.get('/bff/cpos?page=0&size=10', { headers: { Authorization: await bearer(page) } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { response: { cpoId: string }[] } }).data.response[0]!.cpoId;
}

/** react-aria's transient announcement of a chosen option is flagged by axe until it expires: wait for it. */
async function expectAccessible(page: Page) {
  await expect(page.locator('[data-live-announcer] [role=img]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
}

const field = (dialog: Locator, name: string | RegExp) => dialog.getByRole('textbox', { name });

async function openAction(page: Page, action: string) {
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: action }).click();
  const dialog = page.getByRole('dialog', { name: new RegExp(action) });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function confirmAndSave(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(dialog).toBeHidden();
}

test('admin creates an operator (SEPA and bank transfer, three header lines, one removed), finds it everywhere and edits it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const name = `E2E Betreiber ${Date.now()}`;
  await signIn(page, 'admin');
  const { customerId } = await operatorDetail(page, await firstOperatorId(page));

  await page.goto('/betreiber');
  await expect(page.getByRole('heading', { level: 1, name: 'Betreiber' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Betreiber' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Betreiber anlegen' }).click();
  const dialog = page.getByRole('dialog', { name: /Betreiber anlegen/ });
  const next = dialog.getByRole('button', { name: 'Weiter' });

  // Step 1: operator info. Next stays disabled until the step is valid.
  await expect(next).toBeDisabled();
  await field(dialog, /^Firmenname/).fill(name);
  await field(dialog, /^Straße und Hausnummer/).fill('Hafenstraße 7');
  await field(dialog, /^Postleitzahl/).fill('2045a');
  await field(dialog, /^Postleitzahl/).blur();
  await expect(dialog.getByText('Bitte geben Sie nur Ziffern ein')).toBeVisible();
  await field(dialog, /^Postleitzahl/).fill('20457');
  await field(dialog, /^Ort/).fill('Hamburg');
  await expect(next).toBeDisabled();
  // Admins choose the customer from the customer list ('id: name').
  await dialog.getByRole('button', { name: /Kundennummer\*?$/ }).click();
  await page.getByRole('option', { name: new RegExp(`^${customerId}: `) }).click();
  await dialog.getByText('Endkunden-IDs manuell vergeben').click();
  await expect(next).toBeEnabled();
  await next.click();

  // Step 2: invoice template. SEPA is preselected; with neither mode 'Abrechnung erforderlich' shows.
  await field(dialog, /^Name/).fill('Erika Muster');
  await field(dialog, /^Position/).fill('Buchhaltung');
  await field(dialog, /^Telefon/).fill('04012345');
  await field(dialog, /^E-Mail/).fill('erika@example.com');
  const sepa = dialog.getByRole('checkbox', { name: 'SEPA-Lastschrift' });
  const bank = dialog.getByRole('checkbox', { name: 'Überweisung' });
  await expect(sepa).toBeChecked();
  await dialog.getByText('SEPA-Lastschrift', { exact: true }).click();
  await expect(dialog.getByText(/Abrechnung erforderlich/)).toBeVisible();
  await expect(next).toBeDisabled();
  await dialog.getByText('SEPA-Lastschrift', { exact: true }).click();
  await dialog.getByText('Überweisung', { exact: true }).click();
  await expect(sepa).toBeChecked();
  await expect(bank).toBeChecked();
  await expect(dialog.getByText(/Abrechnung erforderlich/)).toHaveCount(0);
  await field(dialog, /^Gläubiger-ID/).fill('DE98ZZZ09999999999');
  await field(dialog, /^IBAN/).fill('DE89 3704 0044 0532 0130 01');
  await field(dialog, /^IBAN/).blur();
  await expect(dialog.getByText('Bitte geben Sie eine gültige IBAN ein')).toBeVisible();
  await field(dialog, /^IBAN/).fill('DE89 3704 0044 0532 0130 00');
  await field(dialog, /^Bank\*?$/).fill('Commerzbank');
  await field(dialog, /^BIC/).fill('COBADEFF');
  await field(dialog, /^Zahlungsziel/).fill('0');
  await field(dialog, /^Zahlungsziel/).blur();
  await expect(dialog.getByText('Das Zahlungsziel muss mindestens 1 Tag betragen')).toBeVisible();
  await field(dialog, /^Zahlungsziel/).fill('14');
  // § 14 UStG: the VAT id or the tax number, said at both fields while neither is there.
  for (const name of [/^USt-IdNr/, /^Steuernummer/]) {
    await field(dialog, name).focus();
    await field(dialog, name).blur();
  }
  await expect(dialog.getByText(/Bitte geben Sie die USt-IdNr. oder die Steuernummer an/)).toHaveCount(2);
  await field(dialog, /^USt-IdNr/).fill('DE123456789');
  await expect(dialog.getByText(/Bitte geben Sie die USt-IdNr. oder die Steuernummer an/)).toHaveCount(0);
  // Three header lines, each required while shown; the third removed again (and cleared).
  await field(dialog, /^Kopfzeile 1/).fill('Hafen GmbH');
  await dialog.getByRole('button', { name: 'Kopfzeile hinzufügen' }).click();
  await dialog.getByRole('button', { name: 'Kopfzeile hinzufügen' }).click();
  await expect(next).toBeDisabled();
  await field(dialog, /^Kopfzeile 2/).fill('Hafenstraße 7');
  await field(dialog, /^Kopfzeile 3/).fill('20457 Hamburg');
  await expect(next).toBeEnabled();
  await dialog.getByRole('button', { name: 'Kopfzeile 3 entfernen' }).click();
  await expect(field(dialog, /^Kopfzeile 3/)).toHaveCount(0);
  await field(dialog, /^Fußzeile 1/).fill('Amtsgericht Hamburg');
  await expect(next).toBeEnabled();
  await expectAccessible(page);
  await next.click();

  // Step 3: confirm and save; the body carries both modes and two header lines.
  await expect(dialog).toContainText(name);
  await expect(dialog).toContainText('SEPA-Lastschrift, Überweisung');
  await expect(dialog).not.toContainText('20457 Hamburg');
  const created = page.waitForResponse((r) => r.url().endsWith('/bff/cpos/create-operator') && r.request().method() === 'POST');
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/refresh-token') && r.ok());
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  const request = (await created).request();
  expect(await request.headerValue('idempotency-key')).toBeTruthy();
  const body = request.postDataJSON() as Record<string, unknown>;
  expect(body).toMatchObject({
    cpoName: name,
    customerId,
    createManualEndCustomerId: true,
    cpoPaymentDetails: { cpoPaymentPreference: ['SEPA', 'BANK_TRANSFER'], moneyCollectionGapInDays: 14 },
    billingTemplateHeader: { lineOne: 'Hafen GmbH', lineTwo: 'Hafenstraße 7' },
    vatId: 'DE123456789',
  });
  expect(body.billingTemplateHeader).not.toHaveProperty('lineThree');
  // Spec 1 §4: the tokens are refreshed after the creation.
  await refreshed;

  const success = page.getByRole('alertdialog', { name: 'Betreiber angelegt' });
  await expect(success).toContainText('Unser Team wird sich in Kürze bei Ihnen melden.');
  const id = (await success.getByTestId('created-operator-id').innerText()).replace('Betreiber-ID:', '').trim();
  expect(id).not.toBe('');
  await success.getByRole('button', { name: 'OK' }).click();

  // The list refreshed: the new operator has a row (without signing in again).
  const grid = page.getByRole('grid', { name: 'Betreiberliste' });
  const row = grid.getByRole('row').filter({ hasText: id });
  await expect(row).toContainText(name);

  // The location wizard's operator select lists it too.
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Standorte' }).click();
  await page.getByRole('button', { name: 'Standort hinzufügen' }).click();
  const locationWizard = page.getByRole('dialog', { name: /Standort hinzufügen/ });
  await locationWizard.getByRole('button', { name: /Betreiber\*?$/ }).click();
  await expect(page.getByRole('option', { name: `${id}: ${name}` })).toBeVisible();
  await page.keyboard.press('Escape');
  await locationWizard.getByRole('button', { name: 'Abbrechen' }).click();

  // Its page: operator management with the invoice template as entered.
  // In-app: a reload within a second of an answer can restore the copy kept before it (see the final report).
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Betreiber' }).click();
  await row.getByRole('link', { name: `Details zu ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/betreiber/${encodeURIComponent(id)}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Betreiberverwaltung' })).toBeVisible();
  const operatorCard = page.getByRole('region', { name: 'Betreiber', exact: true });
  await expect(operatorCard).toContainText(id);
  await expect(operatorCard).toContainText('Hafenstraße 7');
  await expect(operatorCard).toContainText('20457 Hamburg');
  const headers = page.getByRole('region', { name: 'Kopfzeilen' });
  await expect(headers).toContainText('Hafen GmbH');
  await expect(page.getByRole('region', { name: 'Zahlungsempfang' })).toContainText('DE89 3704 0044 0532 0130 00');
  await expectAccessible(page);

  // Edit the invoice template: a new header line 1.
  const template = await openAction(page, 'Rechnungsvorlage bearbeiten');
  await expect(field(template, /^Kopfzeile 2/)).toHaveValue('Hafenstraße 7');
  await field(template, /^Kopfzeile 1/).fill('Hafen GmbH & Co. KG');
  await confirmAndSave(template);
  await page.getByRole('alertdialog', { name: 'Gespeichert' }).getByRole('button', { name: 'OK' }).click();
  await expect(headers).toContainText('Hafen GmbH & Co. KG');

  // Edit the ERP values of one payment method and see them on their tab.
  await page.getByRole('tab', { name: 'ERP-Importdaten' }).click();
  const erpPanel = page.getByRole('tabpanel', { name: 'ERP-Importdaten' });
  await expect(erpPanel).toContainText('Keine ERP-Daten hinterlegt.');
  const erp = await openAction(page, 'ERP-Daten bearbeiten');
  await erp.getByRole('button', { name: /Zahlungsart\*?$/ }).click();
  // Stripe's methods are offered too (issue 35): 'Stripe SEPA-Lastschrift' beside it.
  await page.getByRole('option', { name: 'SEPA-Lastschrift', exact: true }).click();
  await field(erp, /^Mandantennummer/).fill('4711');
  await field(erp, /^Sachkonto netto/).fill('8400');
  await field(erp, /^Sachkonto Steuer/).fill('1776');
  await confirmAndSave(erp);
  await page.getByRole('alertdialog', { name: 'Gespeichert' }).getByRole('button', { name: 'OK' }).click();
  const erpRow = erpPanel.getByRole('row').filter({ hasText: '4711' });
  await expect(erpRow).toContainText('8400');
  await expect(erpRow).toContainText('1776');
  await expect(erpRow).toContainText('SEPA-Lastschrift');
  await expectAccessible(page);

  const stored = await operatorDetail(page, id);
  expect(stored.billingTemplateHeader).toMatchObject({ lineOne: 'Hafen GmbH & Co. KG', lineTwo: 'Hafenstraße 7' });
  expect(stored.billingTemplateHeader.lineThree ?? null).toBeNull();
  expect(stored.erpValues).toEqual([expect.objectContaining({ clientNumber: '4711', paymentMethod: 'SEPA' })]);
});

test('an operator edit made offline is kept, and arrives exactly once after reconnecting', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const cpoId = await firstOperatorId(page);
  const before = await operatorDetail(page, cpoId);

  // Operator-type users do not create operators.
  await page.goto('/betreiber');
  await expect(page.getByRole('grid', { name: 'Betreiberliste' }).getByRole('row').filter({ hasText: cpoId })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Betreiber anlegen' })).toHaveCount(0);

  await page.goto(`/betreiber/${encodeURIComponent(cpoId)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Betreiberverwaltung' })).toBeVisible();
  await waitForServiceWorker(page);
  await expect(page.getByRole('region', { name: 'Betreiber', exact: true })).toContainText(before.cpoName);
  // The kept copy is saved within a second of the answer.
  await page.waitForTimeout(1_500);

  // Offline, reload: the kept page, saying how old it is.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Betreiberverwaltung' })).toBeVisible();
  await expect(page.getByTestId('data-age').first()).toContainText('Stand:');

  // Edit the name and address offline: kept on this device.
  const newName = `${before.cpoName.replace(/ \(geändert \d+\)$/, '')} (geändert ${Date.now() % 100000})`;
  const edit = await openAction(page, 'Betreiberdaten bearbeiten');
  await field(edit, /^Firmenname/).fill(newName);
  await confirmAndSave(edit);
  const queued = page.getByRole('alertdialog', { name: 'Auf diesem Gerät gespeichert' });
  await expect(queued).toContainText('wird gesendet, sobald Sie online sind');
  await queued.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('operator-pending')).toHaveText('Änderung wird gesendet');

  // Back online: the outbox sends it, once; the page shows the new name.
  await context.setOffline(false);
  await expect.poll(async () => (await operatorDetail(page, cpoId)).cpoName, { timeout: 30_000 }).toBe(newName);
  await expect(page.getByRole('region', { name: 'Betreiber', exact: true })).toContainText(newName, { timeout: 15_000 });
  await expect(page.getByTestId('operator-pending')).toHaveCount(0, { timeout: 15_000 });
  await page.waitForTimeout(2_000);
  expect((await operatorDetail(page, cpoId)).version).toBe(before.version + 1);
});

test("an offline edit refused by a colleague's change says what changed and leads back to its form", async ({ page, context, request }) => {
  test.setTimeout(90_000);
  await signIn(page, 'partner');
  const cpoId = await firstOperatorId(page);
  const before = await operatorDetail(page, cpoId);
  await page.goto(`/betreiber/${encodeURIComponent(cpoId)}`);
  await expect(page.getByRole('region', { name: 'Betreiber', exact: true })).toContainText(before.cpoName);

  await context.setOffline(true);
  const mine = `Mein Name ${Date.now() % 100000}`;
  const edit = await openAction(page, 'Betreiberdaten bearbeiten');
  await field(edit, /^Firmenname/).fill(mine);
  await confirmAndSave(edit);
  await page.getByRole('alertdialog', { name: 'Auf diesem Gerät gespeichert' }).getByRole('button', { name: 'OK' }).click();

  // A colleague renames the operator meanwhile.
  const theirs = `Kollegenname ${Date.now() % 100000}`;
  const res = await request.put('/bff/cpos/update-operator-information', {
    headers: { Authorization: await bearer(page), 'Idempotency-Key': crypto.randomUUID() },
    data: {
      workFlow: 'AddressInfo',
      cpoId,
      cpoName: theirs,
      cpoAddress: { street: 'Kollegenweg 1', zipCode: '10115', city: 'Berlin' },
      version: before.version,
    },
  });
  expect(res.status()).toBe(200);

  // Back online: refused (409), parked with the colleague's values; 'Erneut bearbeiten' opens the form with mine.
  await context.setOffline(false);
  await expect(page.getByTestId('operator-pending')).toHaveText('Änderung nicht gespeichert', { timeout: 30_000 });
  await page.getByRole('button', { name: /^Ausgang,/ }).click();
  const outbox = page.getByRole('dialog', { name: 'Ausstehende Änderungen' });
  const item = outbox.getByRole('listitem').filter({ hasText: `Betreiber ${cpoId} · ${mine}` });
  await expect(item).toContainText('Fehlgeschlagen');
  await expect(item).toContainText(`Inzwischen geändert (Version ${before.version + 1}): ${theirs}, Kollegenweg 1, 10115 Berlin.`);
  await item.getByRole('link', { name: `Erneut bearbeiten: Betreiber ${cpoId} · ${mine}` }).click();
  const again = page.getByRole('dialog', { name: /Betreiberdaten bearbeiten/ });
  await expect(field(again, /^Firmenname/)).toHaveValue(mine);
  await expect(page).toHaveURL(new RegExp(`/betreiber/${encodeURIComponent(cpoId)}$`));
  expect((await operatorDetail(page, cpoId)).cpoName).toBe(theirs);

  // Saved again, on top of the colleague's change: it replaces the refused write and goes through.
  await confirmAndSave(again);
  await page.getByRole('alertdialog', { name: 'Gespeichert' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('region', { name: 'Betreiber', exact: true })).toContainText(mine);
  await expect(page.getByTestId('operator-pending')).toHaveCount(0);
  const after = await operatorDetail(page, cpoId);
  expect(after.cpoName).toBe(mine);
  expect(after.version).toBe(before.version + 2);
});

test('an unknown operator says it does not exist', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/betreiber/CPO99999');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Diesen Betreiber gibt es nicht, oder er gehört nicht zu Ihrem Zugang.' }),
  ).toBeVisible();
});
