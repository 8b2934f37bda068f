import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { bearer, expectNoSeriousA11yViolations, signIn, waitForServiceWorker } from './helpers';

/**
 * Issue 13, the users area: find a user in /nutzer by name, open the detail, download the charging
 * history as CSV, change the tariff for the 1st of next month and terminate; bulk-set two users to
 * PAID; a termination made offline arrives exactly once (checked through the API: every accepted
 * terminate or tariff change moves the contract's version on by one); one run in English.
 */

interface ContractRow {
  id: string;
  contractKey: string;
  endCustomerId: string;
  name: string;
  contractStatus: string;
  billingStatus: string | null;
  billNumber: string | null;
}

interface ContractDetail {
  contractKey: string;
  contractStatus: string;
  billingType: string;
  userType: string;
  version: number;
  firstName: string;
  lastName: string;
  contractChangeTariff: { newTariffDate: string; fixTariff: number } | null;
}

async function api<T>(page: Page, path: string): Promise<{ status: number; data: T }> {
  const res = await page.request.get(path, { headers: { Authorization: await bearer(page) } });
  return { status: res.status(), data: res.status() === 200 ? ((await res.json()) as { data: T }).data : (null as T) };
}

const contracts = async (page: Page, query = 'page=0&size=100') =>
  (await api<{ response: ContractRow[] }>(page, `/contract-management/contracts/operator?${query}`)).data.response;

const detail = async (page: Page, key: string) =>
  (await api<ContractDetail>(page, `/contract-management/contract/id/${encodeURIComponent(key)}`)).data;

const berlinToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const addDays = (iso: string, days: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
const firstOfNextMonth = (iso: string) => {
  const [y, m] = iso.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};
const display = (iso: string) => iso.split('-').reverse().join('.');

/**
 * ACTIVE, billed, REGULAR contracts without a pending tariff change whose names are unique on the
 * list (the name filter finds exactly them), excluding `skip`; with `withHistory`, only one that has
 * charging requests in the last 7 days (the history view's default range).
 */
async function activeBilledContracts(
  page: Page,
  count: number,
  skip: readonly string[] = [],
  withHistory = false,
): Promise<ContractDetail[]> {
  const rows = await contracts(page, 'page=0&size=1000');
  const names = new Map<string, number>();
  for (const r of rows) names.set(r.name, (names.get(r.name) ?? 0) + 1);
  const today = berlinToday();
  const found: ContractDetail[] = [];
  for (const r of rows) {
    if (r.contractStatus !== 'ACTIVE' || names.get(r.name) !== 1 || skip.includes(r.contractKey)) continue;
    const d = await detail(page, r.contractKey);
    if (d.billingType !== 'WITH_BILLING' || d.userType !== 'REGULAR' || d.contractChangeTariff) continue;
    if (withHistory) {
      const h = await api<{ totalNumberOfRecords: number }>(
        page,
        `/booking-service/bookings/get-charging-history?contractKey=${encodeURIComponent(r.contractKey)}&startDate=${addDays(today, -6)}&endDate=${today}&page=0&size=1`,
      );
      if (!h.data?.totalNumberOfRecords) continue;
    }
    found.push(d);
    if (found.length === count) return found;
  }
  throw new Error(`The seed has fewer than ${count} suitable contracts for the operator`);
}

async function openAction(page: Page, action: string) {
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** react-aria's transient announcement of a chosen option is flagged by axe until it expires: wait for it. */
async function expectAccessible(page: Page) {
  await expect(page.locator('[data-live-announcer] [role=img]')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
}

test('find a user by name, open the detail, download the history CSV, change the tariff for the 1st of next month, terminate', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const [user] = await activeBilledContracts(page, 1, [], true);
  const name = `${user!.firstName} ${user!.lastName}`;

  await page.goto('/nutzer');
  await expect(page.getByRole('heading', { level: 1, name: 'Nutzer' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Nutzer' })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Alle Nutzer' }).getByRole('row')).not.toHaveCount(1);
  await expectAccessible(page);

  // The filter applies with Enter and stays in the URL.
  await page.getByRole('searchbox', { name: 'Name' }).fill(name);
  await page.getByRole('searchbox', { name: 'Name' }).press('Enter');
  await expect(page).toHaveURL(/[?&]name=/);
  const grid = page.getByRole('grid', { name: 'Alle Nutzer' });
  await expect(grid.getByRole('row')).toHaveCount(2);
  await grid.getByRole('link', { name: `Nutzer ${name} öffnen` }).click();

  await expect(page).toHaveURL(new RegExp(`/nutzer/${user!.contractKey}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nutzerverwaltung' })).toBeVisible();
  for (const card of ['Kundeninformationen', 'Autorisierung', 'Zahlungs- und ERP-Daten', 'Vertragslaufzeit', 'Abrechnung'])
    await expect(page.getByRole('heading', { name: card })).toBeVisible();
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Aktiv');
  await expectAccessible(page);

  // The history view: the shared charging-request table of this contract and the CSV of the same range.
  await page.getByRole('radio', { name: 'Ladehistorie' }).click();
  const history = page.getByRole('grid', { name: 'Ladehistorie' });
  await expect(history.getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'CSV herunterladen' }).click()]);
  expect(download.suggestedFilename()).toBe(`Ladehistorie_${display(berlinToday())}.csv`);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv.split('\r\n').filter(Boolean).length).toBeGreaterThan(1);
  await page.getByRole('radio', { name: 'Vertragsdaten' }).click();

  // Edit tariff: the 1st of next month is the default new date; confirm, save.
  const newDate = firstOfNextMonth(berlinToday());
  await openAction(page, 'Tarif ändern');
  const wizard = page.getByRole('dialog', { name: /Tarif ändern/ });
  await wizard.getByRole('textbox', { name: /^Nutzungstarif pro Monat/ }).fill('12,50');
  await wizard.getByRole('textbox', { name: /^Kündigungsdatum/ }).fill(display(newDate));
  await wizard.getByRole('textbox', { name: /^Kündigungsdatum/ }).blur();
  await expect(wizard.getByText('Das Kündigungsdatum muss nach dem neuen Tarifdatum liegen.')).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Weiter' })).toBeDisabled();
  await wizard.getByRole('textbox', { name: /^Kündigungsdatum/ }).fill(display(addDays(newDate, 365)));
  await expectAccessible(page);
  await wizard.getByRole('button', { name: 'Weiter' }).click();
  await expect(wizard.getByText(display(newDate))).toBeVisible();
  await expect(wizard.getByText('12,50 EUR/Monat')).toBeVisible();
  await wizard.getByRole('button', { name: 'Speichern' }).click();
  const saved = page.getByRole('alertdialog', { name: 'Tarifänderung gespeichert' });
  await expect(saved).toBeVisible();
  await saved.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('pending-tariff')).toContainText(`Tarifänderung ab ${display(newDate)}`);
  const afterTariff = await detail(page, user!.contractKey);
  expect(afterTariff.contractChangeTariff).toMatchObject({ newTariffDate: newDate, fixTariff: 12.5 });
  expect(afterTariff.version).toBe(user!.version + 1);
  // One pending change at a time: the menu no longer offers it.
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await expect(page.getByRole('menuitem', { name: 'Tarif ändern' })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Terminate: confirm, then 'terminated, no access'; the contract is EXPIRED and the menu is gone.
  await openAction(page, 'Nutzer kündigen');
  await page.getByRole('alertdialog', { name: 'Nutzer kündigen?' }).getByRole('button', { name: 'Kündigen' }).click();
  const terminated = page.getByRole('alertdialog', { name: 'Nutzer gekündigt' });
  await expect(terminated).toContainText('Der Nutzer ist gekündigt und hat keinen Zugang mehr.');
  await terminated.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Abgelaufen');
  await expect(page.getByRole('button', { name: 'Aktionen' })).toHaveCount(0);
  const afterTerminate = await detail(page, user!.contractKey);
  expect(afterTerminate).toMatchObject({ contractStatus: 'EXPIRED', version: user!.version + 2 });
});

test('bulk payment status: nothing selected warns, an unchanged choice is refused, two users set to PAID', async ({ page }) => {
  await signIn(page, 'operator');
  await page.goto('/nutzer');
  const grid = page.getByRole('grid', { name: 'Alle Nutzer' });
  await expect(grid.getByRole('row')).not.toHaveCount(1);
  const rows = await contracts(page, 'page=0&size=10');
  const open = rows.filter((r) => r.billNumber && r.billingStatus !== 'PAID').slice(0, 2);
  expect(open).toHaveLength(2);

  await page.getByRole('button', { name: 'Zahlungsstatus ändern' }).click();
  const warning = page.getByRole('alertdialog');
  await expect(warning).toContainText('Bitte wählen Sie mindestens einen Nutzer aus.');
  await warning.getByRole('button', { name: 'OK' }).click();

  const rowOf = (r: ContractRow) => grid.getByRole('row').filter({ has: page.getByRole('link', { name: `Nutzer ${r.name} öffnen` }) });
  for (const r of open) await rowOf(r).getByRole('checkbox').check({ force: true });
  await page.getByRole('button', { name: 'Zahlungsstatus ändern' }).click();
  const dialog = page.getByRole('dialog', { name: /Zahlungsstatus ändern/ });
  // Offen for bills that are all Offen already changes nothing.
  if (open.every((r) => r.billingStatus === 'UNPAID')) {
    await dialog.getByRole('radio', { name: 'Offen' }).check({ force: true });
    await expect(dialog.getByText('Feld nicht geändert')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Weiter' })).toBeDisabled();
  }
  await dialog.getByRole('radio', { name: 'Bezahlt' }).check({ force: true });
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  for (const r of open) await expect(dialog.getByText(new RegExp(`${r.endCustomerId} · `))).toBeVisible();
  await dialog.getByRole('button', { name: 'Zahlungsstatus setzen' }).click();
  await expect(page.getByText('Zahlungsstatus aktualisiert.')).toBeVisible();
  for (const r of open) await expect(rowOf(r).getByTestId('billing-status')).toHaveText('Bezahlt');
  const after = await contracts(page, 'page=0&size=10');
  for (const r of open) expect(after.find((a) => a.contractKey === r.contractKey)?.billingStatus).toBe('PAID');
});

test('a termination made offline arrives exactly once after reconnecting', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  const [user] = await activeBilledContracts(page, 1);
  await page.goto(`/nutzer/${user!.contractKey}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Nutzerverwaltung' })).toBeVisible();
  await waitForServiceWorker(page);
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Aktiv');

  await context.setOffline(true);
  await openAction(page, 'Nutzer kündigen');
  await page.getByRole('alertdialog', { name: 'Nutzer kündigen?' }).getByRole('button', { name: 'Kündigen' }).click();
  await expect(page.getByText('wird gesendet, sobald Sie online sind', { exact: false }).first()).toBeVisible();
  await expect(page.getByTestId('user-pending')).toHaveText('Änderung wird gesendet');

  await context.setOffline(false);
  await expect(page.getByTestId('user-pending')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Abgelaufen');
  // Exactly once: the version moved on by one, and the write is not sent again after a reload.
  expect(await detail(page, user!.contractKey)).toMatchObject({ contractStatus: 'EXPIRED', version: user!.version + 1 });
  await page.reload();
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Abgelaufen');
  await page.waitForTimeout(1_000);
  expect((await detail(page, user!.contractKey)).version).toBe(user!.version + 1);
});

test('in English: the list, the detail and the history view', async ({ page }) => {
  await signIn(page, 'operator');
  const [user] = await activeBilledContracts(page, 1);
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto('/nutzer');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('grid', { name: 'All users' }).getByRole('row')).not.toHaveCount(1);
  await expectAccessible(page);
  await page.goto(`/nutzer/${user!.contractKey}`);
  await expect(page.getByRole('heading', { level: 1, name: 'User management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Customer information' })).toBeVisible();
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Active');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Actions' }).click();
  await expect(page.getByRole('menuitem', { name: 'Edit tariff' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Terminate user' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('radio', { name: 'Charging history' }).click();
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeVisible();
});

test("the location page's users tab is the same table and links each row to /nutzer/{id}", async ({ page }) => {
  await signIn(page, 'operator');
  const auth = { Authorization: await bearer(page) };
  const list = await page.request.get('/bff/locations/get-by-cpo?page=0&size=100', { headers: auth });
  const locations = ((await list.json()) as { data: { response: { locationId: string; numEndCustomers: number }[] } }).data.response;
  const location = [...locations].sort((a, b) => b.numEndCustomers - a.numEndCustomers)[0]!;
  const res = await page.request.get(`/contract-management/location/${location.locationId}/contracts?page=0&size=10`, { headers: auth });
  const [first] = ((await res.json()) as { data: { response: ContractRow[] } }).data.response;

  await page.goto(`/standorte/${location.locationId}`);
  await page.getByRole('tab', { name: 'Nutzer' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Nutzer' });
  await expect(panel.getByRole('button', { name: 'Zahlungsstatus ändern' })).toBeVisible();
  await panel
    .getByRole('link', { name: `Nutzer ${first!.name} öffnen` })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/nutzer/${first!.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Nutzerverwaltung' })).toBeVisible();
});

test('an unsigned contract with a PDF: the PDF opens, the invitation is sent again, an admin deletes it', async ({ page, context }) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin');
  const auth = { Authorization: await bearer(page) };
  const locations = await page.request.get('/bff/locations/get-by-cpo?page=0&size=100', { headers: auth });
  let placement: { cpoId: string; locationId: string; lot: string } | null = null;
  for (const l of ((await locations.json()) as { data: { response: { locationId: string; cpoId: string }[] } }).data.response) {
    const st = await page.request.get(`/bff/connectors/get-by-cpo?page=0&size=100&locationId=${encodeURIComponent(l.locationId)}`, {
      headers: auth,
    });
    const lot = ((await st.json()) as { data: { response: { address: { parkingLot: string | null } }[] } }).data.response.find(
      (c) => c.address.parkingLot,
    );
    if (lot) {
      placement = { cpoId: l.cpoId, locationId: l.locationId, lot: lot.address.parkingLot! };
      break;
    }
  }
  expect(placement).not.toBeNull();
  const doc = await PDFDocument.create();
  doc.addPage().drawText('Ladevertrag E2E');
  const stamp = Date.now();
  const created = await page.request.post('/contract-management/create-contract', {
    headers: { ...auth, 'Idempotency-Key': `e2e-users-${stamp}` },
    data: {
      cpoId: placement!.cpoId,
      // The seed's first operator types its end customer ids itself.
      endCustomerId: `E2E${stamp}`,
      userType: 'REGULAR',
      firstName: 'Erika',
      lastName: `Vertrag${stamp}`,
      email: `erika.${stamp}@example.com`,
      contractAddress: { street: 'Hafenstraße 7', zipCode: '20457', city: 'Hamburg' },
      locationId: placement!.locationId,
      parkingLotNumbers: [placement!.lot],
      authType: 'APP',
      billingType: 'NO_BILLING',
      contractInfo: {
        startDate: berlinToday(),
        contractPDF: 'Vertrag Erika.pdf',
        contractPdfInByteArrayForm: Buffer.from(await doc.save()).toString('base64'),
      },
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const key = ((await created.json()) as { data: { contractKey: string } }).data.contractKey;

  await page.goto(`/nutzer/${key}`);
  await expect(page.getByTestId('detail-contract-status')).toHaveText('Erstellt, nicht unterschrieben');
  // No billing: no billing card.
  await expect(page.getByRole('heading', { name: 'Abrechnung' })).toHaveCount(0);
  const [popup] = await Promise.all([context.waitForEvent('page'), page.getByRole('button', { name: 'Vertrag Erika.pdf' }).click()]);
  await expect.poll(() => popup.url()).toMatch(/^blob:/);
  await popup.close();

  await openAction(page, 'Einladung erneut senden');
  await expect(page.getByText('Die Einladung wurde erneut gesendet.')).toBeVisible();
  await page.getByRole('button', { name: 'Aktionen' }).click();
  await expect(page.getByRole('menuitem', { name: 'Nutzer kündigen' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Nutzervertrag löschen' }).click();
  await page.getByRole('alertdialog', { name: 'Nutzervertrag löschen?' }).getByRole('button', { name: 'Löschen' }).click();
  await expect(page).toHaveURL(/\/nutzer$/);
  expect((await api(page, `/contract-management/contract/id/${key}`)).status).toBe(404);
});
