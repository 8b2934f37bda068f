import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { bearer, expectNoSeriousA11yViolations, signIn } from './helpers';

/**
 * Issue 28: an admin creates stations from a file. Downloads the Excel template, fills it in here,
 * uploads it, sees the preview, imports and finds the new stations in the list; a file with
 * mistakes shows the table of row, column and message. Once in German, once in English.
 */

const texts = {
  de: {
    menu: 'Ladestationen anlegen',
    upload: 'Anlegen per CSV- oder Excel-Datei',
    template: 'Excel-Vorlage (.xlsx)',
    choose: 'Datei auswählen',
    check: 'Datei prüfen',
    import: /2 Ladestationen importieren/,
    success: 'Ladestationen importiert',
    close: 'Schließen',
    other: 'Andere Datei wählen',
    mistakes: ['Zeile', 'Spalte', 'Meldung'],
    unknownModel: 'Unbekanntes Wallbox-Modell: Gibt es nicht',
    tooLong: 'Parkplatz LANG123 ist länger als 5 Zeichen',
  },
  en: {
    menu: 'Create charging stations',
    upload: 'Create via CSV/Excel upload',
    template: 'Excel template (.xlsx)',
    choose: 'Choose file',
    check: 'Check file',
    import: /Import 2 charging stations/,
    success: 'Charging stations imported',
    close: 'Close',
    other: 'Choose another file',
    mistakes: ['Row', 'Column', 'Message'],
    unknownModel: 'Unknown wallbox model: Gibt es nicht',
    tooLong: 'Parking lot LANG123 is longer than 5 characters',
  },
} as const;

async function someLocationId(page: Page): Promise<string> {
  const res = await page.request.get('/bff/connectors/get-by-cpo?page=0&size=10', { headers: { Authorization: await bearer(page) } });
  const rows = ((await res.json()) as { data: { response: { locationId: string | null }[] } }).data.response;
  return rows.find((r) => r.locationId)!.locationId!;
}

/** The downloaded template with `rows` written under its header, as an installer would. */
async function filledTemplate(path: string, rows: (string | number)[][]): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const bytes = await readFile(path);
  await book.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const sheet = book.worksheets[0]!;
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function chooseFile(page: Page, label: string, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('dialog').getByRole('button', { name: label }).click();
  await (await chooser).setFiles({ name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
}

for (const lang of ['de', 'en'] as const) {
  test(`admin imports stations from the filled-in template, and sees a file's mistakes (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    const x = texts[lang];
    await signIn(page, 'admin');
    if (lang === 'en') {
      await page.evaluate(() => localStorage.setItem('language', 'en'));
    }
    await page.goto('/stationen');
    const locationId = await someLocationId(page);
    await page.getByRole('button', { name: x.menu }).click();
    await page.getByRole('menuitem', { name: x.upload }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('button', { name: x.template })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: x.template }).click();
    const template = await (await download).path();

    const stamp = `${lang.toUpperCase()}${Date.now().toString(36).toUpperCase()}`;
    const lot = (n: number) => `${lang[0]!.toUpperCase()}${Date.now().toString(36).slice(-3).toUpperCase()}${n}`;
    const good = await filledTemplate(template, [
      [locationId, '', `E2E-${stamp}-1`, 'ABL eMH3 Twin', '2', lot(1), lot(2)],
      [locationId, '', `E2E-${stamp}-2`, 'ABL eMH1', '1', lot(3)],
    ]);
    await chooseFile(page, x.choose, 'stationen.xlsx', good);
    await dialog.getByRole('button', { name: x.check }).click();
    const preview = dialog.getByTestId('import-preview');
    await expect(preview).toContainText(`E2E-${stamp}-1`);
    await expect(preview).toContainText(`E2E-${stamp}-2`);
    await dialog.getByRole('button', { name: x.import }).click();
    await expect(dialog.getByRole('heading', { name: x.success })).toBeVisible();
    await expect(dialog.getByTestId('import-new-ids')).toContainText(`E2E-${stamp}-1`);
    await dialog.getByRole('button', { name: x.close }).first().click();

    await page.goto(`/stationen?cpId=E2E-${stamp}`);
    await expect(page.getByRole('row').filter({ hasText: `E2E-${stamp}-1` })).toHaveCount(2);
    await expect(page.getByRole('row').filter({ hasText: `E2E-${stamp}-2` })).toHaveCount(1);

    // A file with mistakes: every one listed with its row, column and message; nothing created.
    await page.getByRole('button', { name: x.menu }).click();
    await page.getByRole('menuitem', { name: x.upload }).click();
    const wrong = await filledTemplate(template, [
      [locationId, '', `E2E-${stamp}-3`, 'Gibt es nicht', '1'],
      [locationId, '', `E2E-${stamp}-4`, 'ABL eMH1', '1', 'LANG123'],
    ]);
    await chooseFile(page, x.choose, 'fehler.xlsx', wrong);
    await dialog.getByRole('button', { name: x.check }).click();
    const table = dialog.getByTestId('import-mistakes');
    await expect(table).toBeVisible();
    for (const header of x.mistakes) await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
    await expect(table.getByRole('row').nth(1)).toContainText('2');
    await expect(table.getByRole('row').nth(1)).toContainText('wallboxModel');
    await expect(table.getByRole('row').nth(1)).toContainText(x.unknownModel);
    await expect(table.getByRole('row').nth(2)).toContainText('parkingLot1');
    await expect(table.getByRole('row').nth(2)).toContainText(x.tooLong);
    await expectNoSeriousA11yViolations(page);
    await expect(dialog.getByRole('button', { name: x.other })).toBeVisible();
  });
}
