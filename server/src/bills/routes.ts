import contentDisposition from 'content-disposition';
import * as z from 'zod/mini';
import {
  BILLS_ZIP_NAME,
  regenerateBillsBodySchema,
  billListQuerySchema,
  billPdfQuerySchema,
  downloadBillsBodySchema,
  sendBillsBodySchema,
} from '../../../contract/bills';
import { assertVisible } from '../auth/scope';
import { ApiError } from '../http/errors';
import { cleanFileName } from '../http/file-name';
import { ok, paged } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody, parseParams, parseQuery } from '../http/validate';
import { billForPdf, billsToZip, downloadBillPdf, preparePdfsToSend, sendBills, zipOfBills } from './handlers';
import { listBills } from './queries';
import { regenerateBills } from './regenerate';

/** The bills area's calls on the booking service (spec 3 §7, issue 24): the list, the PDF link, sending by mail, the zip, regenerating. */

/** What `http/idempotency.ts` accepts as an Idempotency-Key. */
const IDEMPOTENCY_KEY_MAX = 200;

const pdfParams = z.object({ billNumber: z.string().check(z.minLength(1), z.maxLength(100, 'max100')) });

const fileHeaders = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' };

export const billRoutes = routeTable('bookingService', [
  {
    // Regenerate one GENERATED bill from today's data under its number (admins; its PDF is made anew on the next request).
    method: 'POST',
    path: '/bookings/regenerate-bills',
    access: 'admin',
    handler: async (c) => {
      const body = await parseBody(c, regenerateBillsBodySchema);
      return ok(c, await regenerateBills(c.get('db'), body));
    },
  },

  {
    method: 'GET',
    path: '/bookings/get-bills/operator',
    access: 'user',
    // The bills page's list: one statement per request (its own checks the caller).
    callerInStatement: true,
    handler: async (c) => {
      const q = parseQuery(c, billListQuerySchema);
      // Spec 3 §5: the end of the range is not before its start (the screen's rule, said again here).
      if (q.startDate && q.endDate && q.endDate < q.startDate)
        throw new ApiError(400, 'VALIDATION_ERROR', 'endDate before startDate', undefined, [
          { path: 'endDate', message: 'endBeforeStart' },
        ]);
      // A contract filter names a contract in scope (404 CONTRACT_NOT_FOUND otherwise), never an empty list that reads like one without bills.
      if (q.contractKey) await assertVisible(c.get('db'), c.get('auth').scope, 'contract', [q.contractKey]);
      const { total, rows } = await listBills(c.get('db'), c.get('auth').scope, q, c.get('callerCheck'));
      return paged(c, total, rows);
    },
  },

  {
    // Made on the first request and kept (no transaction around the drawing: on PGlite one would hold every other request).
    method: 'GET',
    path: '/bookings/pdf/:billNumber',
    access: 'user',
    download: true,
    transaction: false,
    handler: async (c) => {
      const { billNumber } = parseParams(c, pdfParams);
      const { verificationId } = parseQuery(c, billPdfQuerySchema);
      const { billId } = await billForPdf(c.get('db'), c.get('auth').scope, billNumber, verificationId);
      const pdf = await downloadBillPdf(c.get('db'), billId);
      return c.body(new Uint8Array(pdf.content), 200, {
        'Content-Type': 'application/pdf',
        'Content-Length': String(pdf.content.length),
        'Content-Disposition': contentDisposition(cleanFileName(pdf.fileName) || 'Rechnung.pdf', { type: 'inline' }),
        ...fileHeaders,
      });
    },
  },

  {
    // The PDFs are made before the transaction (`before`), which then only locks, checks, queues the mails and sets SENT.
    method: 'POST',
    path: '/bookings/send-bill-email',
    access: 'user',
    before: [
      async (c, next) => {
        // A key the idempotency check refuses (over 200 characters) refuses the request after this: nothing is prepared for it.
        if ((c.req.header('idempotency-key')?.length ?? 0) <= IDEMPOTENCY_KEY_MAX) {
          await preparePdfsToSend(c.get('db'), c.get('auth').scope, await parseBody(c, sendBillsBodySchema));
        }
        await next();
      },
    ],
    handler: async (c) => {
      const body = await parseBody(c, sendBillsBodySchema);
      return ok(c, await sendBills(c.get('db'), c.get('auth').scope, c.get('env'), body));
    },
  },

  {
    // Streamed after the checks: a transaction would end before the zip is read (and hold PGlite meanwhile).
    method: 'POST',
    path: '/bookings/download-bill',
    access: 'user',
    download: true,
    transaction: false,
    handler: async (c) => {
      const body = await parseBody(c, downloadBillsBodySchema);
      const list = await billsToZip(c.get('db'), c.get('auth').scope, body);
      return c.body(zipOfBills(c.get('db'), list), 200, {
        'Content-Type': 'application/zip',
        'Content-Disposition': contentDisposition(BILLS_ZIP_NAME),
        ...fileHeaders,
      });
    },
  },
]);
