import contentDisposition from 'content-disposition';
import { IMPORT_TEMPLATE_FILE_NAME, importTemplateQuerySchema, stationImportQuerySchema } from '../../../../contract/station-import';
import { claimIdempotencyKey, recordIdempotentAnswer, releaseIdempotencyKey } from '../../http/idempotency';
import { ok } from '../../http/respond';
import { routeTable } from '../../http/route-table';
import { parseQuery } from '../../http/validate';
import { importStations } from './import-stations';
import { importUploadCheck, parsedFileOf } from './parse-file';
import { csvTemplate, xlsxTemplate } from './template';

const fileHeaders = (type: string, name: string) => ({
  'Content-Type': type,
  'Content-Disposition': contentDisposition(name),
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
});

/** The station import (`README.md` beside this file): the templates and the upload. Admins only (spec 2 §2). */
export const stationImportRoutes = routeTable('bff', [
  {
    method: 'GET',
    path: '/connectors/upload/template',
    access: 'admin',
    download: true,
    handler: async (c) => {
      const { format } = parseQuery(c, importTemplateQuerySchema);
      // Built per request: the separator is the runtime configuration's, the models the database's.
      if (format === 'csv') {
        return c.body(
          csvTemplate(c.get('env').CSV_SEPARATOR),
          200,
          fileHeaders('text/csv; charset=utf-8', `${IMPORT_TEMPLATE_FILE_NAME}.csv`),
        );
      }
      const xlsx = await xlsxTemplate(c.get('db'));
      return c.body(
        new Uint8Array(xlsx),
        200,
        fileHeaders('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', `${IMPORT_TEMPLATE_FILE_NAME}.xlsx`),
      );
    },
  },

  {
    method: 'POST',
    path: '/connectors/upload',
    access: 'admin',
    // The file comes as multipart (field `file`); read in a worker first. No request transaction:
    // the write is short transactions of its own (`write-import.ts`), so the Idempotency-Key is
    // claimed and recorded here, as `http/transaction.ts` does for a write in one transaction.
    bodyLimit: 'upload',
    checkUpload: importUploadCheck,
    transaction: false,
    handler: async (c) => {
      const { dryRun } = parseQuery(c, stationImportQuerySchema);
      const run = async () => ok(c, await importStations(c.get('db'), c.get('auth').scope, parsedFileOf(c).rows, dryRun));
      const key = c.req.header('idempotency-key');
      const userId = c.get('auth').user.id;
      if (!key) return run();
      const claim = await claimIdempotencyKey(c, userId, key);
      if (claim.replay) return claim.replay;
      let recorded = false;
      try {
        c.res = await run();
        await recordIdempotentAnswer(c, userId, key);
        recorded = true;
        return c.res;
      } finally {
        if (!recorded) await releaseIdempotencyKey(c.get('db'), userId, key);
      }
    },
  },
]);
