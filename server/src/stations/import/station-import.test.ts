import { and, eq, inArray, isNotNull, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stationImportAnswerSchema, stationImportErrorDetailSchema, templateColumns } from '../../../../contract/station-import';
import { locations } from '../../db/schema/locations';
import { connectors } from '../../db/schema/stations';
import { createHarness, type Harness } from '../../test/harness';
import { csvFile, pngBytes, xlsFile, xlsxFile, type Cells } from '../../test/station-import-files';
import { csvTemplate } from './template';

let h: Harness;
let tokens: Record<'admin' | 'operator', string>;
/** Two locations of different operators, and a parking lot in use at the first. */
let loc: { locationId: string; cpoId: string }[];
let takenLot: string;
let takenCpId: string;

beforeAll(async () => {
  // The rules, not the time limit, are tested here: a loaded machine must not turn a file into UPLOAD_NOT_READABLE.
  h = await createHarness({ UPLOAD_CHECK_TIMEOUT_MS: 60_000 });
  tokens = { admin: (await h.login('admin')).access_token, operator: (await h.login('operator')).access_token };
  const all = await h.db.select({ locationId: locations.locationId, cpoId: locations.cpoId }).from(locations).orderBy(locations.locationId);
  loc = [all[0]!, all.find((l) => l.cpoId !== all[0]!.cpoId)!];
  const [used] = await h.db
    .select()
    .from(connectors)
    .where(and(eq(connectors.locationId, loc[0]!.locationId), isNotNull(connectors.parkingLot), eq(connectors.removed, false)));
  takenLot = used!.parkingLot!;
  takenCpId = used!.cpId;
});
afterAll(() => h?.close());

const upload = (bytes: Uint8Array, opts: { token?: string; name?: string; query?: string; key?: string } = {}) => {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), opts.name ?? 'stations.csv');
  const headers: Record<string, string> = { authorization: `Bearer ${opts.token ?? tokens.admin}` };
  if (opts.key) headers['idempotency-key'] = opts.key;
  return h.app.request(`/bff/connectors/upload?${opts.query ?? 'csvSeparator=%3B'}`, { method: 'POST', headers, body: form });
};
const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as any }); // eslint-disable-line @typescript-eslint/no-explicit-any

let serial = 0;
/** A valid station row at location `i` with fresh lots; `over` changes cells. */
const row = (over: Cells = {}, i = 0): Cells => {
  serial++;
  return {
    locationId: loc[i]!.locationId,
    cpId: `IMP-${serial}`,
    wallboxModel: 'ABL eMH3 Twin',
    connectorCount: 2,
    parkingLot1: `A${serial}`,
    parkingLot2: `B${serial}`,
    ...over,
  };
};
const stationsLike = (prefix: string) =>
  h.db
    .select()
    .from(connectors)
    .where(like(connectors.cpId, `${prefix}%`));
const connectorCount = async () => (await h.db.select({ id: connectors.connectorId }).from(connectors)).length;

const getTemplate = (format: string, token = tokens.admin) =>
  h.app.request(`/bff/connectors/upload/template?format=${format}`, { headers: { authorization: `Bearer ${token}` } });

describe('templates', () => {
  it('CSV: the header row with the configured separator, BOM and CRLF', async () => {
    const res = await getTemplate('csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('Ladestationen-Vorlage.csv');
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
    expect(text).toBe(`\uFEFF${templateColumns.join(';')}\r\n`);
    expect(csvTemplate(',')).toBe(`\uFEFF${templateColumns.join(',')}\r\n`);
  });

  it('XLSX: the header row on the first sheet, the wallbox models on the second', async () => {
    const res = await getTemplate('xlsx');
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const [stations, models] = book.worksheets;
    expect((stations!.getRow(1).values as unknown[]).slice(1)).toEqual(templateColumns);
    expect(models!.rowCount).toBeGreaterThan(1);
    expect(models!.getRow(2).getCell(1).value).toBe('ABL eMH1');
  });

  it('admins only; an unknown format is 400', async () => {
    expect((await getTemplate('csv', tokens.operator)).status).toBe(403);
    expect((await getTemplate('pdf')).status).toBe(400);
  });
});

describe('POST /connectors/upload', () => {
  it('a good CSV: the dry run shows what would be created and writes nothing; the import creates exactly that', async () => {
    const rows = [
      row({ cpId: 'GOOD-1' }),
      row({ cpId: 'GOOD-2', wallboxModel: 'ABL eMH1', connectorCount: 1, parkingLot2: '' }, 1),
      row({ cpId: '' }),
    ];
    const before = await connectorCount();
    const dry = await answer(await upload(csvFile(rows), { query: 'csvSeparator=%3B&dryRun=true' }));
    expect(dry.status).toBe(200);
    const preview = stationImportAnswerSchema.parse(dry.body.data);
    expect(preview).toMatchObject({ dryRun: true, stationCount: 3, connectorCount: 5 });
    expect(preview.locations.map((l) => [l.locationId, l.stations.map((s) => s.cpId.replace(/^OLI\d+$/, 'OLI'))])).toEqual([
      [loc[0]!.locationId, ['GOOD-1', 'OLI']],
      [loc[1]!.locationId, ['GOOD-2']],
    ]);
    expect(await connectorCount()).toBe(before);

    const done = await answer(await upload(csvFile(rows)));
    expect(done.status).toBe(200);
    const created = stationImportAnswerSchema.parse(done.body.data);
    expect(created.dryRun).toBe(false);
    const generated = created.locations[0]!.stations[1]!.cpId;
    expect(generated).toMatch(/^OLI\d{6}$/);
    expect(await connectorCount()).toBe(before + 5);
    const stored = await h.db
      .select()
      .from(connectors)
      .where(inArray(connectors.cpId, ['GOOD-1', 'GOOD-2', generated]));
    expect(stored.map((c) => [c.connectorId, c.locationId, c.cpoId, c.parkingLot, c.wallboxModel, c.status]).sort()).toEqual(
      [
        ['GOOD-1_1', loc[0]!.locationId, loc[0]!.cpoId, rows[0]!.parkingLot1, 'ABL eMH3 Twin', 'INACTIVE'],
        ['GOOD-1_2', loc[0]!.locationId, loc[0]!.cpoId, rows[0]!.parkingLot2, 'ABL eMH3 Twin', 'INACTIVE'],
        ['GOOD-2_1', loc[1]!.locationId, loc[1]!.cpoId, rows[1]!.parkingLot1, 'ABL eMH1', 'INACTIVE'],
        [`${generated}_1`, loc[0]!.locationId, loc[0]!.cpoId, rows[2]!.parkingLot1, 'ABL eMH3 Twin', 'INACTIVE'],
        [`${generated}_2`, loc[0]!.locationId, loc[0]!.cpoId, rows[2]!.parkingLot2, 'ABL eMH3 Twin', 'INACTIVE'],
      ].sort(),
    );
  });

  it('a good XLSX and a good XLS create exactly what they list; a station without location gets its operator', async () => {
    const xlsx = await answer(await upload(await xlsxFile([row({ cpId: 'XLSX-1' })]), { name: 'stations.xlsx' }));
    expect(xlsx.status).toBe(200);
    expect((await stationsLike('XLSX-')).map((c) => c.connectorId).sort()).toEqual(['XLSX-1_1', 'XLSX-1_2']);
    const unplaced = row({ cpId: 'XLS-1', locationId: '', operatorId: loc[1]!.cpoId, parkingLot1: '', parkingLot2: '' });
    const xls = await answer(await upload(xlsFile([unplaced]), { name: 'stations.xls' }));
    expect(xls.status).toBe(200);
    expect(xls.body.data.locations).toEqual([
      { locationId: null, locationName: null, cpoId: loc[1]!.cpoId, stations: [expect.objectContaining({ cpId: 'XLS-1' })] },
    ]);
    const stored = await stationsLike('XLS-');
    expect(stored.map((c) => [c.connectorId, c.locationId, c.cpoId, c.parkingLot])).toEqual([
      ['XLS-1_1', null, loc[1]!.cpoId, null],
      ['XLS-1_2', null, loc[1]!.cpoId, null],
    ]);
  });

  // One file per code of spec 2 §8: the code, its row and cell, and what the dialog shows.
  interface RowCase {
    rows: Cells[];
    row: number;
    column: string;
    status?: number;
    detail: Record<string, unknown>;
  }
  const rowCases: [string, () => RowCase][] = [
    [
      'FILE_INVALID_LOCATION',
      () => ({
        rows: [row({ locationId: 'NO-SUCH-LOCATION' })],
        row: 2,
        column: 'locationId',
        detail: { locations: ['NO-SUCH-LOCATION'] },
      }),
    ],
    [
      'FILE_DUPLICATED_PARKINGLOT',
      () => ({
        rows: [row({ parkingLot1: 'DUP1' }), row({ parkingLot2: 'DUP1' })],
        row: 3,
        column: 'parkingLot2',
        detail: { duplicatedParkingLots: [{ locationId: loc[0]!.locationId, parkingLot: 'DUP1' }] },
      }),
    ],
    [
      'FILE_INVALID_ABBREVIATION',
      () => ({ rows: [row(), row({ wallboxModel: 'NoSuchBox' })], row: 3, column: 'wallboxModel', detail: {} }),
    ],
    [
      'FILE_DUPLICATED_CPIDS',
      () => ({ rows: [row({ cpId: 'TWICE' }), row({ cpId: 'TWICE' })], row: 3, column: 'cpId', detail: { cpIds: ['TWICE'] } }),
    ],
    ['FILE_INVALID_LENGTH_PARKINGLOT', () => ({ rows: [row({ parkingLot1: 'P12345' })], row: 2, column: 'parkingLot1', detail: {} })],
    [
      'FILE_INVALID_EMPTY_LOCATION_NOT_EMPTY_PARKINGlOT',
      () => ({ rows: [row({ locationId: '', operatorId: loc[0]!.cpoId, parkingLot2: '' })], row: 2, column: 'parkingLot1', detail: {} }),
    ],
    [
      'WALLBOX_INVALID_NUMBER_CONNECTORS',
      () => ({
        rows: [row({ wallboxModel: 'ABL eMH1', connectorCount: 2 })],
        row: 2,
        column: 'connectorCount',
        detail: { wallboxes: ['ABL eMH1'] },
      }),
    ],
    [
      'PARKINGLOT_EXISTS',
      () => ({ rows: [row({ parkingLot2: takenLot })], row: 2, column: 'parkingLot2', status: 409, detail: { parkingLots: [takenLot] } }),
    ],
  ];
  it.each(rowCases)('%s: named with its row, cell and detail; nothing written', async (code, make) => {
    const want = make();
    const before = await connectorCount();
    const res = await answer(await upload(csvFile(want.rows)));
    expect(res.status).toBe(want.status ?? 400);
    expect(res.body.errorCodeResponse).toBe(code);
    const detail = stationImportErrorDetailSchema.parse(res.body.errorDetail);
    expect(detail.errors).toEqual([expect.objectContaining({ code, row: want.row, column: want.column })]);
    expect(detail).toMatchObject(want.detail);
    expect(await connectorCount()).toBe(before);
  });

  it('a station id that exists already is FILE_DUPLICATED_CPIDS', async () => {
    const res = await answer(await upload(csvFile([row({ cpId: takenCpId })])));
    expect(res.body).toMatchObject({ errorCodeResponse: 'FILE_DUPLICATED_CPIDS', errorDetail: { cpIds: [takenCpId] } });
  });

  const fileCases: [string, () => Promise<Uint8Array> | Uint8Array, string, Record<string, unknown>][] = [
    ['CSV_SEPARATOR_NOT_SUPPORTED', () => csvFile([row()]), 'csvSeparator=x', { separator: 'x' }],
    ['ERROR_PARSING_CSV_FILE', () => Buffer.from('locationId;cpId\nL;C\n'), 'csvSeparator=%3B', { reason: 'missingColumns' }],
    ['ERROR_PARSING_XLSX_FILE', async () => (await xlsxFile([row()])).subarray(0, 2000), 'csvSeparator=%3B', {}],
    ['ERROR_PARSING_XLS_FILE', () => Buffer.concat([xlsFile([row()]).subarray(0, 1024), Buffer.alloc(64, 0xff)]), 'csvSeparator=%3B', {}],
    ['UNSUPPORTED_FILE_TYPE', () => pngBytes(), 'csvSeparator=%3B', {}],
  ];
  it.each(fileCases)('%s for the file as a whole (a PNG renamed .csv is not a CSV)', async (code, file, query, detail) => {
    const res = await answer(await upload(await file(), { query, name: 'stations.csv' }));
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe(code);
    expect(res.body.errorDetail).toMatchObject(detail);
  });

  it('three different mistakes in a dry run are all listed, each with its row and cell', async () => {
    const rows = [row(), row({ locationId: 'NOWHERE' }), row(), row({ parkingLot1: 'TOOLONG' }), row({ wallboxModel: 'Nope' })];
    const res = await answer(await upload(csvFile(rows), { query: 'csvSeparator=%3B&dryRun=true' }));
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('FILE_INVALID_LOCATION');
    expect(res.body.errorDetail.errors).toEqual([
      { code: 'FILE_INVALID_LOCATION', row: 3, column: 'locationId', value: 'NOWHERE' },
      { code: 'FILE_INVALID_LENGTH_PARKINGLOT', row: 5, column: 'parkingLot1', value: 'TOOLONG' },
      { code: 'FILE_INVALID_ABBREVIATION', row: 6, column: 'wallboxModel', value: 'Nope' },
    ]);
  });

  it('Windows-1252 umlauts from German Excel survive into the database', async () => {
    const res = await answer(
      await upload(csvFile([row({ cpId: 'UML-1', parkingLot1: 'Fä-Ü', parkingLot2: 'Gß€' })], { encoding: 'win1252' })),
    );
    expect(res.status).toBe(200);
    expect((await stationsLike('UML-')).map((c) => c.parkingLot).sort()).toEqual(['Fä-Ü', 'Gß€']);
  });

  it('the same file again with its Idempotency-Key is answered from the first answer and creates nothing twice', async () => {
    const file = csvFile([row({ cpId: 'ONCE-1' })]);
    const first = await answer(await upload(file, { key: 'import-once' }));
    expect(first.status).toBe(200);
    const before = await connectorCount();
    const again = await upload(file, { key: 'import-once' });
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(await again.json()).toEqual(first.body);
    expect(await connectorCount()).toBe(before);
    expect(await stationsLike('ONCE-')).toHaveLength(2);
    // Without the key the repeat is refused by the rows themselves.
    expect((await answer(await upload(file))).body.errorCodeResponse).toBe('FILE_DUPLICATED_CPIDS');
  });

  it('two overlapping imports at once create each parking lot once', async () => {
    const shared = { parkingLot1: 'RACE1', parkingLot2: 'RACE2' };
    const [a, b] = await Promise.all([
      (async () => answer(await upload(csvFile([row({ cpId: 'RACE-A', ...shared }), row({ cpId: 'RACE-A2' })]))))(),
      (async () => answer(await upload(csvFile([row({ cpId: 'RACE-B', ...shared })]))))(),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect([a, b].find((x) => x.status === 409)!.body.errorCodeResponse).toBe('PARKINGLOT_EXISTS');
    const lots = await h.db
      .select()
      .from(connectors)
      .where(and(eq(connectors.locationId, loc[0]!.locationId), inArray(connectors.parkingLot, ['RACE1', 'RACE2'])));
    expect(lots).toHaveLength(2);
  });

  it('admins only: an operator gets 403 and nothing is read; a file above STATION_IMPORT_MAX_BYTES is 413', async () => {
    expect((await upload(csvFile([row()]), { token: tokens.operator })).status).toBe(403);
    const big = Buffer.concat([csvFile([row()]), Buffer.alloc(h.env.STATION_IMPORT_MAX_BYTES, 0x20)]);
    const res = await answer(await upload(big));
    expect(res.status).toBe(413);
    expect(res.body.errorCodeResponse).toBe('PAYLOAD_TOO_LARGE');
  });
});
