import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { tsz } from './columns';

/**
 * The station import's write (`stations/import/README.md`, "Guarantees"): the connector rows of an
 * import are staged here in short statements, outside the live table, then moved into `connectors`
 * in batches. No constraint here: a staged row collides with nothing, so a failed or crashed import
 * leaves nothing a retry trips on.
 */
export const stationImportRows = pgTable(
  'station_import_rows',
  {
    importId: text('import_id').notNull(),
    /** The move's batch (one short transaction each); batch 0 holds the highest handed-out id. */
    batch: integer('batch').notNull(),
    /** The file's row (the header is row 1), for a refusal naming it. */
    row: integer('row').notNull(),
    /** The station id was handed out (OLI…), not named by the file: it may be renumbered before the move. */
    handedOut: boolean('handed_out').notNull(),
    connectorId: text('connector_id').notNull(),
    cpId: text('cp_id').notNull(),
    connectorNumber: integer('connector_number').notNull(),
    cpoId: text('cpo_id').notNull(),
    locationId: text('location_id'),
    parkingLot: text('parking_lot'),
    wallboxModel: text('wallbox_model').notNull(),
    status: text('status').notNull(),
  },
  (t) => [index('station_import_rows_import_idx').on(t.importId, t.batch)],
);

/**
 * An import whose rows are being moved into `connectors`: written in the transaction that checked
 * them under the station-id lock and moved the first batch, deleted with the last. While it exists
 * another import waits; one left by a process that died is undone (`recoverStationImports`).
 */
export const stationImports = pgTable('station_imports', {
  importId: text('import_id').primaryKey(),
  batches: integer('batches').notNull(),
  /** Batches in `connectors` already: what undoing a dead import deletes. */
  moved: integer('moved').notNull(),
  startedAt: tsz('started_at').notNull().defaultNow(),
});
