import contentDisposition from 'content-disposition';
import { cleanFileName } from '../http/file-name';
import * as z from 'zod/mini';
import {
  CONTRACT_PDF_MAX_BYTES,
  changeTariffBodySchema,
  contractListQuerySchema,
  createContractBodySchema,
  editContractBodyChecked,
  isTerminateBody,
  terminateContractBodySchema,
} from '../../../contract/contracts';
import { assertVisible, foundOr404, notFound } from '../auth/scope';
import { locationContractsQuerySchema } from '../../../contract/locations';
import { ApiError } from '../http/errors';
import { ok, paged } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseBody, parseParams, parseQuery, parseWith, readJson } from '../http/validate';
import { okWithVersion, versionToCheck } from '../http/versions';
import { createContract, editContract, isEndCustomerIdFree, resendContractInvitation } from './handlers';
import { changeTariff, deleteContract, terminateContract } from './lifecycle-handlers';
import { resendInvitation } from '../customers/handlers';
import { checkUploadFirst } from '../mail/upload-gate';
import { findCustomerByContractKey } from '../customers/queries';
import { contractPdf, getContractDetail, listContracts, lockContract } from './queries';
import { checkoutLinksAfterCommit } from '../payments/mandates';
import { redoStripeSepaSetup } from '../payments/redo';

/** The contract PDF of a create or edit body (base64), when it is within its size (else the handler refuses it). */
function findContractPdf(body: unknown) {
  const base64 = (body as { contractInfo?: { contractPdfInByteArrayForm?: unknown } } | null)?.contractInfo?.contractPdfInByteArrayForm;
  if (typeof base64 !== 'string' || base64 === '') return undefined;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > CONTRACT_PDF_MAX_BYTES) return undefined;
  return { bytes, path: 'contractInfo.contractPdfInByteArrayForm', allowed: ['pdf'], typeMessage: 'pdfOnly' };
}

const keyParams = z.object({ id: z.string().check(z.minLength(1), z.maxLength(100)) });
/** Whether an id is free is all these answer; its format is the form's rule (the contract's endCustomerIdSchema). */
const endCustomerIdParams = z.object({
  id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  id2: z.optional(z.string().check(z.maxLength(100))),
});
/** The operator is required: without it the check would answer about every tenant's ids. */
const validateQuery = z.object({
  cpoId: z
    .string({ error: (iss) => (iss.input === undefined ? 'required' : undefined) })
    .check(z.minLength(1, 'required'), z.maxLength(100)),
});
const invitationParams = z.object({ contractKey: z.string().check(z.minLength(1), z.maxLength(100)) });
const pdfQuery = z.object({
  verificationId: z.string().check(z.minLength(1), z.maxLength(100)),
  /** `true`: the caller shows the PDF (inline); otherwise it is a download (attachment). */
  view: z.optional(z.enum(['true', 'false'])),
});

/**
 * End customers and their contracts on contract management (spec 2 §7). Every call is scoped to
 * the caller's operators; deleting a contract is for admins only (spec 2 §4).
 */
export const contractRoutes = routeTable('contractManagement', [
  {
    method: 'GET',
    path: '/contracts/operator',
    access: 'user',
    handler: async (c) => {
      const q = parseQuery(c, contractListQuerySchema);
      await assertVisible(c.get('db'), c.get('auth').scope, 'location', q.locationIds);
      const { total, rows } = await listContracts(c.get('db'), c.get('auth').scope, q);
      return paged(c, total, rows);
    },
  },

  {
    // A location's users tab (spec 2 §2): the same rows and filters, restricted to the location.
    method: 'GET',
    path: '/location/:id/contracts',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, keyParams);
      const q = parseQuery(c, locationContractsQuerySchema);
      await assertVisible(c.get('db'), c.get('auth').scope, 'location', [id]);
      const { total, rows } = await listContracts(c.get('db'), c.get('auth').scope, { ...q, locationIds: [id] });
      return paged(c, total, rows);
    },
  },

  {
    method: 'GET',
    path: '/contract/id/:id',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, keyParams);
      const detail = await foundOr404('contract', id, getContractDetail(c.get('db'), c.get('auth').scope, id));
      return okWithVersion(c, detail, detail.version);
    },
  },

  {
    method: 'POST',
    path: '/create-contract',
    access: 'user',
    bodyLimit: 'upload',
    checkUpload: checkUploadFirst(findContractPdf),
    handler: async (c) => {
      const body = await parseBody(c, createContractBodySchema);
      const created = await createContract(c.get('db'), c.get('env'), c.get('auth'), body);
      // A STRIPE_SEPA contract's mandate link: asked of the provider after the commit (payments/checkout-requests.ts).
      c.set('afterCommit', () => checkoutLinksAfterCommit(c.get('db'), c.get('env'), created.contractKey));
      return okWithVersion(c, created, created.version);
    },
  },

  {
    method: 'PUT',
    path: '/update-contract',
    access: 'user',
    bodyLimit: 'upload',
    checkUpload: checkUploadFirst(findContractPdf),
    handler: async (c) => {
      const raw = await readJson(c);
      let updated;
      if (isTerminateBody(raw)) {
        const body = parseWith(terminateContractBodySchema, raw);
        updated = await terminateContract(c.get('db'), c.get('auth').scope, body, versionToCheck(c, body));
      } else {
        const body = parseWith(editContractBodyChecked, raw);
        updated = await editContract(c.get('db'), c.get('env'), c.get('auth'), body, versionToCheck(c, body));
        const { contractKey } = body;
        c.set('afterCommit', () => checkoutLinksAfterCommit(c.get('db'), c.get('env'), contractKey));
      }
      return okWithVersion(c, updated, updated.version);
    },
  },

  {
    method: 'PUT',
    path: '/change-contract-tarrif',
    access: 'user',
    handler: async (c) => {
      const body = await parseBody(c, changeTariffBodySchema);
      const updated = await changeTariff(c.get('db'), c.get('auth').scope, body, versionToCheck(c, body));
      return okWithVersion(c, updated, updated.version);
    },
  },

  {
    method: 'POST',
    path: '/end-customer-id/:id/validate/on-create',
    access: 'user',
    transaction: false,
    handler: async (c) => {
      const { id } = parseParams(c, endCustomerIdParams);
      const { cpoId } = parseQuery(c, validateQuery);
      await assertVisible(c.get('db'), c.get('auth').scope, 'operator', [cpoId]);
      return ok(c, await isEndCustomerIdFree(c.get('db'), id));
    },
  },

  {
    method: 'POST',
    path: '/end-customer-id/:id/validate/on-update/:id2',
    access: 'user',
    transaction: false,
    handler: async (c) => {
      const { id, id2 } = parseParams(c, endCustomerIdParams);
      // The contract being edited must be the caller's: otherwise the answer would tell about others.
      if (!id2) throw notFound('contract', '');
      await assertVisible(c.get('db'), c.get('auth').scope, 'contract', [id2]);
      return ok(c, await isEndCustomerIdFree(c.get('db'), id, id2));
    },
  },

  {
    method: 'GET',
    path: '/pdf/:id',
    access: 'user',
    download: true,
    handler: async (c) => {
      const { id } = parseParams(c, keyParams);
      const { verificationId, view } = parseQuery(c, pdfQuery);
      await assertVisible(c.get('db'), c.get('auth').scope, 'contract', [id]);
      const file = await contractPdf(c.get('db'), c.get('auth').scope, id, verificationId);
      if (!file) throw new ApiError(404, 'NOT_FOUND', 'No contract PDF for this contract and verification id');
      return c.body(new Uint8Array(file.content), 200, {
        'Content-Type': file.mimeType,
        'Content-Length': String(file.content.length),
        // A stored file is the uploader's bytes: a download unless the caller asks to see it; the API's
        // `sandbox` policy (app.ts) and nosniff hold either way.
        'Content-Disposition': contentDisposition(cleanFileName(file.fileName) || 'Vertrag.pdf', {
          type: view === 'true' ? 'inline' : 'attachment',
        }),
        'Cache-Control': 'private, no-store',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  },

  {
    // One call for both kinds of contract key (spec 2 §7, spec 3 §7): a customer's (admins: the
    // invitation of its dashboard account, customers/handlers.ts) or an end customer's (in scope).
    method: 'POST',
    path: '/send-invitation-email/:contractKey',
    access: 'user',
    handler: async (c) => {
      const { contractKey } = parseParams(c, invitationParams);
      if (c.get('auth').isAdmin && (await findCustomerByContractKey(c.get('db'), contractKey))) {
        await resendInvitation(c.get('db'), c.get('env'), contractKey);
      } else {
        await resendContractInvitation(c.get('db'), c.get('env'), c.get('auth').scope, contractKey);
      }
      return ok(c, true);
    },
  },

  {
    // 'Redo payment details setup' (spec 2 §4, §7): a new mandate link mailed to the customer.
    method: 'POST',
    path: '/reconfigure-stripe-sepa/:id',
    access: 'user',
    handler: async (c) => {
      const { id } = parseParams(c, keyParams);
      const contract = await lockContract(c.get('db'), c.get('auth').scope, id);
      if (!contract) throw notFound('contract', id);
      await redoStripeSepaSetup(c.get('db'), c.get('env'), contract);
      c.set('afterCommit', () => checkoutLinksAfterCommit(c.get('db'), c.get('env'), id));
      return ok(c, true);
    },
  },

  {
    method: 'DELETE',
    path: '/delete-contract/:id',
    access: 'admin',
    handler: async (c) => {
      const { id } = parseParams(c, keyParams);
      return ok(c, await deleteContract(c.get('db'), c.get('auth').scope, id));
    },
  },
]);
