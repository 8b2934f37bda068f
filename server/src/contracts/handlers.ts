import { randomInt, randomUUID } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import type { z } from 'zod/mini';
import {
  adminUserTypes,
  berlinDate,
  CONTRACT_PDF_MAX_BYTES,
  contractActions,
  formatEndCustomerId,
  tariffChangeIssues,
  type changeTariffBodySchema,
  type ContractWriteAnswer,
  type createContractBodySchema,
  type editContractBodySchema,
  type terminateContractBodySchema,
} from '../../../contract/contracts';
import { foundOr404, lockAtVersion, notFound, type AuthContext, type Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { constraintOf, isUniqueViolation } from '../db/pg-errors';
import type { Env } from '../env';
import { cleanFileName } from '../http/file-name';
import { ApiError } from '../http/errors';
import { findLocation } from '../locations/queries';
import { checkUpload, uploadRefusal } from '../mail/attachment-check';
import { lockRfids, rfidExists } from '../rfid/handlers';
import type { RfidConflict } from '../../../contract/rfid';
import { enqueueMail } from '../db/mail-outbox';
import { lockOperator } from '../operators/queries';
import {
  assignCards,
  deleteContractRow,
  deleteFile,
  emailOwner,
  endCustomerIdTaken,
  findCards,
  getContractDetail,
  hasBills,
  insertCards,
  insertContract,
  insertFile,
  insertPendingTariffChange,
  resetTariffHistory,
  locationParkingLots,
  lockContract,
  nextContractNumber,
  pendingTariffChange,
  dropPendingTariffChanges,
  releaseCards,
  writeContract,
  type ContractInsert,
  type ContractRowDb,
} from './queries';
import { followPaymentMethodChange, mandateColumnsAfterEdit, startMandateCheckout } from '../payments/mandates';

/** The rules of end customers and their contracts (spec 2 §4-5, §8) and the errors that say why not. */

type CreateBody = z.output<typeof createContractBodySchema>;
type EditBody = z.output<typeof editContractBodySchema>;

const notAllowedNow = (why: string) => new ApiError(409, 'CONTRACT_STATUS_DATA_INCONSISTENCY', why);
const fieldError = (path: string, message: string) =>
  new ApiError(400, 'VALIDATION_ERROR', `${path}: ${message}`, undefined, [{ path, message }]);
/**
 * The e-mail's holder is named only to a caller who sees its contract: to anyone else an end
 * customer id of another tenant would be a foreign name, so the answer says only that it is taken.
 */
const duplicateEmail = (scope: Scope, owner: { endCustomerId: string; cpoId: string } | undefined) =>
  owner && scope.canSeeOperator(owner.cpoId)
    ? new ApiError(409, 'DUPLICATED_EMAIL', `E-mail in use by end customer ${owner.endCustomerId}`, { endCustomerId: owner.endCustomerId })
    : new ApiError(409, 'DUPLICATED_EMAIL', 'E-mail already in use', { endCustomerId: null });
/** A card's holder, as far as the caller may know it (null: taken by someone the caller does not see). */
const visibleOwner = (scope: Scope, card: { owner: string | null; ownerCpoId: string | null }) =>
  card.ownerCpoId !== null && scope.canSeeOperator(card.ownerCpoId) ? card.owner : null;
const duplicateEndCustomerId = (id: string) =>
  new ApiError(409, 'DUPLICATED_END_CUSTOMER_ID', `End customer id ${id} is in use`, { endCustomerId: id });

/** The contract a write names, locked, in scope and at the version the user saw (`lockAtVersion`). */
const contractForWrite = (db: Db, scope: Scope, contractKey: string, expectedVersion: number | undefined): Promise<ContractRowDb> =>
  lockAtVersion('contract', contractKey, expectedVersion, {
    lock: (key) => lockContract(db, scope, key),
    current: () => getContractDetail(db, scope, contractKey),
  });

/** The PDF of the wizard: base64 bytes that must be a PDF by content (not by name), at most 3 MB. */
async function readPdf(base64: string | null | undefined): Promise<Buffer | undefined> {
  if (!base64) return undefined;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > CONTRACT_PDF_MAX_BYTES)
    throw new ApiError(413, 'PAYLOAD_TOO_LARGE', '3mb', undefined, [{ path: 'contractInfo.contractPdfInByteArrayForm', message: '3mb' }]);
  const type = await fileTypeFromBuffer(bytes);
  // The route parsed the file before its transaction (`mail/upload-gate.ts`): this finds its verdict kept.
  const refusal = uploadRefusal(
    type?.ext === 'pdf' ? await checkUpload('pdf', bytes) : 'invalid',
    'contractInfo.contractPdfInByteArrayForm',
    'pdfOnly',
  );
  if (refusal) throw refusal;
  return bytes;
}

const pdfFileName = (name: string | null, contractNumber: string) => {
  const base = cleanFileName(name) || `Vertrag ${contractNumber}`;
  return base.toLowerCase().endsWith('.pdf') ? base : `${base}.pdf`;
};

/**
 * Where the contract's cards come from (spec 2 §5), under the RFID lock the card stock takes too
 * (`rfid/handlers.ts`): by tag, a card in stock is handed out and an unknown tag becomes a new
 * card; by serial, the card must exist (admin RFID management) and be free. A card another end
 * customer holds refuses the whole write with the card stock's conflict list: ERR_RFID_ID_EXISTS,
 * or DB_CLIENT_ERROR for serials in the edit flow (spec 2 §8).
 */
async function takeCards(
  db: Db,
  scope: Scope,
  contractKey: string,
  body: Pick<CreateBody, 'authType' | 'userType' | 'rfidType' | 'rfidTags' | 'rfidSerialId'>,
  flow: 'create' | 'edit',
): Promise<void> {
  const usesRfid = body.authType !== 'APP' || adminUserTypes.includes(body.userType);
  const tags = usesRfid && body.rfidType === 'TAG' ? body.rfidTags : [];
  const serials = usesRfid && body.rfidType === 'SN' ? body.rfidSerialId : [];
  await lockRfids(db);
  const cards = await findCards(db, tags, serials);
  const heldElsewhere = (c: { contractKey: string | null }) => c.contractKey !== null && c.contractKey !== contractKey;

  const byTag = new Map(cards.map((c) => [c.rfidTag, c]));
  const bySerial = new Map(cards.map((c) => [c.serialId, c]));
  const conflicts: RfidConflict[] = [];
  for (const tag of tags) {
    const card = byTag.get(tag);
    if (card && heldElsewhere(card)) conflicts.push({ field: 'rfidTag', value: tag, endCustomerId: visibleOwner(scope, card) });
  }
  const missingSerials: string[] = [];
  for (const serial of serials) {
    const card = bySerial.get(serial);
    if (!card) missingSerials.push(serial);
    else if (heldElsewhere(card)) conflicts.push({ field: 'serialNumber', value: serial, endCustomerId: visibleOwner(scope, card) });
  }
  if (conflicts.length > 0) {
    if (flow === 'edit' && serials.length > 0)
      throw new ApiError(409, 'DB_CLIENT_ERROR', `RFID serial in use: ${conflicts.map((c) => c.value).join(', ')}`, conflicts);
    throw rfidExists(conflicts);
  }
  if (missingSerials.length > 0)
    throw new ApiError(400, 'ERR_RFID_SERIAL_NOT_EXISTS', `No RFID card with serial ${missingSerials.join(', ')}`, {
      rfidSerialIds: missingSerials,
    });

  const keep = [...tags.map((t) => byTag.get(t)), ...serials.map((s) => bySerial.get(s))].filter((c) => c !== undefined);
  await releaseCards(
    db,
    contractKey,
    keep.map((c) => c.id),
  );
  await assignCards(
    db,
    contractKey,
    keep.filter((c) => c.contractKey === null).map((c) => c.id),
  );
  await insertCards(
    db,
    contractKey,
    tags.filter((t) => !byTag.has(t)),
  );
}

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
  const pdf = await readPdf(body.contractInfo.contractPdfInByteArrayForm);

  const now = new Date();
  const contractKey = randomUUID();
  const contractNumber = await nextContractNumber(db, Number(berlinDate(now).slice(0, 4)));
  let fileId: string | null = null;
  if (pdf) {
    fileId = randomUUID();
    await insertFile(db, {
      id: fileId,
      fileName: pdfFileName(body.contractInfo.contractPDF, contractNumber),
      mimeType: 'application/pdf',
      size: pdf.length,
      content: pdf,
    });
  }
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
  let fileId = before.contractPdfFileId;
  const pdf = active ? undefined : await readPdf(body.contractInfo.contractPdfInByteArrayForm);
  if (pdf) {
    fileId = randomUUID();
    await insertFile(db, {
      id: fileId,
      fileName: pdfFileName(body.contractInfo.contractPDF, before.contractNumber),
      mimeType: 'application/pdf',
      size: pdf.length,
      content: pdf,
    });
  }
  const billing = billingColumns(active ? { ...body, billingType: before.billingType } : body);
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
  return {
    contractKey: row.contractKey,
    endCustomerId: row.endCustomerId,
    contractStatus: row.contractStatus,
    authType: row.authType,
    version: row.version,
  };
}

/** Terminate (spec 2 §4): only an ACTIVE contract; it becomes EXPIRED and ends today unless it ended earlier. */
export async function terminateContract(
  db: Db,
  scope: Scope,
  body: z.output<typeof terminateContractBodySchema>,
  expectedVersion: number | undefined,
): Promise<ContractWriteAnswer> {
  const before = await contractForWrite(db, scope, body.contractKey, expectedVersion);
  if (!contractActions({ ...before, contractChangeTariff: null }).terminate)
    throw notAllowedNow(`Contract ${before.contractKey} is not active`);
  const today = berlinDate(new Date());
  let endDate = before.endDate && before.endDate < today ? before.endDate : today;
  if (before.startDate && endDate < before.startDate) endDate = before.startDate;
  const row = await writeContract(db, before.contractKey, { contractStatus: 'EXPIRED', endDate });
  // A tariff change planned for after the end would otherwise still show (and apply) on an ended contract.
  await dropPendingTariffChanges(db, before.contractKey);
  return {
    contractKey: row.contractKey,
    endCustomerId: row.endCustomerId,
    contractStatus: row.contractStatus,
    authType: row.authType,
    version: row.version,
  };
}

/** A tariff change for the 1st of a month (spec 2 §4-5): ACTIVE, billed, and none pending yet. */
export async function changeTariff(
  db: Db,
  scope: Scope,
  body: z.output<typeof changeTariffBodySchema>,
  expectedVersion: number | undefined,
): Promise<ContractWriteAnswer> {
  const before = await contractForWrite(db, scope, body.contractKey, expectedVersion);
  const pending = await pendingTariffChange(db, before.contractKey);
  if (!contractActions({ ...before, contractChangeTariff: pending ? ({} as never) : null }).editTariff)
    throw notAllowedNow(`The tariff of contract ${before.contractKey} cannot be changed now`);
  const issues = tariffChangeIssues(body, berlinDate(new Date()));
  if (issues.length > 0)
    throw new ApiError(400, 'VALIDATION_ERROR', issues.map((i) => `${i.path}: ${i.message}`).join('; '), undefined, issues);
  await insertPendingTariffChange(db, {
    contractKey: before.contractKey,
    newTariffDate: body.newTariffDate,
    newTariffCancellationDate: body.newTariffCancellationDate,
    fixTariff: body.fixTariff.toFixed(2),
    varTariff: body.varTariff.toFixed(2),
    onboardingFee: body.onboardingFee.toFixed(2),
    fixTariffPerChargingRequest: body.fixTariffPerChargingRequest.toFixed(2),
  });
  const row = await writeContract(db, before.contractKey, {});
  return {
    contractKey: row.contractKey,
    endCustomerId: row.endCustomerId,
    contractStatus: row.contractStatus,
    authType: row.authType,
    version: row.version,
  };
}

/** Admins only (spec 2 §4). A contract with bills stays (they are accounting records): terminate it instead. */
export async function deleteContract(db: Db, scope: Scope, contractKey: string): Promise<{ contractKey: string }> {
  await foundOr404('contract', contractKey, lockContract(db, scope, contractKey));
  if (await hasBills(db, contractKey)) throw notAllowedNow(`Contract ${contractKey} has bills and cannot be deleted`);
  await releaseCards(db, contractKey);
  await deleteContractRow(db, contractKey);
  return { contractKey };
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
