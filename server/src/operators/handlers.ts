import type { z } from 'zod/mini';
import type { operatorBillingTypes } from '../../../contract/enums';
import type {
  createOperatorBodySchema,
  CreateOperatorAnswer,
  ErpWriteAnswer,
  OperatorWriteAnswer,
  updateErpBodySchema,
  updateOperatorAddressBodySchema,
  updateOperatorBillingBodySchema,
  updateOperatorBodySchema,
} from '../../../contract/operator-writes';
import { lockAtVersion, notFound, type AuthContext, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { constraintOf, isUniqueViolation } from '../db/pg-errors';
import { ApiError } from '../http/errors';
import {
  findCustomer,
  getOperatorDetail,
  insertOperator,
  lockOperator,
  nextOperatorId,
  sepaDebitContracts,
  upsertErpValue,
  writeOperator,
  type OperatorInsert,
  type OperatorRow,
} from './queries';

/** The rules of the operators area (spec 1 §5-6, spec 3 §4-5) and the errors that say why not. */

type BillingInput = z.output<typeof updateOperatorBillingBodySchema>;

/**
 * The operator columns of the invoice template. Without billing info only the contact person
 * (spec 3 §4); with it the whole template, whose lines are replaced (a line not sent is cleared,
 * as removing a line in the form clears it). STRIPE_SEPA is set up through Stripe, not in the
 * form, so a stored one stays.
 */
function billingColumns(b: Omit<BillingInput, 'workFlow' | 'cpoId' | 'version'>, before?: OperatorRow): Partial<OperatorInsert> {
  const contact = {
    contactPersonName: b.contactPersonDetails.contactPersonName,
    contactPersonPosition: b.contactPersonDetails.contactPersonPosition,
    contactPersonPhone: b.contactPersonDetails.contactPersonPhone,
    contactPersonEmail: b.contactPersonDetails.contactPersonEmail,
  };
  if (!b.withBillingInfo || !b.cpoPaymentDetails) return contact;
  const p = b.cpoPaymentDetails;
  const keptStripe = before?.paymentPreference.includes('STRIPE_SEPA') ? (['STRIPE_SEPA'] as const) : [];
  const billingType: (typeof operatorBillingTypes)[number] = b.billingType ?? (p.cpoPaymentPreference.includes('SEPA') ? 'SEPA' : 'BANK');
  const h = b.billingTemplateHeader;
  const f = b.billingTemplateFooter;
  return {
    ...contact,
    billingType,
    isChargingHistoryIncluded: b.isChargingHistoryIncluded,
    paymentPreference: [...p.cpoPaymentPreference, ...keptStripe],
    iban: p.cpoIban,
    bankName: p.cpoBankName,
    bic: p.cpoBic,
    creditorId: p.creditorId,
    moneyCollectionGapInDays: p.moneyCollectionGapInDays,
    headerLine1: h?.lineOne ?? null,
    headerLine2: h?.lineTwo ?? null,
    headerLine3: h?.lineThree ?? null,
    headerLine4: h?.lineFour ?? null,
    footerLine1: f?.lineOne ?? null,
    footerLine2: f?.lineTwo ?? null,
    footerLine3: f?.lineThree ?? null,
    footerLine4: f?.lineFour ?? null,
    vatId: b.vatId,
    taxNumber: b.taxNumber,
    billNumberPrefix: b.billNumberPrefix,
  };
}

/**
 * Bill numbers are unique across operators, so an operator's own prefix is too
 * (`operators_bill_number_prefix_uq`, case-insensitive): the write runs under a savepoint and a
 * prefix another operator has answers 409 BILL_NUMBER_PREFIX_TAKEN, naming the prefix, with nothing written.
 */
async function guardPrefix<T>(db: Db, prefix: string | null | undefined, write: (sp: Db) => Promise<T>): Promise<T> {
  try {
    return await db.transaction((sp) => write(sp));
  } catch (err) {
    if (isUniqueViolation(err) && constraintOf(err) === 'operators_bill_number_prefix_uq')
      throw new ApiError(409, 'BILL_NUMBER_PREFIX_TAKEN', `Bill-number prefix ${prefix ?? ''} is used by another operator`, {
        billNumberPrefix: prefix ?? null,
      });
    throw err;
  }
}

/**
 * A new operator (spec 1 §2, §6). It belongs to the caller's customer; an admin names the
 * customer. A customer other than the caller's own answers like one that does not exist (404),
 * before anything else, so the answer tells nothing about other customers. Operator-type accounts
 * that are not admins may not create operators (spec 1 §6: they do not get the button): 403.
 */
export async function createOperator(
  db: Db,
  auth: AuthContext,
  body: z.output<typeof createOperatorBodySchema>,
): Promise<CreateOperatorAnswer> {
  let customerId: string;
  if (auth.isAdmin) {
    if (!body.customerId)
      throw new ApiError(400, 'VALIDATION_ERROR', 'customerId: required', undefined, [{ path: 'customerId', message: 'required' }]);
    customerId = body.customerId;
  } else {
    if (body.customerId && body.customerId !== auth.user.customerId) throw notFound('customer', body.customerId);
    customerId = auth.user.customerId;
  }
  const customer = await findCustomer(db, customerId);
  if (!customer) throw notFound('customer', customerId);
  if (!auth.isAdmin && auth.user.customerType === 'Operator')
    throw new ApiError(403, 'FORBIDDEN', 'Operator accounts may not create operators');

  const cpoId = await nextOperatorId(db);
  const columns = billingColumns(body);
  return guardPrefix(db, columns.billNumberPrefix, (sp) =>
    insertOperator(sp, {
      cpoId,
      cpoName: body.cpoName,
      street: body.cpoAddress.street,
      careOf: body.cpoAddress.careOf,
      zipCode: body.cpoAddress.zipCode,
      city: body.cpoAddress.city,
      countryCode: 'DE',
      customerId: customer.customerId,
      createManualEndCustomerId: body.createManualEndCustomerId,
      ...columns,
    }),
  );
}

/** The operator a write names, locked, in scope and at the version the user saw (`lockAtVersion`). */
const operatorForWrite = (db: Db, scope: Scope, cpoId: string, expectedVersion: number | undefined): Promise<OperatorRow> =>
  lockAtVersion('operator', cpoId, expectedVersion, {
    lock: (id) => lockOperator(db, scope, id),
    current: () => getOperatorDetail(db, scope, cpoId),
  });

const addressColumns = (b: z.output<typeof updateOperatorAddressBodySchema>): Partial<OperatorInsert> => ({
  cpoName: b.cpoName,
  street: b.cpoAddress.street,
  // The edit sends the whole address and clients drop empty values, so a missing c/o means none.
  careOf: b.cpoAddress.careOf,
  zipCode: b.cpoAddress.zipCode,
  city: b.cpoAddress.city,
});

/**
 * No direct debit without a creditor id (issue 35): payment details whose creditor id is empty
 * (the schema refuses one that fails its check digits) while contracts of the operator pay by
 * SEPA answer 422 SEPA_CREDITOR_ID_REQUIRED, naming those contracts; otherwise their bills would
 * promise a debit that no SEPA file can collect.
 */
async function assertCreditorForSepa(db: Db, cpoId: string, set: Partial<OperatorInsert>) {
  if (set.creditorId === undefined || set.creditorId) return;
  const affected = await sepaDebitContracts(db, cpoId);
  if (affected.count === 0) return;
  throw new ApiError(
    422,
    'SEPA_CREDITOR_ID_REQUIRED',
    'Contracts of the operator pay by SEPA direct debit, which needs a valid creditor id',
    { cpoId, ...affected },
    [{ path: 'cpoPaymentDetails.creditorId', message: 'creditorIdForSepaContracts' }],
  );
}

/** `AddressInfo` changes name and address only; `BillingInfo` the invoice template only (spec 3 §7). */
export async function updateOperator(
  db: Db,
  scope: Scope,
  body: z.output<typeof updateOperatorBodySchema>,
  expectedVersion: number | undefined,
): Promise<OperatorWriteAnswer> {
  const op = await operatorForWrite(db, scope, body.cpoId, expectedVersion);
  const set = body.workFlow === 'AddressInfo' ? addressColumns(body) : billingColumns(body, op);
  await assertCreditorForSepa(db, op.cpoId, set);
  return { cpoId: op.cpoId, version: await guardPrefix(db, set.billNumberPrefix, (sp) => writeOperator(sp, op.cpoId, set)) };
}

/**
 * One ERP value per operator and payment method (spec 3 §3, §5), inserted or replaced. The ERP
 * values are part of the operator detail, so the write moves the operator's version on too.
 */
export async function updateErpInformation(
  db: Db,
  scope: Scope,
  body: z.output<typeof updateErpBodySchema>,
  expectedVersion: number | undefined,
): Promise<ErpWriteAnswer> {
  const op = await operatorForWrite(db, scope, body.cpoId, expectedVersion);
  const { row, created } = await upsertErpValue(db, {
    cpoId: op.cpoId,
    clientNumber: body.clientNumber,
    netLedgerAccountNr: body.netLedgerAccountNr,
    taxLedgerAccountNr: body.taxLedgerAccountNr,
    clearingAccountNr: body.clearingAccountNr,
    paymentMethod: body.paymentMethod,
  });
  const version = await writeOperator(db, op.cpoId, {});
  return {
    cpoId: op.cpoId,
    version,
    created,
    erpValue: {
      cpoId: row.cpoId,
      clientNumber: row.clientNumber,
      netLedgerAccountNr: row.netLedgerAccountNr,
      taxLedgerAccountNr: row.taxLedgerAccountNr,
      clearingAccountNr: row.clearingAccountNr,
      paymentMethod: row.paymentMethod,
    },
  };
}
