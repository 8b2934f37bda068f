import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { templateColumns } from '../../../../contract/station-import';
import type { Db } from '../../db/client';
import { listWallboxTypes } from '../../locations/queries';

/** The empty CSV template: the header row with the configured separator, a BOM and CRLF (what German Excel opens as columns). */
export function csvTemplate(separator: string): string {
  return `\uFEFF${stringify([templateColumns], { delimiter: separator, record_delimiter: '\r\n' })}`;
}

/**
 * The empty XLSX template: the header row on the first sheet (the one the import reads), and the
 * wallbox models with their connector counts on a second one, so the installer can copy a name
 * exactly as the import wants it.
 */
export async function xlsxTemplate(db: Db): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Ladestationen');
  sheet.columns = templateColumns.map((name) => ({ header: name, key: name, width: Math.max(14, name.length + 4) }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  // Text cells: Excel would otherwise turn a parking lot "007" into 7 and a long id into 1E+15.
  for (const column of sheet.columns) column.numFmt = '@';
  const models = book.addWorksheet('Wallbox-Modelle');
  models.columns = [
    { header: 'wallboxModel', key: 'name', width: 32 },
    { header: 'connectorCount', key: 'connectors', width: 16 },
  ];
  models.getRow(1).font = { bold: true };
  for (const m of await listWallboxTypes(db)) models.addRow({ name: m.name, connectors: m.connectorsPerStation });
  return Buffer.from(await book.xlsx.writeBuffer());
}
