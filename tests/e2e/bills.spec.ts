import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { bearer, expectNoSeriousA11yViolations, signIn, waitForServiceWorker } from './helpers';
import { waitForMail } from './mail-sink';

/**
 * Issue 24, /rechnungen, in German: filter the operator's bills, open a PDF, send two GENERATED
 * bills and see them SENT, a zip of three, regenerate one as admin, set two to paid through the
 * shared modal, a status change made offline arriving exactly once (checked on the server), the
 * selection warnings, the send button of a contract's page, the English labels once, and one
 * English journey (filter, a PDF, a bill set to paid).
 * Screenshots at 1024x768, 768x1024 and 1440x900 in both languages when SHOTS_DIR is set.
 */

interface BillRow {
  billId: string;
  billNumber: string;
  billingStatus: string | null;
  userType: string;
  paymentMethod: string | null;
  billGenerationDate: string;
  billDownloadDate: string | null;
}

async function bills(page: Page, query: string): Promise<{ total: number; rows: BillRow[] }> {
  const res = await page.request.get(`/booking-service/bookings/get-bills/operator?${query}`, {
    headers: { Authorization: await bearer(page) },
  });
  expect(res.status()).toBe(200);
  const { data } = (await res.json()) as { data: { totalNumberOfRecords: number; response: BillRow[] } };
  return { total: data.totalNumberOfRecords, rows: data.response };
}

const berlinToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
/** The first of the month `back` months before today's (Berlin). */
const firstOfMonthBefore = (back: number) => {
  const [y, m] = berlinToday().split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 - back, 1));
  return d.toISOString().slice(0, 10);
};
/** A year of bills: the seed bills every month, so every status is on the first pages. */
const YEAR = () => `startDate=${firstOfMonthBefore(12)}&endDate=${berlinToday()}`;

const grid = (page: Page, name = 'Alle Rechnungen') => page.getByRole('grid', { name });
const rowOf = (page: Page, number: string) =>
  page.getByRole('row').filter({ has: page.getByTestId('bill-number').getByText(number, { exact: true }) });
const select = async (page: Page, numbers: string[]) => {
  for (const n of numbers) await rowOf(page, n).getByRole('checkbox').check({ force: true });
};
const action = async (page: Page, name: string) => {
  await page.getByRole('button', { name: /^(Aktionen|Actions)$/ }).click();
  await page.getByRole('menuitem', { name }).click();
};

async function shoot(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  for (const [w, h] of [
    [1024, 768],
    [768, 1024],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}-${w}x${h}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function setPaid(page: Page, numbers: string[], dialogName = /Zahlungsstatus ändern/) {
  await select(page, numbers);
  await action(page, 'Zahlungsstatus ändern');
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByRole('radio', { name: 'Bezahlt' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Weiter' }).click();
  for (const n of numbers) await expect(dialog.getByText(new RegExp(` · ${n}$`))).toBeVisible();
  await dialog.getByRole('button', { name: 'Zahlungsstatus setzen' }).click();
}

test('an operator filters the bills, gets the selection warnings and sets two bills to paid', async ({ page }) => {
  await signIn(page, 'operator');
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  const admin = nav.getByRole('button', { name: 'Administration' });
  if ((await admin.getAttribute('aria-expanded')) !== 'true') await admin.click();
  await nav.getByRole('link', { name: 'Rechnungen', exact: true }).click();
  await expect(page).toHaveURL(/\/rechnungen$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Rechnungen' })).toBeVisible();

  // The default range: the first of this month up to today, as the server counts it.
  const month = await bills(page, `startDate=${firstOfMonthBefore(0)}&endDate=${berlinToday()}&page=0&size=10`);
  await expect(page.getByText(new RegExp(`von ${month.total}$`))).toBeVisible();
  await expect(grid(page).getByTestId('bill-number').first()).toHaveText(month.rows[0]!.billNumber);
  await shoot(page, 'de-list');
  await expectNoSeriousA11yViolations(page);

  // A year by link (the range in the URL), then only the paid ones by the status filter.
  await page.goto(`/rechnungen?${YEAR()}`);
  const year = await bills(page, `${YEAR()}&page=0&size=10`);
  await expect(page.getByText(new RegExp(`von ${year.total}$`))).toBeVisible();
  await page.getByRole('button', { name: /Rechnungsstatus/ }).click();
  await page.getByRole('option', { name: 'Bezahlt' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Suchen' }).click();
  await expect(page).toHaveURL(/billingStatuses=[^&]*PAID/);
  const paid = await bills(page, `${YEAR()}&billingStatuses=PAID&page=0&size=10`);
  await expect(page.getByText(new RegExp(`von ${paid.total}$`))).toBeVisible();
  for (const status of await grid(page).getByTestId('bill-status').allInnerTexts()) expect(status).toBe('Bezahlt');

  // Nothing selected: 'select'; a paid bill to send: 'wrong selection / no invoice'.
  await action(page, 'Per E-Mail senden');
  await expect(page.getByRole('alertdialog')).toContainText('Bitte wählen Sie mindestens eine Rechnung aus.');
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();
  await select(page, [paid.rows[0]!.billNumber]);
  await action(page, 'Per E-Mail senden');
  await expect(page.getByRole('alertdialog', { name: 'Falsche Auswahl oder keine Rechnung' })).toContainText('Status „Erstellt“');
  await page.getByRole('alertdialog').getByRole('button', { name: 'OK' }).click();

  // Two open or generated bills set to paid with the users list's two-step modal.
  await page.getByRole('button', { name: 'Zurücksetzen' }).click();
  await page.goto(`/rechnungen?${YEAR()}`);
  const open = year.rows.filter((b) => b.billingStatus === 'UNPAID' || b.billingStatus === 'GENERATED').slice(0, 2);
  expect(open).toHaveLength(2);
  await expect(rowOf(page, open[0]!.billNumber)).toBeVisible();
  await setPaid(
    page,
    open.map((b) => b.billNumber),
  );
  await expect(page.getByText('Zahlungsstatus aktualisiert.')).toBeVisible();
  for (const b of open) await expect(rowOf(page, b.billNumber).getByTestId('bill-status')).toHaveText('Bezahlt');
  const after = await bills(page, `${YEAR()}&billingStatuses=PAID&page=0&size=10000`);
  for (const b of open) expect(after.rows.map((r) => r.billNumber)).toContain(b.billNumber);
});

test('a status change made offline arrives exactly once after reconnecting', async ({ page, context }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  await page.goto(`/rechnungen?${YEAR()}`);
  const year = await bills(page, `${YEAR()}&page=0&size=10`);
  const bill = year.rows.find((b) => b.billingStatus === 'UNPAID' || b.billingStatus === 'GENERATED')!;
  await expect(rowOf(page, bill.billNumber)).toBeVisible();
  await waitForServiceWorker(page);
  await expect(rowOf(page, bill.billNumber)).toBeVisible();
  const puts: number[] = [];
  page.on('response', (r) => {
    if (r.url().includes('/bookings/billing-status-update') && r.request().method() === 'PUT') puts.push(r.status());
  });

  await context.setOffline(true);
  await setPaid(page, [bill.billNumber]);
  await expect(page.getByText('wird gesendet, sobald Sie online sind', { exact: false }).first()).toBeVisible();
  expect(puts).toEqual([]);

  await context.setOffline(false);
  await expect(rowOf(page, bill.billNumber).getByTestId('bill-status')).toHaveText('Bezahlt', { timeout: 30_000 });
  const onServer = await bills(page, `${YEAR()}&billingStatuses=PAID&page=0&size=10000`);
  expect(onServer.rows.map((r) => r.billNumber)).toContain(bill.billNumber);
  // Once: one accepted request, and nothing sent again after a reload.
  await page.reload();
  await expect(rowOf(page, bill.billNumber).getByTestId('bill-status')).toHaveText('Bezahlt');
  await page.waitForTimeout(1_000);
  expect(puts).toEqual([200]);
});

test('in English: the bills page, its filters, columns and actions', async ({ page }) => {
  await signIn(page, 'operator');
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto(`/rechnungen?${YEAR()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Bills' })).toBeVisible();
  const table = grid(page, 'All bills');
  await expect(table.getByRole('row')).not.toHaveCount(1);
  for (const column of ['Bill number', 'Name', 'Status', 'Amount (gross)'])
    await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
  for (const filter of ['User type', 'Payment method', 'Bill status'])
    await expect(page.getByRole('button', { name: new RegExp(filter) })).toBeVisible();
  await expect(page.getByText('Created from')).toBeVisible();
  await page.getByRole('button', { name: 'Actions' }).click();
  for (const item of ['Send by e-mail', 'Download as zip', 'Change payment status'])
    await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
  // Regenerating is for admins only.
  await expect(page.getByRole('menuitem', { name: 'Regenerate' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  const sepa = page.getByRole('button', { name: /^Payment information for bill / }).first();
  if (await sepa.count()) {
    await sepa.click();
    await expect(page.getByTestId('sepa-info')).toContainText('Payment intent id');
    await page.keyboard.press('Escape');
  }
  await shoot(page, 'en-list');
  await expectNoSeriousA11yViolations(page);
});

test('in English: an operator filters the bills, opens a PDF and sets one bill to paid', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  // The language as the other English journeys switch it: kept on the device, read at start.
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto(`/rechnungen?${YEAR()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Bills' })).toBeVisible();
  const year = await bills(page, `${YEAR()}&page=0&size=10`);
  await expect(page.getByText(new RegExp(`of ${year.total}$`))).toBeVisible();

  // Only the generated ones, by the status filter (its options in English), and 'Search'.
  await page.getByRole('button', { name: /Bill status/ }).click();
  await page.getByRole('option', { name: 'Generated' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/billingStatuses=[^&]*GENERATED/);
  const generated = await bills(page, `${YEAR()}&billingStatuses=GENERATED&page=0&size=10`);
  await expect(page.getByText(new RegExp(`of ${generated.total}$`))).toBeVisible();
  for (const status of await grid(page, 'All bills').getByTestId('bill-status').allInnerTexts()) expect(status).toBe('Generated');
  // The last of the page: the German journeys use the newest ones.
  const bill = generated.rows.at(-1)!;
  expect(bill.billingStatus).toBe('GENERATED');

  // Its PDF opens in a new tab from memory; nothing is selected by the press.
  const [popup, pdf] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForResponse((r) => r.url().includes('/bookings/pdf/')),
    rowOf(page, bill.billNumber)
      .getByRole('button', { name: `Open bill ${bill.billNumber} as PDF` })
      .click(),
  ]);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await expect.poll(() => popup.url()).toMatch(/^blob:/);
  await popup.close();
  await expect(page.getByTestId('selection-count')).toHaveText('0 rows selected');
  await expect(rowOf(page, bill.billNumber)).toContainText('Downloaded on');

  // Set to paid with the two-step modal, in English.
  await select(page, [bill.billNumber]);
  await expect(page.getByTestId('selection-count')).toHaveText('1 row selected');
  await action(page, 'Change payment status');
  const dialog = page.getByRole('dialog', { name: /Change payment status/ });
  await expect(dialog.getByText('New payment status')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Paid' }).check({ force: true });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText(new RegExp(` · ${bill.billNumber}$`))).toBeVisible();
  await dialog.getByRole('button', { name: 'Set payment status' }).click();
  await expect(page.getByText('Payment status updated.')).toBeVisible();
  // The list is filtered to generated bills: the paid one leaves it; on the server it is PAID.
  await expect(rowOf(page, bill.billNumber)).toHaveCount(0);
  const paid = await bills(page, `${YEAR()}&billingStatuses=PAID&page=0&size=10000`);
  const at = paid.rows.findIndex((r) => r.billNumber === bill.billNumber);
  expect(at).toBeGreaterThanOrEqual(0);
  // Its page of the paid ones (0-based in the URL) shows it 'Paid'.
  await page.goto(
    `/rechnungen?${YEAR()}&billingStatuses=${encodeURIComponent(JSON.stringify(['PAID']))}&page=${Math.floor(at / 10)}&size=10`,
  );
  await expect(rowOf(page, bill.billNumber).getByTestId('bill-status')).toHaveText('Paid');
});

/** A bill number's rows in the zip: every entry starts with a local file header (PK\3\4). */
const zipEntries = (bytes: Buffer) => {
  let n = 0;
  for (let i = bytes.indexOf('PK\u0003\u0004'); i >= 0; i = bytes.indexOf('PK\u0003\u0004', i + 4)) n++;
  return n;
};

test('an operator opens a PDF, sends two GENERATED bills and downloads a zip of three', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'operator');
  await page.goto(`/rechnungen?${YEAR()}&size=25`);
  const year = await bills(page, `${YEAR()}&page=0&size=25`);
  await expect(rowOf(page, year.rows[0]!.billNumber)).toBeVisible();

  // The PDF opens in a new tab from memory (the request carries the token); the server notes the
  // first download, and the row shows its date at once.
  const withPdf = year.rows.filter((b) => b.billingStatus && b.billingStatus !== 'NOT_APPLICABLE');
  withPdf.sort((a, b) => Number(!!a.billDownloadDate) - Number(!!b.billDownloadDate));
  expect(withPdf[0]!.billDownloadDate).toBeNull();
  const [popup, pdf] = await Promise.all([
    page.waitForEvent('popup'),
    page.waitForResponse((r) => r.url().includes('/bookings/pdf/')),
    rowOf(page, withPdf[0]!.billNumber)
      .getByRole('button', { name: `Rechnung ${withPdf[0]!.billNumber} als PDF öffnen` })
      .click(),
  ]);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  await expect.poll(() => popup.url()).toMatch(/^blob:/);
  await popup.close();
  // The press was the PDF button's, not the row's: nothing is selected.
  await expect(page.getByTestId('selection-count')).toHaveText('0 Zeilen ausgewählt');
  const today = berlinToday().split('-').reverse().join('.');
  await expect(rowOf(page, withPdf[0]!.billNumber)).toContainText(new RegExp(`Heruntergeladen am:\\s*${today.replace(/\./g, '\\.')}`));

  // Two GENERATED bills by mail: the spec's success title, the rows SENT, each mail on the SMTP peer.
  const generated = year.rows.filter((b) => b.billingStatus === 'GENERATED').slice(0, 2);
  expect(generated).toHaveLength(2);
  await select(
    page,
    generated.map((b) => b.billNumber),
  );
  await action(page, 'Per E-Mail senden');
  const success = page.getByRole('alertdialog', { name: 'Rechnungen versendet' });
  await expect(success).toContainText('Die 2 Rechnungen wurden per E-Mail versendet.');
  await success.getByRole('button', { name: 'OK' }).click();
  for (const b of generated) await expect(rowOf(page, b.billNumber).getByTestId('bill-status')).toHaveText('Versendet');
  const sent = await bills(page, `${YEAR()}&billingStatuses=SENT&page=0&size=10000`);
  for (const b of generated) expect(sent.rows.map((r) => r.billNumber)).toContain(b.billNumber);
  for (const b of generated) await waitForMail((mail) => JSON.stringify(mail).includes(b.billNumber));

  // Three bills as one zip, with the bytes received shown, saved as Rechnungen.zip.
  const three = withPdf.filter((b) => !generated.includes(b)).slice(0, 3);
  await select(
    page,
    three.map((b) => b.billNumber),
  );
  const [download] = await Promise.all([page.waitForEvent('download'), action(page, 'Als Archiv herunterladen')]);
  expect(download.suggestedFilename()).toBe('Rechnungen.zip');
  const dialog = page.getByRole('dialog', { name: 'Rechnungen herunterladen' });
  await expect(dialog.getByTestId('zip-progress')).toHaveText(
    /^3 Rechnungen, [\d,]+ (KB|MB) empfangen: gespeichert als Rechnungen\.zip\.$/,
  );
  expect(zipEntries(readFileSync((await download.path())!))).toBe(3);
  await dialog.getByRole('button', { name: 'Schließen' }).click();
});

test("a WITH_BILLING contract's page sends its GENERATED bill, and shows it sent", async ({ page }) => {
  await signIn(page, 'operator');
  const auth = { headers: { Authorization: await bearer(page) } };
  const list = await page.request.get('/contract-management/contracts/operator?page=0&size=10000', auth);
  const rows = ((await list.json()) as { data: { response: { contractKey: string; billingStatus: string | null }[] } }).data.response;
  let key: string | undefined;
  for (const r of rows.filter((c) => c.billingStatus === 'GENERATED')) {
    const detail = await page.request.get(`/contract-management/contract/id/${encodeURIComponent(r.contractKey)}`, auth);
    if (((await detail.json()) as { data: { billingType: string } }).data.billingType === 'WITH_BILLING') {
      key = r.contractKey;
      break;
    }
  }
  expect(key).toBeDefined();
  await page.goto(`/nutzer/${key}`);
  const status = page.locator('xpath=//dt[normalize-space()="Zahlungsstatus"]/following-sibling::dd[1]');
  await expect(status).toHaveText('Erstellt');
  await page.getByRole('button', { name: /^Rechnung .+ per E-Mail senden$/ }).click();
  const success = page.getByRole('alertdialog', { name: 'Rechnungen versendet' });
  await expect(success).toContainText('Die Rechnung wurde per E-Mail versendet.');
  await success.getByRole('button', { name: 'OK' }).click();
  // The page refreshes with the bill lists: the newest bill is SENT, and the button is gone.
  await expect(status).toHaveText('Versendet');
  await expect(page.getByRole('button', { name: /per E-Mail senden$/ })).toHaveCount(0);
});
test('an admin regenerates one GENERATED bill', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto(`/rechnungen?${YEAR()}&size=25`);
  const year = await bills(page, `${YEAR()}&page=0&size=25`);
  const bill = year.rows.find((b) => b.billingStatus === 'GENERATED' && b.userType !== 'AD_HOC')!;
  await select(page, [bill.billNumber]);
  await action(page, 'Neu erstellen');
  // It issues the bill anew: asked first, naming the bill.
  const ask = page.getByRole('alertdialog', { name: 'Rechnung neu erstellen?' });
  await expect(ask).toContainText(bill.billNumber);
  await ask.getByRole('button', { name: 'Neu erstellen' }).click();
  const done = page.getByRole('alertdialog', { name: 'Rechnung neu erstellt' });
  await expect(done).toContainText(bill.billNumber);
  await done.getByRole('button', { name: 'OK' }).click();
});
