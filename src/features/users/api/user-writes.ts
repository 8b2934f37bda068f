import { contractConflictDetailSchema, type ChangeTariffBody } from '../../../../contract/contracts';
import { rfidConflictsSchema } from '../../../../contract/rfid';
import type { TranslateFn } from '../../../i18n/i18n-context';
import type { OutboxError, OutboxWrite } from '../../../offline/outbox-write';
import { registerWriteKind } from '../../../offline/write-kinds';
import { billKeys } from '../../bills/api/bill-keys';
import { locationKeys } from '../../locations/api/location-keys';
import type { UserFormValues } from './user-form-values';
import { userKeys } from './user-keys';
import { userDetailQueryOptions } from './user-queries';

/**
 * The users area's outbox writes (spec 2 §2/§4): terminate, tariff change, resend invitation, delete
 * and the bulk payment-status change. Registered at start-up (src/write-kinds.ts), so a write
 * replayed after a reload on any screen refreshes what it changed: the contract's page, the user
 * lists and the users tab of the location pages.
 */

export const USER_TERMINATE_WRITE = 'user.terminate';
export const USER_TARIFF_WRITE = 'user.tariff';
export const USER_INVITATION_WRITE = 'user.invitation';
export const USER_DELETE_WRITE = 'user.delete';
export const USER_PAYMENT_STATUS_WRITE = 'user.payment-status';
export const USER_CREATE_WRITE = 'user.create';
export const USER_EDIT_WRITE = 'user.edit';

export interface ContractWriteData {
  contractKey: string;
  endCustomerId: string;
  name: string;
  /** Names this write for 'Erneut bearbeiten' (tariff change: the wizard opens again with `values`). */
  draft: string;
}

export type TariffValues = Pick<
  ChangeTariffBody,
  'fixTariff' | 'varTariff' | 'onboardingFee' | 'fixTariffPerChargingRequest' | 'newTariffDate' | 'newTariffCancellationDate'
>;
export interface TariffWriteData extends ContractWriteData {
  values: Record<keyof TariffValues, string>;
}

/** An edit of the whole contract (the edit wizard): what was typed, for 'Erneut bearbeiten'. */
export interface EditWriteData extends ContractWriteData {
  values: UserFormValues;
}

export interface PaymentStatusWriteData {
  status: 'PAID' | 'UNPAID';
  rows: { contractKey: string; endCustomerId: string; name: string; billNumber: string }[];
  draft: string;
}

/**
 * A new end customer (the creation wizard). `values` is the form as typed (no bank data leaves the
 * device through the URL: 'Erneut bearbeiten' names the write by `draft`); the PDF is in the body.
 */
export interface CreateWriteData {
  draft: string;
  name: string;
  email: string;
  values: UserFormValues;
}

/** What a refused creation says (spec 2 §8). */
export type CreateRefusal =
  | { kind: 'rfidExists'; rows: { field: 'serialNumber' | 'rfidTag'; value: string; endCustomerId: string | null }[] }
  | { kind: 'serialInUse'; rows: { field: 'serialNumber' | 'rfidTag'; value: string; endCustomerId: string | null }[] }
  | { kind: 'serialNotExists'; serials: string[] }
  | { kind: 'emailInUse'; endCustomerId: string }
  /** The e-mail is taken by a customer of another operator, whom the caller may not see. */
  | { kind: 'emailTaken' }
  /** The contract PDF could not be read in its limits, or carries JavaScript or a launch action. */
  | { kind: 'pdfUnreadable' }
  | { kind: 'pdfActiveContent' }
  | { kind: 'endCustomerIdInUse'; endCustomerId: string }
  /** Parking lots the location does not have (any more): the wizard lets the user take them out. */
  | { kind: 'unknownParkingLots'; lots: string[] }
  /** SEPA direct debit while the operator has no creditor id (issue 35). */
  | { kind: 'sepaNeedsCreditorId' }
  | { kind: 'generic' };

export function createRefusal(error: Pick<OutboxError, 'code' | 'detail'> | null | undefined): CreateRefusal {
  const detail = error?.detail as Record<string, unknown> | undefined;
  const idOf = () => (typeof detail?.endCustomerId === 'string' ? detail.endCustomerId : '');
  switch (error?.code) {
    case 'ERR_RFID_ID_EXISTS':
    case 'DB_CLIENT_ERROR': {
      const rows = rfidConflictsSchema.safeParse(error.detail);
      if (!rows.success) return { kind: 'generic' };
      return { kind: error.code === 'ERR_RFID_ID_EXISTS' ? 'rfidExists' : 'serialInUse', rows: rows.data };
    }
    case 'ERR_RFID_SERIAL_NOT_EXISTS': {
      const serials = Array.isArray(detail?.rfidSerialIds) ? detail.rfidSerialIds.map(String) : [];
      return { kind: 'serialNotExists', serials };
    }
    case 'DUPLICATED_EMAIL':
      return idOf() ? { kind: 'emailInUse', endCustomerId: idOf() } : { kind: 'emailTaken' };
    case 'UPLOAD_NOT_READABLE':
      return { kind: 'pdfUnreadable' };
    case 'UPLOAD_ACTIVE_CONTENT':
      return { kind: 'pdfActiveContent' };
    case 'DUPLICATED_END_CUSTOMER_ID':
      return { kind: 'endCustomerIdInUse', endCustomerId: idOf() };
    case 'SEPA_CREDITOR_ID_REQUIRED':
      return { kind: 'sepaNeedsCreditorId' };
    case 'UNKNOWN_PARKING_LOT':
      return { kind: 'unknownParkingLots', lots: Array.isArray(detail?.parkingLots) ? detail.parkingLots.map(String) : [] };
    default:
      return { kind: 'generic' };
  }
}

/** A refused creation as one line (the outbox's reason). */
export function describeCreateRefusal(error: OutboxError, t: TranslateFn): string | null {
  const r = createRefusal(error);
  const rfidRows = (rows: { field: string; value: string; endCustomerId: string | null }[]) =>
    rows.map((row) => `${row.value} (${row.endCustomerId ?? '–'})`).join(', ');
  switch (r.kind) {
    case 'rfidExists':
      return t('users.create.errors.rfidExists', { list: rfidRows(r.rows) });
    case 'serialInUse':
      return t('users.create.errors.serialInUse', { list: rfidRows(r.rows) });
    case 'serialNotExists':
      return t('users.create.errors.serialNotExists', { list: r.serials.join(', ') });
    case 'emailInUse':
      return t('users.create.errors.emailInUse', { id: r.endCustomerId });
    case 'endCustomerIdInUse':
      return t('users.create.errors.endCustomerIdInUse', { id: r.endCustomerId });
    case 'unknownParkingLots':
      return t('dataRules.unknownParkingLots', { lots: r.lots.join(', ') });
    case 'emailTaken':
    case 'pdfUnreadable':
    case 'pdfActiveContent':
    case 'sepaNeedsCreditorId':
      return t(`users.create.errors.${r.kind}`);
    default:
      return null;
  }
}

/**
 * Every write of one contract goes out in order; terminate, tariff change and edit carry the version
 * the user saw (`version`, offline/versioned-writes.ts), and each one accepted moves it on by one.
 */
export const contractScope = (contractKey: string) => `contract:${contractKey}`;

/** The contract as a colleague left it (409 CONFLICT), or what the status rule refused (409 CONTRACT_STATUS_DATA_INCONSISTENCY). */
function describeContractRefusal(error: OutboxError, t: TranslateFn): string | null {
  if (error.code === 'CONTRACT_STATUS_DATA_INCONSISTENCY') return t('users.writes.notAllowedNow');
  const parsed = contractConflictDetailSchema.safeParse(error.detail);
  if (!parsed.success) return null;
  const c = parsed.data.current;
  return t('users.writes.conflict', {
    name: `${c.firstName} ${c.lastName}`,
    status: t(`contractStatus.${c.contractStatus}`),
    version: String(parsed.data.currentVersion),
  });
}

const contractLabel = (d: ContractWriteData) => `${d.endCustomerId} · ${d.name}`;

/** What a contract write changes: its page and every user list page (the location pages' users tabs are lists too). */
const refreshContract = (d: ContractWriteData) => [userDetailQueryOptions(d.contractKey), userKeys.lists()];

export function registerUserWrites(): void {
  registerWriteKind<CreateWriteData>({
    kind: USER_CREATE_WRITE,
    name: (t) => t('users.writes.create'),
    label: (d) => `${d.name} · ${d.email}`,
    refreshes: () => [userKeys.lists()],
    formPath: (d) => `/nutzer#create=${encodeURIComponent(d.draft)}`,
    describeFailure: describeCreateRefusal,
  });
  registerWriteKind<EditWriteData>({
    kind: USER_EDIT_WRITE,
    name: (t) => t('users.writes.edit'),
    label: (d) => contractLabel(d),
    refreshes: refreshContract,
    formPath: (d) => `/nutzer/${encodeURIComponent(d.contractKey)}#edit=${encodeURIComponent(d.draft)}`,
    describeFailure: (error, t) => describeCreateRefusal(error, t) ?? describeContractRefusal(error, t),
    sets: ({ values: v }) => ({
      name: `${v.firstName} ${v.lastName}`,
      email: v.email,
      address: { careOf: v.careOf, street: v.street, zipCode: v.zipCode, city: v.city },
      parkingLotNumbers: v.parkingLotNumbers,
    }),
  });
  registerWriteKind<ContractWriteData>({
    kind: USER_TERMINATE_WRITE,
    name: (t) => t('users.writes.terminate'),
    label: (d) => contractLabel(d),
    refreshes: refreshContract,
    formPath: (d) => `/nutzer/${encodeURIComponent(d.contractKey)}`,
    describeFailure: describeContractRefusal,
  });
  registerWriteKind<TariffWriteData>({
    kind: USER_TARIFF_WRITE,
    name: (t) => t('users.writes.tariff'),
    label: (d, t) => t('users.writes.tariffLabel', { user: contractLabel(d), date: d.values.newTariffDate.split('-').reverse().join('.') }),
    refreshes: refreshContract,
    formPath: (d) => `/nutzer/${encodeURIComponent(d.contractKey)}?${new URLSearchParams({ edit: 'tariff', draft: d.draft }).toString()}`,
    describeFailure: describeContractRefusal,
  });
  registerWriteKind<ContractWriteData>({
    kind: USER_INVITATION_WRITE,
    name: (t) => t('users.writes.invitation'),
    label: (d) => contractLabel(d),
    refreshes: refreshContract,
    formPath: (d) => `/nutzer/${encodeURIComponent(d.contractKey)}`,
    describeFailure: describeContractRefusal,
  });
  registerWriteKind<ContractWriteData>({
    kind: USER_DELETE_WRITE,
    name: (t) => t('users.writes.delete'),
    label: (d) => contractLabel(d),
    // A deleted contract leaves the location lists' user counts too. Its own detail is not refetched:
    // it answers 404 now (an error in the console while the page still shows); the page leaves for
    // the list (user-actions.tsx), and a later visit finds it gone.
    refreshes: () => [userKeys.lists(), locationKeys.all],
    formPath: (d) => `/nutzer/${encodeURIComponent(d.contractKey)}`,
    describeFailure: (error, t) =>
      error.code === 'CONTRACT_STATUS_DATA_INCONSISTENCY' ? t('users.writes.deleteHasBills') : describeContractRefusal(error, t),
  });
  registerWriteKind<PaymentStatusWriteData>({
    kind: USER_PAYMENT_STATUS_WRITE,
    name: (t) => t('users.writes.paymentStatus'),
    label: (d, t) => t('users.writes.paymentStatusLabel', { count: d.rows.length, status: t(`users.billingStatus.${d.status}`) }),
    refreshes: (d) => [userKeys.lists(), billKeys.lists(), ...d.rows.map((r) => userKeys.detail(r.contractKey))],
    formPath: () => '/nutzer',
    describeFailure: (error, t) => (error.code === 'BILLING_NOT_FOUND' ? t('users.writes.billNotFound') : null),
  });
}

/** What the user entered in a refused tariff change (the outbox's 'Erneut bearbeiten'), if still kept. */
export function tariffDraft(
  writes: readonly OutboxWrite[],
  contractKey: string,
  draft: string | undefined,
): TariffWriteData['values'] | null {
  if (!draft) return null;
  const found = writes.find(
    (w) =>
      w.scope === contractScope(contractKey) && w.kind === USER_TARIFF_WRITE && (w.data as TariffWriteData | undefined)?.draft === draft,
  );
  return found ? (found.data as TariffWriteData).values : null;
}

/** What the user entered in a refused creation ('Erneut bearbeiten'), with the PDF it carried, if still kept. */
export function createDraft(
  writes: readonly OutboxWrite[],
  draft: string | undefined,
): { values: CreateWriteData['values']; pdfBase64: string | null; writeId: string } | null {
  if (!draft) return null;
  const found = writes.find((w) => w.kind === USER_CREATE_WRITE && (w.data as CreateWriteData | undefined)?.draft === draft);
  if (!found) return null;
  const body = found.request.body as { contractInfo?: { contractPdfInByteArrayForm?: string } } | undefined;
  return {
    values: (found.data as CreateWriteData).values,
    pdfBase64: body?.contractInfo?.contractPdfInByteArrayForm ?? null,
    writeId: found.id,
  };
}

/** What the user entered in a refused edit ('Erneut bearbeiten'), with the PDF it carried, if still kept. */
export function editDraft(
  writes: readonly OutboxWrite[],
  contractKey: string,
  draft: string | undefined,
): { values: UserFormValues; pdfBase64: string | null; writeId: string } | null {
  if (!draft) return null;
  const found = writes.find(
    (w) => w.scope === contractScope(contractKey) && w.kind === USER_EDIT_WRITE && (w.data as EditWriteData | undefined)?.draft === draft,
  );
  if (!found) return null;
  const body = found.request.body as { contractInfo?: { contractPdfInByteArrayForm?: string } } | undefined;
  return {
    values: (found.data as EditWriteData).values,
    pdfBase64: body?.contractInfo?.contractPdfInByteArrayForm ?? null,
    writeId: found.id,
  };
}
