import { randomInt, randomUUID } from 'node:crypto';
import type { z } from 'zod/mini';
import {
  adminUserTypes,
  berlinDate,
  contractActions,
  formatEndCustomerId,
  type ContractWriteAnswer,
  type createContractBodySchema,
  type editContractBodySchema,
} from '../../../contract/contracts';
import { foundOr404, notFound, type AuthContext, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { enqueueMail } from '../db/mail-outbox';
import { constraintOf, isUniqueViolation } from '../db/pg-errors';
import type { Env } from '../env';
import { ApiError } from '../http/errors';
import { findLocation } from '../locations/queries';
import { lockOperator } from '../operators/queries';
import { followPaymentMethodChange, mandateColumnsAfterEdit, startMandateCheckout } from '../payments/mandates';
import { takeCards } from './cards';
import { readPdf, storePdf } from './contract-files';
import {
  deleteFile,
  emailOwner,
  endCustomerIdTaken,
  getContractDetail,
  insertContract,
  locationParkingLots,
  lockContract,
  nextContractNumber,
  writeContract,
  type ContractInsert,
  type ContractRowDb,
} from './queries';
import { resetTariffHistory } from './tariff-history';
import { contractForWrite, fieldError, notAllowedNow, writeAnswer } from './write-rules';

/** The rules of end customers and their contracts (spec 2 §4-5, §8) and the errors that say why not. */

type CreateBody = z.output<typeof createContractBodySchema>;
type EditBody = z.output<typeof editContractBodySchema>;

/**
 * The e-mail's holder is named only to a caller who sees its contract: to anyone else an end
 * customer id of another tenant would be a foreign name, so the answer says only that it is taken.
 */
const duplicateEmail = (scope: Scope, owner: { endCustomerId: string; cpoId: string } | undefined) =>
  owner && scope.canSeeOperator(owner.cpoId)
    ? new ApiError(409, 'DUPLICATED_EMAIL', `E-mail in use by end customer ${owner.endCustomerId}`, { endCustomerId: owner.endCustomerId })
    : new ApiError(409, 'DUPLICATED_EMAIL', 'E-mail already in use', { endCustomerId: null });
const duplicateEndCustomerId = (id: string) =>
  new ApiError(409, 'DUPLICATED_END_CUSTOMER_ID', `End customer id ${id} is in use`, { endCustomerId: id });

/** The operator and location a contract names, in scope; the location must be the operator's and the parking lots at it. */
async function checkPlacement(db: Db, scope: Scope, body: Pick<CreateBody, 'cpoId' | 'userType' | 'locationId' | 'parkingLotNumbers'>) {
  const operator = await foundOr404('operator', body.cpoId, lockOperator(db, scope, body.cpoId));
  // Admin user types have no location (spec 2 §4: choosing one resets it).
  if (adminUserTypes.includes(body.userType)) return { operator, locationId: null, parkingLotNumbers: [] as string[] };
  if (!body.locationId) return { operator, locationId: null, parkingLotNumbers: body.parkingLotNumbers };
  const location = await findLocation(db, scope, body.locationId);
  if (!location || location.cpoId !== operator.cpoId) throw notFound('location', body.locationId);
  const lots = await locationParkingLots(db, location.locationId);
  const unknown = body.parkingLotNumbers.filter((p) => !lots.has(p));
  if (unknown.length > 0) {
    throw new ApiError(
      409,
      'UNKNOWN_PARKING_LOT',
      'Parking lot not at the location',
      { locationId: location.locationId, parkingLots: unknown },
      [{ path: 'parkingLotNumbers', message: 'unknownParkingLot' }],
    );
  }
  return { operator, locationId: location.locationId, parkingLotNumbers: body.parkingLotNumbers };
}

/** Billing columns (spec 2 §4 billing defaults): without billing no payment data; bank transfer has no mandate. */
function billingColumns(
  body: Pick<CreateBody, 'billingType' | 'billingCycle' | 'paymentMethod' | 'contractPaymentDetails' | 'erpSystemParameters'>,
) {
  const withBilling = body.billingType === 'WITH_BILLING';
  const method = withBilling ? (body.paymentMethod ?? null) : null;
  return {
    billingType: body.billingType,
    billingCycle: withBilling ? (body.billingCycle ?? 'MONTHLY') : null,
    paymentMethod: method,
    contractMandateReference:
      method === 'SEPA' || method === 'STRIPE_SEPA' ? (body.contractPaymentDetails?.contractMandateReference ?? null) : null,
    contractIban: method === 'SEPA' ? (body.contractPaymentDetails?.contractIban ?? null) : null,
    debitAccountNr: body.erpSystemParameters?.debitAccountNr ?? null,
    costCenterNumber: body.erpSystemParameters?.costCenterNumber ?? null,
    vatId: body.erpSystemParameters?.vatId ?? null,
  } satisfies Partial<ContractInsert>;
}

/**
 * No direct debit without a creditor id (issue 35): a contract that pays by SEPA needs its operator
 * to have a creditor id (its row is locked by `checkPlacement`, so a BillingInfo write clearing it
 * cannot slip in between); otherwise its bills would promise a debit no SEPA file can collect.
 */
function assertCreditorForSepa(operator: { cpoId: string; creditorId: string | null }, paymentMethod: string | null) {
  if (paymentMethod !== 'SEPA' || operator.creditorId) return;
  throw new ApiError(
    422,
    'SEPA_CREDITOR_ID_REQUIRED',
    'The operator has no creditor id, which a SEPA direct debit needs',
    { cpoId: operator.cpoId, contractNumbers: [], count: 0 },
    [{ path: 'paymentMethod', message: 'sepaNeedsCreditorId' }],
  );
}

/** A business customer's name, VAT id and buyer reference (the contract's rules keep the latter two to a company). */
const businessColumns = (body: Pick<CreateBody, 'companyName' | 'customerVatId' | 'buyerReference'>) =>
  ({
    companyName: body.companyName,
    customerVatId: body.companyName ? body.customerVatId : null,
    buyerReference: body.companyName ? body.buyerReference : null,
  }) satisfies Partial<ContractInsert>;

function tariffColumns(body: Pick<CreateBody, 'billingType' | 'contractInfo'>) {
  const i = body.contractInfo;
  const withBilling = body.billingType === 'WITH_BILLING';
  const money = (v: number | null | undefined) => (v === null || v === undefined ? null : v.toFixed(2));
  return {
    fixTariff: withBilling ? money(i.fixTariff) : null,
    varTariff: withBilling ? money(i.varTariff) : null,
    onboardingFee: withBilling ? (money(i.onboardingFee) ?? '0.00') : '0.00',
    fixTariffPerChargingRequest: withBilling ? (money(i.fixTariffPerChargingRequest) ?? '0.00') : '0.00',
  } satisfies Partial<ContractInsert>;
}

/** Inserts or writes under a savepoint, so a lost race for an e-mail or id still answers with its owner. */
async function guardUnique<T>(
  db: Db,
  scope: Scope,
  keys: { email: string; endCustomerId: string; exceptKey: string | undefined },
  write: (sp: Db) => Promise<T>,
) {
  const { email, endCustomerId, exceptKey } = keys;
  try {
    return await db.transaction((sp) => write(sp));
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const constraint = constraintOf(err);
    if (constraint === 'contracts_end_customer_id_uq') throw duplicateEndCustomerId(endCustomerId);
    if (constraint === 'contracts_email_live_uq') throw duplicateEmail(scope, await emailOwner(db, email, exceptKey));
    throw err;
  }
}

async function assertEmailFree(db: Db, scope: Scope, email: string, exceptKey?: string) {
  const owner = await emailOwner(db, email, exceptKey);
  if (owner !== undefined) throw duplicateEmail(scope, owner);
}

async function generatedEndCustomerId(db: Db): Promise<string> {
  for (;;) {
    const digits = Array.from({ length: 11 }, () => randomInt(10)).join('');
    const id = formatEndCustomerId(digits);
    if (!(await endCustomerIdTaken(db, id))) return id;
  }
}

/** The end customer's invitation (spec 2 §4: CREATED_UNSIGNED may get it again), German first, in the mail outbox. */
export async function queueContractInvitation(
  db: Db,
  env: Env,
  c: Pick<ContractRowDb, 'contractKey' | 'contractNumber' | 'endCustomerId' | 'email' | 'firstName' | 'lastName' | 'authCode'>,
  operatorName: string,
) {
  const link = `${env.END_CUSTOMER_APP_URL}?contractKey=${encodeURIComponent(c.contractKey)}`;
  await enqueueMail(db, {
    to: c.email,
    from: env.MAIL_FROM,
    subject: `Ihr Ladevertrag bei ${operatorName} / Your charging contract with ${operatorName}`,
    text: [
      `Hallo ${c.firstName} ${c.lastName},`,
      '',
      `${operatorName} hat für Sie einen Ladevertrag angelegt. Bitte bestätigen Sie ihn über diesen Link:`,
      '',
      link,
      '',
      `Vertragsnummer: ${c.contractNumber}`,
      `Kundennummer: ${c.endCustomerId}`,
      ...(c.authCode ? [`Aktivierungscode: ${c.authCode}`] : []),
      '',
      'Viele Grüße',
      `Ihr Team von ${operatorName}`,
      '',
      '---',
      '',
      `Hello ${c.firstName} ${c.lastName},`,
      '',
      `${operatorName} has created a charging contract for you. Please confirm it with the link above (contract number ${c.contractNumber}, customer number ${c.endCustomerId}).`,
    ].join('\n'),
  });
}

/** A new end customer with a contract (spec 2 §2 creation wizard, §4-5); the invitation goes out with it. */
export async function createContract(db: Db, env: Env, auth: AuthContext, body: CreateBody): Promise<ContractWriteAnswer> {
  if (body.userType === 'GLOBAL_ADMIN' && !auth.isAdmin) throw new ApiError(403, 'FORBIDDEN', 'Only admins may create GLOBAL_ADMIN users');
  const placement = await checkPlacement(db, auth.scope, body);
  const manual = placement.operator.createManualEndCustomerId;
  if (manual && !body.endCustomerId) throw fieldError('endCustomerId', 'required');
  const endCustomerId = manual ? body.endCustomerId! : await generatedEndCustomerId(db);
  if (manual && (await endCustomerIdTaken(db, endCustomerId))) throw duplicateEndCustomerId(endCustomerId);
  await assertEmailFree(db, auth.scope, body.email);
  assertCreditorForSepa(placement.operator, billingColumns(body).paymentMethod);
  const pdf = await readPdf(body.contractInfo.contractPdfInByteArrayForm);

  const now = new Date();
  const contractKey = randomUUID();
  const contractNumber = await nextContractNumber(db, Number(berlinDate(now).slice(0, 4)));
  const fileId = pdf ? await storePdf(db, pdf, body.contractInfo.contractPDF, contractNumber) : null;
  const usesRfid = body.authType !== 'APP' || adminUserTypes.includes(body.userType);
  const row = await guardUnique(db, auth.scope, { email: body.email, endCustomerId, exceptKey: undefined }, (sp) =>
    insertContract(sp, {
      contractKey,
      contractId: randomUUID(),
      contractNumber,
      endCustomerId,
      endCustomerIdManuallyCreated: manual,
      cpoId: placement.operator.cpoId,
      locationId: placement.locationId,
      contractStatus: 'CREATED_UNSIGNED',
      userType: body.userType,
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      careOf: body.contractAddress.careOf,
      street: body.contractAddress.street,
      zipCode: body.contractAddress.zipCode,
      city: body.contractAddress.city,
      countryCode: 'DE',
      parkingLotNumbers: placement.parkingLotNumbers,
      authType: adminUserTypes.includes(body.userType) ? 'RFID' : body.authType,
      rfidType: usesRfid ? (body.rfidType ?? null) : null,
      ...billingColumns(body),
      ...tariffColumns(body),
      ...businessColumns(body),
      startDate: body.contractInfo.startDate ?? null,
      endDate: body.contractInfo.endDate ?? null,
      contractPdfFileId: fileId,
      authCode: String(randomInt(1_000_000)).padStart(6, '0'),
      createdAt: now,
      updatedAt: now,
    }),
  );
  await resetTariffHistory(db, contractKey, row.startDate ?? berlinDate(now), row);
  await takeCards(db, auth.scope, contractKey, body, 'create');
  await queueContractInvitation(db, env, row, placement.operator.cpoName);
  // Stripe SEPA: the customer gets the link to give the mandate; the bills are collected with it.
  if (row.paymentMethod === 'STRIPE_SEPA') await startMandateCheckout(db, env, row, 'configure');
  return { contractKey, endCustomerId, contractStatus: row.contractStatus, authType: row.authType, version: row.version };
}

/**
 * An edit of the whole form (spec 2 §2 edit wizard). The operator stays; an ACTIVE contract keeps
 * its billing type, start date, tariffs, onboarding fee and PDF whatever is sent (spec 2 §4).
 */
export async function editContract(
  db: Db,
  env: Env,
  auth: AuthContext,
  body: EditBody,
  expectedVersion: number | undefined,
): Promise<ContractWriteAnswer> {
  const before = await contractForWrite(db, auth.scope, body.contractKey, expectedVersion);
  if (!contractActions({ ...before, contractChangeTariff: null }).edit)
    throw notAllowedNow(`Contract ${before.contractKey} can no longer be edited`);
  if (body.cpoId !== before.cpoId) throw fieldError('cpoId', 'operatorFixed');
  if (body.userType === 'GLOBAL_ADMIN' && before.userType !== 'GLOBAL_ADMIN' && !auth.isAdmin)
    throw new ApiError(403, 'FORBIDDEN', 'Only admins may make a user GLOBAL_ADMIN');
  const placement = await checkPlacement(db, auth.scope, body);
  const manual = placement.operator.createManualEndCustomerId;
  const endCustomerId = manual && body.endCustomerId ? body.endCustomerId : before.endCustomerId;
  if (endCustomerId !== before.endCustomerId && (await endCustomerIdTaken(db, endCustomerId, before.contractKey)))
    throw duplicateEndCustomerId(endCustomerId);
  await assertEmailFree(db, auth.scope, body.email, before.contractKey);

  const active = before.contractStatus === 'ACTIVE';
  const pdf = active ? undefined : await readPdf(body.contractInfo.contractPdfInByteArrayForm);
  const fileId = pdf ? await storePdf(db, pdf, body.contractInfo.contractPDF, before.contractNumber) : before.contractPdfFileId;
  const billing = billingColumns(active ? { ...body, billingType: before.billingType } : body);
  if (billing.paymentMethod !== before.paymentMethod) assertCreditorForSepa(placement.operator, billing.paymentMethod);
  const mandate = mandateColumnsAfterEdit(before, billing.paymentMethod);
  if (!active && !body.contractInfo.startDate) throw fieldError('contractInfo.startDate', 'required');
  if (!active && body.billingType === 'WITH_BILLING')
    for (const key of ['fixTariff', 'varTariff'] as const)
      if (body.contractInfo[key] === undefined || body.contractInfo[key] === null) throw fieldError(`contractInfo.${key}`, 'required');
  const startDate = active ? before.startDate : (body.contractInfo.startDate ?? null);
  const endDate = body.contractInfo.endDate ?? null;
  if (startDate && endDate && endDate <= startDate) throw fieldError('contractInfo.endDate', 'endBeforeStart');
  const usesRfid = body.authType !== 'APP' || adminUserTypes.includes(body.userType);
  const row = await guardUnique(db, auth.scope, { email: body.email, endCustomerId, exceptKey: before.contractKey }, (sp) =>
    writeContract(sp, before.contractKey, {
      endCustomerId,
      endCustomerIdManuallyCreated: endCustomerId !== before.endCustomerId ? true : before.endCustomerIdManuallyCreated,
      locationId: placement.locationId,
      userType: body.userType,
      firstName: body.firstName,
      lastName: body.lastName,
      email: body.email,
      careOf: body.contractAddress.careOf,
      street: body.contractAddress.street,
      zipCode: body.contractAddress.zipCode,
      city: body.contractAddress.city,
      parkingLotNumbers: placement.parkingLotNumbers,
      authType: adminUserTypes.includes(body.userType) ? 'RFID' : body.authType,
      rfidType: usesRfid ? (body.rfidType ?? null) : null,
      ...billing,
      ...mandate,
      ...businessColumns(body),
      ...(active ? {} : tariffColumns(body)),
      startDate,
      endDate,
      contractPdfFileId: fileId,
      ...(body.authCode ? { authCode: body.authCode } : {}),
    }),
  );
  if (!active) await resetTariffHistory(db, row.contractKey, row.startDate ?? berlinDate(new Date()), row);
  if (pdf && before.contractPdfFileId) await deleteFile(db, before.contractPdfFileId);
  await takeCards(db, auth.scope, before.contractKey, body, 'edit');
  await followPaymentMethodChange(db, env, before, row);
  return writeAnswer(row);
}

/** Resends the invitation of a CREATED_UNSIGNED contract (spec 2 §4). */
export async function resendContractInvitation(db: Db, env: Env, scope: Scope, contractKey: string): Promise<{ sent: true }> {
  const c = await foundOr404('contract', contractKey, lockContract(db, scope, contractKey));
  if (!contractActions({ ...c, contractChangeTariff: null }).resendInvitation)
    throw notAllowedNow(`Contract ${contractKey} is not waiting for a signature`);
  const detail = await getContractDetail(db, scope, contractKey);
  await queueContractInvitation(db, env, c, detail?.cpoName ?? '');
  return { sent: true };
}

/**
 * Whether an end customer id may be used (spec 2 §4 chip): false when another contract has it. On
 * update the contract being edited does not count. The operator must be in scope.
 */
export async function isEndCustomerIdFree(db: Db, endCustomerId: string, exceptKey?: string): Promise<boolean> {
  return !(await endCustomerIdTaken(db, endCustomerId, exceptKey));
}
