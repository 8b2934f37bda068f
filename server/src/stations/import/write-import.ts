import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import { PARKING_LOT_COLUMN, type ImportMistake } from '../../../../contract/station-import';
import type { Db } from '../../db/client';
import { stationImportRows, stationImports } from '../../db/schema/station-imports';
import { qualified, transactionLock } from '../../db/sql-helpers';
import { ApiError } from '../../http/errors';
import { nextCpNumber } from '../queries';
import type { CheckedRow } from './check-rows';
import { newStationRows } from './new-stations';

/**
 * The import's write in short transactions (`README.md`, "Guarantees"). On PGlite every statement
 * shares one connection, so the one transaction of a 10,000-station write (5–7 s) stalled every
 * other tenant; even one statement moving 10,000 rows into `connectors` takes ~0.4–0.6 s there
 * (its eight indexes and three foreign keys). So: the rows are staged in `station_import_rows`
 * (statements of 1,000 rows, outside the live table), then one transaction under the station-id
 * lock checks them against the live table, records the import in `station_imports` and moves the
 * first batch; the other batches follow, one short transaction each, the last one deleting the
 * record. A failure undoes the batches moved; a process that died mid-way is undone at the next
 * start (`recoverStationImports`), so no half import stays and a retry finds nothing in its way.
 */

/** Connector rows per staging statement and per moving transaction (~25 ms each on a quiet PGlite). */
export const IMPORT_BATCH_ROWS = 500;
/** An import recorded longer ago than this belongs to a dead process (a move takes seconds). */
const STALE_MINUTES = 10;
/** How long an import waits for another one's move before it answers 409 CONFLICT. */
const BUSY_WAIT_MS = 60_000;

/** A station as it will be created; `handedOut`: its OLI id was handed out, not named by the file. */
export type NamedStation = CheckedRow & { handedOut: boolean };

/** Test seams: runs after each batch is moved (a failure or a crash in the middle). */
export interface WriteHooks {
  afterBatch?: (batch: number) => Promise<void>;
}

type Claim = { busy: true } | { mistakes: ImportMistake[] } | { shift: number };

const oliNumber = (cpId: string) => Number(cpId.slice(3));
const oli = (n: number) => `OLI${String(n).padStart(6, '0')}`;

async function stage(db: Db, importId: string, stations: NamedStation[]): Promise<number> {
  // The station with the highest handed-out id moves first: from then on the wizard's next id
  // (max + 1 over `connectors`) is past every id of this import.
  const last = stations.findLastIndex((s) => s.handedOut);
  const ordered = last > 0 ? [stations[last]!, ...stations.slice(0, last), ...stations.slice(last + 1)] : stations;
  const rows = ordered.flatMap((s) => newStationRows([s]).map((r) => ({ ...r, row: s.row, handedOut: s.handedOut })));
  for (let i = 0; i < rows.length; i += IMPORT_BATCH_ROWS) {
    // One JSON parameter a batch, not twelve a row: building and handing over 12,000 parameters
    // cost the main thread more than the statement costs the database.
    const json = JSON.stringify(
      rows.slice(i, i + IMPORT_BATCH_ROWS).map((r) => ({
        row: r.row,
        handed_out: r.handedOut,
        connector_id: r.connectorId,
        cp_id: r.cpId,
        connector_number: r.connectorNumber,
        cpo_id: r.cpoId,
        location_id: r.locationId ?? null,
        parking_lot: r.parkingLot ?? null,
        wallbox_model: r.wallboxModel,
        status: r.status ?? 'INACTIVE',
      })),
    );
    await db.execute(sql`
      insert into station_import_rows (import_id, batch, row, handed_out, connector_id, cp_id, connector_number, cpo_id,
        location_id, parking_lot, wallbox_model, status)
      select ${importId}, ${i / IMPORT_BATCH_ROWS}, x.row, x.handed_out, x.connector_id, x.cp_id, x.connector_number, x.cpo_id,
        x.location_id, x.parking_lot, x.wallbox_model, x.status
      from json_to_recordset(${json}::json) as x(row int, handed_out boolean, connector_id text, cp_id text,
        connector_number int, cpo_id text, location_id text, parking_lot text, wallbox_model text, status text)`);
  }
  return Math.ceil(rows.length / IMPORT_BATCH_ROWS);
}

async function moveBatch(db: Db, importId: string, batch: number) {
  await db.execute(sql`
    insert into connectors (connector_id, cp_id, connector_number, cpo_id, location_id, parking_lot, wallbox_model, status)
    select connector_id, cp_id, connector_number, cpo_id, location_id, parking_lot, wallbox_model, status
    from station_import_rows where import_id = ${importId} and batch = ${batch}`);
}

/** What another writer took since the rows were checked: a lot at its location, or a named station id. */
async function conflicts(db: Db, importId: string, batch?: number): Promise<ImportMistake[]> {
  const t = stationImportRows;
  const staged = batch === undefined ? eq(t.importId, importId) : and(eq(t.importId, importId), eq(t.batch, batch));
  const lots = await db
    .select({ row: t.row, connectorNumber: t.connectorNumber, parkingLot: t.parkingLot })
    .from(t)
    .where(
      and(
        staged,
        isNotNull(t.parkingLot),
        sql`exists (select 1 from connectors c where c.location_id = ${qualified(t.locationId)}
          and c.parking_lot = ${qualified(t.parkingLot)} and c.removed = false)`,
      ),
    );
  const ids = await db
    .select({ row: t.row, cpId: t.cpId })
    .from(t)
    .where(
      and(
        staged,
        eq(t.handedOut, false),
        eq(t.connectorNumber, 1),
        sql`exists (select 1 from connectors c where c.cp_id = ${qualified(t.cpId)})`,
      ),
    );
  const mistakes: ImportMistake[] = [
    ...ids.map((r) => ({ code: 'FILE_DUPLICATED_CPIDS' as const, row: r.row, column: 'cpId', value: r.cpId })),
    ...lots.map((r) => ({
      code: 'PARKINGLOT_EXISTS' as const,
      row: r.row,
      column: `${PARKING_LOT_COLUMN}${r.connectorNumber}`,
      value: r.parkingLot!,
    })),
  ];
  return mistakes.sort((a, b) => a.row - b.row || (a.column === 'cpId' ? -1 : b.column === 'cpId' ? 1 : a.column.localeCompare(b.column)));
}

/**
 * Under the station-id lock: waits for another import still moving, moves the handed-out ids past
 * the wizard's or another import's taken meanwhile, and records the import.
 */
async function claim(root: Db, importId: string, batches: number, firstHandedOut: number | null): Promise<Claim> {
  return root.transaction(async (tx) => {
    await transactionLock(tx, 'connectors.cp_id');
    const [other] = await tx.select({ id: stationImports.importId }).from(stationImports).limit(1);
    if (other) return { busy: true };
    let shift = 0;
    if (firstHandedOut !== null) shift = Math.max(0, (await nextCpNumber(tx)) - firstHandedOut);
    if (shift > 0) {
      // As `oli()`: six digits at least, never cut (lpad would cut a seventh).
      const n = sql`(substring(cp_id from 4)::int + ${shift})`;
      const id = sql`'OLI' || case when ${n} < 1000000 then lpad(${n}::text, 6, '0') else ${n}::text end`;
      await tx
        .update(stationImportRows)
        .set({ cpId: id, connectorId: sql`${id} || '_' || connector_number` })
        .where(and(eq(stationImportRows.importId, importId), eq(stationImportRows.handedOut, true)));
    }
    await tx.insert(stationImports).values({ importId, batches, moved: 0 });
    return { shift };
  });
}

/**
 * One batch, under the station-id lock: checked against the live table (a lot or a named id taken
 * meanwhile, by the wizard or a parking-lot edit) and moved, the record counting it (the last one
 * deletes the record). Each check covers only its own 500 rows: one check of all 10,000 held
 * PGlite longer than the whole budget of another tenant's request on a loaded machine.
 */
async function moveChecked(root: Db, importId: string, batch: number, last: boolean): Promise<boolean> {
  return root.transaction(async (tx) => {
    await transactionLock(tx, 'connectors.cp_id');
    if ((await conflicts(tx, importId, batch)).length > 0) return false;
    await moveBatch(tx, importId, batch);
    const record = eq(stationImports.importId, importId);
    if (last) await tx.delete(stationImports).where(record);
    else
      await tx
        .update(stationImports)
        .set({ moved: batch + 1 })
        .where(record);
    return true;
  });
}

/** Deletes what an import moved (the batches before `moved`, one statement each) and its record. */
async function takeBack(db: Db, importId: string, moved: number) {
  for (let batch = moved - 1; batch >= 0; batch--) {
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        delete from connectors where connector_id in (
          select connector_id from station_import_rows where import_id = ${importId} and batch = ${batch})`);
      await tx.update(stationImports).set({ moved: batch }).where(eq(stationImports.importId, importId));
    });
  }
  await db.delete(stationImports).where(eq(stationImports.importId, importId));
}

/** The staged rows, one statement a batch. */
async function dropStaged(db: Db, importId: string, batches: number) {
  for (let batch = 0; batch < batches; batch++) {
    await db.delete(stationImportRows).where(and(eq(stationImportRows.importId, importId), eq(stationImportRows.batch, batch)));
  }
  await db.delete(stationImportRows).where(eq(stationImportRows.importId, importId));
}

async function undo(db: Db, importId: string, moved: number, batches: number) {
  await takeBack(db, importId, moved);
  await dropStaged(db, importId, batches);
}

/**
 * Undoes imports whose process died while moving them: at start on PGlite every one (only this
 * process opens its files), with staged rows left behind; on PostgreSQL those older than
 * STALE_MINUTES (another instance may be moving one right now).
 */
export async function recoverStationImports(db: Db, all: boolean) {
  const dead = await db
    .select()
    .from(stationImports)
    .where(all ? undefined : lt(stationImports.startedAt, sql`now() - make_interval(mins => ${STALE_MINUTES})`))
    .orderBy(asc(stationImports.startedAt));
  for (const d of dead) await undo(db, d.importId, d.moved, d.batches);
  if (all) await db.delete(stationImportRows);
}

export class ImportConflict extends Error {
  constructor(readonly mistakes: ImportMistake[]) {
    super('station import: taken meanwhile');
  }
}

/**
 * Writes the stations, all or none: staged, checked and moved (see above). Throws ImportConflict
 * with the rows another writer got to first, or the database's error after undoing what was moved.
 * Answers the stations with their final ids.
 */
export async function writeStations(root: Db, stations: NamedStation[], hooks: WriteHooks = {}): Promise<NamedStation[]> {
  const importId = randomUUID();
  const handedOut = stations.filter((s) => s.handedOut).map((s) => oliNumber(s.cpId));
  const firstHandedOut = handedOut.length > 0 ? Math.min(...handedOut) : null;
  let moved = 0;
  let batches = 0;
  try {
    batches = await stage(root, importId, stations);
    let claimed: Claim;
    const waitUntil = Date.now() + BUSY_WAIT_MS;
    for (;;) {
      await recoverStationImports(root, false);
      claimed = await claim(root, importId, batches, firstHandedOut);
      if (!('busy' in claimed)) break;
      // Another import's move takes seconds; one that is never finished (its undo failed) must not hold this one forever.
      if (Date.now() > waitUntil) throw new ApiError(409, 'CONFLICT', 'Another station import is being written');
      await new Promise((r) => setTimeout(r, 100));
    }
    if ('mistakes' in claimed) throw new ImportConflict(claimed.mistakes);
    for (let batch = 0; batch < batches; batch++) {
      if (!(await moveChecked(root, importId, batch, batch === batches - 1))) {
        // Taken meanwhile: what this import moved goes, then every row of the file is named.
        await takeBack(root, importId, moved);
        moved = 0;
        throw new ImportConflict(await conflicts(root, importId));
      }
      moved = batch + 1;
      await hooks.afterBatch?.(batch);
    }
    await dropStaged(root, importId, batches);
    const shift = claimed.shift;
    return shift === 0 ? stations : stations.map((s) => (s.handedOut ? { ...s, cpId: oli(oliNumber(s.cpId) + shift) } : s));
  } catch (err) {
    // Before the first batch nothing is in `connectors`; after it, the batches moved are taken back.
    await undo(root, importId, moved, batches);
    throw err;
  }
}
