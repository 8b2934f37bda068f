import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { bearer, expectNoSeriousA11yViolations, signIn, xmllint } from './helpers';

/**
 * Issue 25, /downloadcenter: each role sees its tabs (spec 3 §6); the files saved and read back
 * (history CSV, billing CSV, ERP XML validated against its XSD, DATEV); the missing-info and the
 * no-data dialogs; a cancelled download leaving the form as it was; German and English.
 * Screenshots in both languages when SHOTS_DIR is set.
 */

const berlinToday = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
const yearAgo = () => {
  const [y, m] = berlinToday().split('-') as [string, string];
  return `${Number(y) - 1}-${m}-01`;
};
/** A year up to today, in one calendar year for DATEV: from 1 January. */
const thisYear = () => `${berlinToday().slice(0, 4)}-01-01`;

const url = (search: Record<string, string | string[]>) =>
  '/downloadcenter?' +
  Object.entries(search)
    .map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? JSON.stringify(v) : v)}`)
    .join('&');

const tabs = (page: Page) => page.getByRole('tablist');
/** The download status of a section (the ERP tab has two: its files' and the SEPA file's). */
const status = (page: Page | Locator) => page.getByTestId('download-status');

async function save(page: Page, button: string, within: Page | Locator = page.getByRole('tabpanel')) {
  const [download] = await Promise.all([page.waitForEvent('download'), within.getByRole('button', { name: button }).click()]);
  await expect(status(within).and(page.locator('[data-step="saved"]'))).toHaveAttribute('data-step', 'saved');
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

/** The newest month (first day, last day up to today) counted back from this one. */
function monthBack(back: number) {
  const [y, m] = berlinToday().split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(y, m - 1 - back, 1));
  const last = new Date(Date.UTC(y, m - back, 0));
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  return { from: iso(first), to: iso(last) < berlinToday() ? iso(last) : berlinToday() };
}

/**
 * A demo operator of the partner's whose SEPA ERP value is complete (client number
 * 'Berater/Mandant', both ledger accounts), and the newest month it has SEPA bills in: its ERP XML
 * is a file, never a missing-info answer (the demo data promises it: downloads/demo-data.test.ts).
 */
async function erpReadyOperator(page: Page) {
  const headers = { Authorization: await bearer(page) };
  const ops = (await (await page.request.get('/bff/cpos?page=0&size=50', { headers })).json()) as {
    data: { response: { cpoId: string }[] };
  };
  for (const { cpoId } of ops.data.response) {
    const detail = (await (await page.request.get(`/bff/cpos/${cpoId}/operator-details`, { headers })).json()) as {
      data: { erpValues: { paymentMethod: string; clientNumber: string; netLedgerAccountNr: string; taxLedgerAccountNr: string | null }[] };
    };
    const erp = detail.data.erpValues.find(
      (e) => e.paymentMethod === 'SEPA' && /^\d+\/\d+$/.test(e.clientNumber) && e.netLedgerAccountNr && e.taxLedgerAccountNr,
    );
    if (!erp) continue;
    for (let back = 0; back < 13; back++) {
      const { from, to } = monthBack(back);
      const q = `startDate=${from}&endDate=${to}&cpoId=${cpoId}&locationIds=all&paymentMethod=SEPA`;
      const res = await page.request.get(`/booking-service/bookings/generate/xml?${q}`, { headers });
      if (res.status() === 200) return { cpoId, erp, from, to };
      if (res.status() !== 204) break;
    }
  }
  throw new Error('The demo data has no operator of the partner with complete SEPA ERP values and SEPA bills');
}

async function shoot(page: Page, name: string) {
  if (!process.env.SHOTS_DIR) return;
  for (const [w, h] of [
    [1024, 768],
    [768, 1024],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/${name}-${w}x${h}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an operator: history and invoices, no ERP; files saved, no data, a cancelled download', async ({ page }) => {
  await signIn(page, 'operator');
  await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Downloadcenter' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Downloadcenter' })).toBeVisible();
  await expect(tabs(page).getByRole('tab')).toHaveText(['Ladehistorie', 'Rechnungen']);
  // Without a location nothing can be asked for.
  await expect(page.getByRole('button', { name: 'CSV herunterladen' })).toBeDisabled();

  // The history over every location for a year: the server's name, German Excel's format.
  await page.goto(url({ hLoc: ['all'], hFrom: yearAgo(), hTo: berlinToday() }));
  await expect(page.getByRole('button', { name: /Standorte/ })).toContainText(/\d/);
  await shoot(page, 'downloads-history-de');
  await expectNoSeriousA11yViolations(page);
  const history = await save(page, 'CSV herunterladen');
  expect(history.name).toMatch(/\.csv$/);
  expect([...history.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(history.bytes.toString('utf8').split('\r\n').length).toBeGreaterThan(2);

  // A range without data answers 204: the no-data dialog, the form as it was.
  await page.goto(url({ hLoc: ['all'], hFrom: '2001-01-01', hTo: '2001-01-31' }));
  await page.getByRole('button', { name: 'CSV herunterladen' }).click();
  const noData = page.getByRole('alertdialog', { name: 'Keine Daten' });
  await expect(noData).toContainText('keine Daten zum Herunterladen');
  await noData.getByRole('button', { name: 'OK' }).click();
  await expect(page.getByRole('button', { name: /Standorte/ })).toContainText('Alle ausgewählt');
  await expect(page.getByRole('button', { name: 'CSV herunterladen' })).toBeEnabled();

  // The billing CSV, first cancelled while it loads (held back by the test), then saved.
  await page.goto(url({ tab: 'invoices', iLoc: ['all'], iFrom: yearAgo(), iTo: berlinToday() }));
  await expect(tabs(page).getByRole('tab', { name: 'Rechnungen' })).toHaveAttribute('aria-selected', 'true');
  await page.route('**/bookings/standard-csv*', async (route) => {
    await new Promise((r) => setTimeout(r, 2000));
    await route.continue().catch(() => {});
  });
  await page.getByRole('button', { name: 'CSV herunterladen' }).click();
  await expect(status(page)).toHaveText(/empfangen/);
  await page.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(status(page)).toHaveText('Herunterladen abgebrochen.');
  await page.unroute('**/bookings/standard-csv*');
  await expect(page).toHaveURL(/tab=invoices/);
  await expect(page.getByRole('button', { name: 'CSV herunterladen' })).toBeEnabled();
  const billing = await save(page, 'CSV herunterladen');
  expect(billing.name).toBe(`StandardBills${berlinToday().replaceAll('-', '')}.csv`);
  expect(billing.bytes.toString('utf8').split('\r\n')[0]).toContain(';');
  await expect(tabs(page).getByRole('tab', { name: 'ERP-Import' })).toHaveCount(0);

  // Offline the button says why it cannot work instead of failing.
  await page.context().setOffline(true);
  await expect(page.getByRole('button', { name: 'Herunterladen nur mit Netzverbindung' })).toBeDisabled();
  await page.context().setOffline(false);
  await expect(page.getByRole('button', { name: 'CSV herunterladen' })).toBeEnabled();

  // An ERP file is not the operator's at all.
  const res = await page.request.get(
    `/booking-service/bookings/generate/xml?startDate=${thisYear()}&endDate=${berlinToday()}&cpoId=x&locationIds=all&paymentMethod=SEPA`,
    { headers: { Authorization: await bearer(page) } },
  );
  expect([403, 404]).toContain(res.status());
});

test('a partner: the ERP tab, its XML valid against the XSD, a missing value named, and the DATEV file', async ({ page }) => {
  await signIn(page, 'partner');
  const { cpoId, erp, from, to } = await erpReadyOperator(page);
  await page.goto('/downloadcenter?tab=erp');
  await expect(tabs(page).getByRole('tab')).toHaveText(['Ladehistorie', 'Rechnungen', 'ERP-Import']);
  const xmlButton = page.getByRole('button', { name: 'ERP-XML herunterladen' });
  await expect(xmlButton).toBeDisabled();

  // The operator select lists 'id: name'; its locations follow the operator (the SEPA file's own select is below).
  await page
    .getByRole('button', { name: /Betreiber/ })
    .first()
    .click();
  await expect(page.getByRole('option').first()).toHaveText(/^\S+: .+/);
  await page.getByRole('option', { name: new RegExp(`^${cpoId}: `) }).click();
  const locations = page.getByRole('button', { name: /Standorte/ });
  await locations.click();
  await page.getByRole('option', { name: 'Alle' }).click();
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(new RegExp(`cpo=${cpoId}`));
  await page.goto(page.url().replace(/eFrom=[^&]*&?|eTo=[^&]*&?/g, '') + `&eFrom=${from}&eTo=${to}`);
  await expect(xmlButton).toBeEnabled();
  // Stripe's bills are exported too (issue 35), posted on the operator's clearing account.
  await expect(page.getByRole('radiogroup', { name: 'Zahlungsart' }).getByRole('radio')).toHaveCount(4);
  await expect(page.getByRole('radio', { name: 'Stripe Karte' })).toBeVisible();
  await shoot(page, 'downloads-erp-de');
  await expectNoSeriousA11yViolations(page);

  // The ERP XML of a month with bills: saved, read back, valid against erp-export.xsd.
  const xml = await save(page, 'ERP-XML herunterladen');
  expect(xml.name).toBe(`ERPDaten_${berlinToday().replaceAll('-', '')}.xml`);
  const text = xml.bytes.toString('utf8');
  expect(text).toMatch(/^<\?xml/);
  expect(text).toContain(`<CpoId>${cpoId}</CpoId>`);
  expect(text).toContain(`<ClientNumber>${erp.clientNumber}</ClientNumber>`);
  expect(text).toContain('<PostingLine type="GROSS">');
  expect(xmllint(xml.bytes, 'server/src/downloads/erp-export.xsd')).toBe('ok');

  // A value the file cannot take (answered as a server with such data would): the dialog names it.
  await page.route('**/bookings/generate/xml*', (route) =>
    route.fulfill({
      status: 422,
      contentType: 'application/json',
      body: JSON.stringify({
        errorCodeResponse: 'ERP_VALUE_INVALID',
        errorMessage: 'netLedgerAccountNr is not what the ERP export allows',
        errorDetail: { invalid: 'netLedgerAccountNr', value: 'ER-8400/A', expected: '4 to 8 digits', cpoId },
      }),
    }),
  );
  await xmlButton.click();
  const dialog = page.getByRole('alertdialog', { name: 'Angaben fehlen' });
  await expect(dialog).toContainText('Ein ERP-Wert hat nicht die Form, die die Datei verlangt.');
  await expect(dialog.getByTestId('missing-info-detail')).toContainText('Ungültiger Wert: Erlöskonto (netto)');
  await expect(dialog.getByTestId('missing-info-detail')).toContainText('Eingetragen: ER-8400/A');
  await shoot(page, 'downloads-missing-de');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await page.unroute('**/bookings/generate/xml*');
  await expect(xmlButton).toBeEnabled();

  // DATEV: the same month; consultant and client number from the ERP value.
  const datev = await save(page, 'DATEV-Datei herunterladen');
  expect(datev.name).toBe(`EXTF_Buchungsstapel_${berlinToday().replaceAll('-', '')}.csv`);
  const lines = datev.bytes.toString('latin1').split('\r\n');
  expect(lines[0]).toMatch(/^"EXTF";700;21;"Buchungsstapel";/);
  expect(lines[0]).toContain(`;${erp.clientNumber.replace('/', ';')};`);
  expect(lines.length).toBeGreaterThan(3);

  // English, once.
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.reload();
  await expect(tabs(page).getByRole('tab')).toHaveText(['Charging history', 'Invoices', 'ERP import']);
  await expect(page.getByRole('button', { name: 'Download DATEV file' })).toBeEnabled();
  await shoot(page, 'downloads-erp-en');
  await page.getByRole('tab', { name: 'Charging history' }).click();
  await shoot(page, 'downloads-history-en');
});

test('in English: an operator saves the charging history and meets the no-data dialog', async ({ page }) => {
  await signIn(page, 'operator');
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto(url({ hLoc: ['all'], hFrom: yearAgo(), hTo: berlinToday() }));
  await expect(page.getByRole('heading', { level: 1, name: 'Download center' })).toBeVisible();
  await expect(tabs(page).getByRole('tab')).toHaveText(['Charging history', 'Invoices']);
  const history = await save(page, 'Download CSV');
  expect(history.name).toMatch(/\.csv$/);
  expect([...history.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(history.bytes.toString('utf8').split('\r\n').length).toBeGreaterThan(2);
  await expect(status(page)).toContainText(`Saved: ${history.name}`);

  await page.goto(url({ hLoc: ['all'], hFrom: '2001-01-01', hTo: '2001-01-31' }));
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const noData = page.getByRole('alertdialog', { name: 'No data' });
  await expect(noData).toContainText('There is no data to download in the chosen period.');
  await expectNoSeriousA11yViolations(page);
  await noData.getByRole('button', { name: 'OK' }).click();
  await expect(noData).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
});

test('an admin sees all three tabs', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/downloadcenter');
  await expect(tabs(page).getByRole('tab')).toHaveText(['Ladehistorie', 'Rechnungen', 'ERP-Import']);
  await tabs(page).getByRole('tab', { name: 'Rechnungen' }).click();
  await expect(page).toHaveURL(/tab=invoices/);
  await expect(page.getByRole('tabpanel').getByRole('button', { name: 'CSV herunterladen' })).toBeVisible();
  await tabs(page).getByRole('tab', { name: 'ERP-Import' }).click();
  await expect(page).toHaveURL(/tab=erp/);
  await expect(page.getByRole('button', { name: 'ERP-XML herunterladen' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'DATEV-Datei herunterladen' })).toBeVisible();
});

/** A day of the demo data with SEPA bills to collect: each generated or sent SEPA bill's day plus its operator's days until payment. */
async function sepaCollectionDay(page: Page): Promise<{ cpoId: string; day: string }> {
  const headers = { Authorization: await bearer(page) };
  const bills = (await (
    await page.request.get(
      '/booking-service/bookings/get-bills/operator?page=0&size=100&paymentMethods=SEPA&billingStatuses=GENERATED,SENT',
      {
        headers,
      },
    )
  ).json()) as { data: { response: { billGenerationDate: string }[] } };
  const days = [
    ...new Set(
      bills.data.response.map((b) =>
        new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(b.billGenerationDate)),
      ),
    ),
  ];
  const ops = (await (await page.request.get('/bff/cpos?page=0&size=50', { headers })).json()) as {
    data: { response: { cpoId: string }[] };
  };
  for (const { cpoId } of ops.data.response) {
    const detail = (await (await page.request.get(`/bff/cpos/${cpoId}/operator-details`, { headers })).json()) as {
      data: { cpoPaymentDetails?: { creditorId?: string | null; moneyCollectionGapInDays?: number | null } };
    };
    const pay = detail.data.cpoPaymentDetails;
    if (!pay?.creditorId) continue;
    for (const generated of days) {
      const d = new Date(`${generated}T12:00:00Z`);
      d.setUTCDate(d.getUTCDate() + (pay.moneyCollectionGapInDays ?? 0));
      const day = d.toISOString().slice(0, 10);
      const res = await page.request.get(`/booking-service/bookings/generate/sepa?cpoId=${cpoId}&collectionDate=${day}`, { headers });
      if (res.status() === 200) return { cpoId, day };
    }
  }
  throw new Error('The demo data has no SEPA bills of a partner operator with a creditor id');
}

test('a partner: a SEPA file downloaded for a collection date', async ({ page }) => {
  await signIn(page, 'partner');
  const { cpoId, day } = await sepaCollectionDay(page);
  const [y, m, d] = day.split('-');
  await page.goto(`/downloadcenter?tab=erp&sCpo=${cpoId}&sDay=${day}`);
  const section = page.getByRole('region', { name: 'SEPA-Lastschriftdatei für die Bank' });
  await expect(section.getByRole('button', { name: /Betreiber \(Gläubiger\)/ })).toContainText(`${cpoId}: `);
  await expect(section.getByRole('group', { name: 'Einzugsdatum' })).toContainText(`${d}.${m}.${y}`);
  await shoot(page, 'downloads-sepa-de');
  await expectNoSeriousA11yViolations(page);

  const file = await save(page, 'SEPA-Datei herunterladen', section);
  expect(file.name).toBe(`SEPA-Lastschriften_${cpoId}_${y}${m}${d}.xml`);
  const xml = file.bytes.toString('utf8');
  expect(xml).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain\.008\.001\.08"/);
  const count = Number(/<GrpHdr>.*?<NbOfTxs>(\d+)<\/NbOfTxs>/.exec(xml)?.[1]);
  expect(count).toBeGreaterThan(0);
  expect(xml).toContain(`<ReqdColltnDt>${day}</ReqdColltnDt>`);
  expect(xml).toMatch(/<SeqTp>(FRST|RCUR)<\/SeqTp>/);
  // Valid for the German banks (their GBIC subset of pain.008.001.08); a sequence type the scheme
  // does not know is refused, so the check can fail.
  const gbic = 'server/src/downloads/schemas/pain.008.001.08_GBIC_4.xsd';
  expect(xmllint(xml, gbic)).toBe('ok');
  expect(xmllint(xml.replace(/<SeqTp>(FRST|RCUR)<\/SeqTp>/, '<SeqTp>XXXX</SeqTp>'), gbic)).toMatch(/fails to validate/);

  // A day without bills: the no-data dialog says so in the SEPA file's words.
  await page.goto(`/downloadcenter?tab=erp&sCpo=${cpoId}&sDay=2001-01-01`);
  await page.getByRole('button', { name: 'SEPA-Datei herunterladen' }).click();
  const noData = page.getByRole('alertdialog', { name: 'Keine Daten' });
  await expect(noData).toContainText('keine Rechnungen per SEPA-Lastschrift mit diesem Einzugsdatum');
  await noData.getByRole('button', { name: 'OK' }).click();

  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto(`/downloadcenter?tab=erp&sCpo=${cpoId}&sDay=${day}`);
  await expect(page.getByRole('button', { name: 'Download SEPA file' })).toBeEnabled();
  await shoot(page, 'downloads-sepa-en');
});
