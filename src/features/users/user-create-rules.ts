import {
  CONTRACT_PDF_MAX_BYTES,
  type ContractDetail,
  type EditContractBody,
  adminUserTypes,
  createContractBodySchema,
  splitCommaList,
  type CreateContractBody,
} from '../../../contract/contracts';
import type { NewWrite } from '../../offline/outbox-write';
import type { UserFormValues } from './api/user-form-values';
import { fromDisplay, toWire } from '../../ui/date-range';
import { USER_CREATE_WRITE, USER_EDIT_WRITE, contractScope, type CreateWriteData, type EditWriteData } from './api/user-writes';
import { moneyInput, parseMoney } from './user-rules';

/**
 * The creation wizard's rules (spec 2 §2, §4-5): the form as typed, the defaults, each field's
 * problem as a message code and the payload. The rules between fields are the contract's
 * (`createContractBodySchema` runs on the payload), so the wizard refuses what the server refuses
 * with the same codes; only what the contract cannot see (a number as typed, a date as typed, the
 * PDF's bytes, the operator's manual ids, the id check) is added here.
 */

export type { UserFormValues };
export type UserField = keyof UserFormValues | 'pdf';

/** Which step shows which field: Next checks only the fields of its step. */
export const STEP_FIELDS: readonly (readonly UserField[])[] = [
  [
    'cpoId',
    'endCustomerId',
    'firstName',
    'lastName',
    'email',
    'companyName',
    'customerVatId',
    'buyerReference',
    'careOf',
    'street',
    'zipCode',
    'city',
  ],
  ['userType', 'locationId', 'parkingLotNumbers', 'authType', 'rfidType', 'rfidTags', 'rfidSerialId'],
  ['billingType', 'billingCycle', 'fixTariff', 'varTariff', 'onboardingFee', 'fixTariffPerChargingRequest', 'startDate', 'endDate', 'pdf'],
  ['paymentMethod', 'mandateReference', 'iban', 'debitAccountNr', 'costCenterNumber', 'vatId'],
];

export const isAdminUserType = (userType: string) => (adminUserTypes as readonly string[]).includes(userType);
/** Admin user types always use RFID; others when the auth type includes it. */
export const usesRfid = (v: Pick<UserFormValues, 'userType' | 'authType'>) => isAdminUserType(v.userType) || v.authType !== 'APP';
export const withBilling = (v: Pick<UserFormValues, 'billingType'>) => v.billingType === 'WITH_BILLING';

/** Spec 2 §4: WITH_BILLING when the operator's payment preference includes a way to pay, else NO_BILLING. */
export function defaultBillingType(preference: readonly string[] | null | undefined): 'WITH_BILLING' | 'NO_BILLING' {
  return (preference ?? []).some((p) => p === 'BANK_TRANSFER' || p === 'SEPA' || p === 'STRIPE_SEPA') ? 'WITH_BILLING' : 'NO_BILLING';
}
/** The payment method the operator prefers first (a user may pick another). */
export function defaultPaymentMethod(preference: readonly string[] | null | undefined): string {
  return (preference ?? []).find((p) => p === 'BANK_TRANSFER' || p === 'SEPA' || p === 'STRIPE_SEPA') ?? '';
}

/** The payment methods a user picks for a contract with billing. */
export const CONTRACT_PAYMENT_METHODS = ['BANK_TRANSFER', 'SEPA', 'STRIPE_SEPA', 'STRIPE_CARD'] as const;

export function emptyUserForm(cpoId = ''): UserFormValues {
  return {
    cpoId,
    endCustomerId: '',
    firstName: '',
    lastName: '',
    email: '',
    careOf: '',
    street: '',
    zipCode: '',
    city: '',
    userType: 'REGULAR',
    locationId: '',
    parkingLotNumbers: [],
    authType: 'APP',
    rfidType: 'TAG',
    rfidTags: '',
    rfidSerialId: '',
    billingType: 'NO_BILLING',
    billingCycle: 'MONTHLY',
    fixTariff: '',
    varTariff: '',
    onboardingFee: '0',
    fixTariffPerChargingRequest: '0',
    startDate: '',
    endDate: '',
    pdfName: '',
    paymentMethod: '',
    mandateReference: '',
    iban: '',
    debitAccountNr: '',
    costCenterNumber: '',
    vatId: '',
    companyName: '',
    customerVatId: '',
    buyerReference: '',
  };
}

/** Spec 2 §4: LOCAL_ADMIN and GLOBAL_ADMIN reset the location and force RFID. */
export function withUserType(v: UserFormValues, userType: string): UserFormValues {
  if (!isAdminUserType(userType)) return { ...v, userType };
  return { ...v, userType, locationId: '', parkingLotNumbers: [], authType: 'RFID' };
}

/** dd.MM.yyyy → yyyy-MM-dd; '' for blank, null when it does not read as a date. */
export function wireDate(text: string): string | null {
  if (!text.trim()) return '';
  const d = fromDisplay(text.trim());
  return d ? toWire(d) : null;
}

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // '%PDF-'

/** Spec 2 §5: only a PDF (by its first bytes, not its name), at most 3 MB. */
export function checkPdf(bytes: Uint8Array): 'pdfOnly' | '3mb' | null {
  if (bytes.length < PDF_MAGIC.length || PDF_MAGIC.some((b, i) => bytes[i] !== b)) return 'pdfOnly';
  if (bytes.length > CONTRACT_PDF_MAX_BYTES) return '3mb';
  return null;
}

/** Bytes → base64 (a Java byte[] on the wire), in slices so a 3 MB file does not overflow the stack. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

const text = (s: string) => (s.trim() ? s.trim() : undefined);
/** A money field for the payload: a number, or undefined when blank or not a number (the form says why). */
const money = (s: string) => {
  const n = parseMoney(s);
  return n === null || Number.isNaN(n) ? undefined : n;
};

/**
 * The POST /create-contract body (spec 2 §4, §7): empty values dropped, comma lists split and
 * trimmed, dates yyyy-MM-dd (no end: null), locationId without the name; NO_BILLING drops the
 * payment data and tariffs, BANK_TRANSFER (anything but SEPA) the mandate reference; admin user
 * types have no location and use RFID.
 */
export function buildCreatePayload(v: UserFormValues, pdfBase64: string | null): CreateContractBody {
  const admin = isAdminUserType(v.userType);
  const rfid = usesRfid(v);
  const billing = withBilling(v);
  const start = wireDate(v.startDate);
  const end = wireDate(v.endDate);
  const erp = { debitAccountNr: text(v.debitAccountNr), costCenterNumber: text(v.costCenterNumber), vatId: text(v.vatId) };
  const body: CreateContractBody = {
    endCustomerId: text(v.endCustomerId),
    cpoId: v.cpoId,
    userType: (text(v.userType) as CreateContractBody['userType'] | undefined)!,
    firstName: v.firstName.trim(),
    lastName: v.lastName.trim(),
    email: v.email.trim(),
    contractAddress: { careOf: text(v.careOf), street: v.street.trim(), zipCode: v.zipCode.trim(), city: v.city.trim(), countryCode: 'DE' },
    locationId: admin ? undefined : text(v.locationId),
    parkingLotNumbers: admin ? [] : v.parkingLotNumbers,
    authType: (admin ? 'RFID' : v.authType) as CreateContractBody['authType'],
    rfidType: rfid ? ((text(v.rfidType) ?? null) as CreateContractBody['rfidType']) : undefined,
    rfidTags: rfid && v.rfidType === 'TAG' ? splitCommaList(v.rfidTags) : [],
    rfidSerialId: rfid && v.rfidType === 'SN' ? splitCommaList(v.rfidSerialId) : [],
    billingType: (text(v.billingType) as CreateContractBody['billingType'] | undefined)!,
    billingCycle: billing ? ((text(v.billingCycle) ?? undefined) as CreateContractBody['billingCycle']) : undefined,
    contractInfo: {
      contractPDF: pdfBase64 ? text(v.pdfName) : undefined,
      contractPdfInByteArrayForm: pdfBase64 ?? undefined,
      startDate: start || undefined,
      endDate: end || null,
      ...(billing
        ? {
            fixTariff: money(v.fixTariff),
            varTariff: money(v.varTariff),
            onboardingFee: money(v.onboardingFee) ?? 0,
            fixTariffPerChargingRequest: money(v.fixTariffPerChargingRequest) ?? 0,
          }
        : {}),
    },
    paymentMethod: billing ? ((text(v.paymentMethod) ?? undefined) as CreateContractBody['paymentMethod']) : undefined,
    contractPaymentDetails: billing
      ? { contractMandateReference: v.paymentMethod === 'SEPA' ? text(v.mandateReference) : undefined, contractIban: text(v.iban) }
      : undefined,
    erpSystemParameters: erp.debitAccountNr || erp.costCenterNumber || erp.vatId ? erp : undefined,
    companyName: text(v.companyName),
    customerVatId: text(v.customerVatId),
    buyerReference: text(v.buyerReference),
  };
  return dropEmpty(body) as CreateContractBody;
}

/** Spec 2 §5 'General': empty values are dropped from payloads (undefined, '', empty lists and objects; a null end date stays). */
function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const cleaned = dropEmpty(v);
    if (cleaned === undefined || cleaned === '' || (Array.isArray(cleaned) && cleaned.length === 0)) continue;
    if (cleaned !== null && typeof cleaned === 'object' && !Array.isArray(cleaned) && Object.keys(cleaned).length === 0) continue;
    out[k] = cleaned;
  }
  return out;
}

const FIELD_ALIASES: Record<string, UserField> = {
  contractMandateReference: 'mandateReference',
  contractIban: 'iban',
  contractPdfInByteArrayForm: 'pdf',
  contractPDF: 'pdf',
};

/** Where the wizard shows a contract issue: the last named segment of its path. */
function fieldOf(path: readonly PropertyKey[]): UserField | null {
  const named = [...path].reverse().find((p): p is string => typeof p === 'string');
  if (!named) return null;
  return FIELD_ALIASES[named] ?? (named as UserField);
}

export interface UserFormContext {
  /** The operator types its end customer ids itself (spec 2 §5: then the id is required). */
  manualIds: boolean;
  /** What the id check said ('exists' blocks Next). */
  idCheck?: 'exists' | 'validated' | 'notValidated' | null;
  /** The chosen file's problem, if any. */
  pdfIssue?: 'pdfOnly' | '3mb' | null;
  /** Edit: the contract's own end customer id (a generated one has dashes; it is not sent unless changed). */
  currentEndCustomerId?: string;
  /** The parking lots the chosen location has; null while the locations are not known (then not checked). */
  knownLots?: readonly string[] | null;
}

/**
 * The chosen lots the location does not have: a contract made before a lot was removed, or kept by
 * an older server that did not follow a rename. The server refuses them (409 UNKNOWN_PARKING_LOT),
 * so the wizard names them and lets the user take them out.
 */
export const unknownParkingLots = (chosen: readonly string[], known: readonly string[] | null | undefined): string[] =>
  known ? chosen.filter((lot) => !known.includes(lot)) : [];

/** Edit: the id is sent only when the user changed it (the server keeps the stored one otherwise). */
const unlessUnchanged = (v: UserFormValues, current: string | undefined): UserFormValues =>
  current !== undefined && v.endCustomerId.trim() === current ? { ...v, endCustomerId: '' } : v;

/** Each field's problem as a message code (the contract's codes, plus number, date, idExists). */
export function userFormIssues(typed: UserFormValues, ctx: UserFormContext): Partial<Record<UserField, string>> {
  const unchangedId = ctx.currentEndCustomerId !== undefined && typed.endCustomerId.trim() === ctx.currentEndCustomerId;
  const v = unlessUnchanged(typed, ctx.currentEndCustomerId);
  const issues: Partial<Record<UserField, string>> = {};
  const set = (field: UserField, code: string) => {
    issues[field] ??= code;
  };
  for (const key of ['fixTariff', 'varTariff', 'onboardingFee', 'fixTariffPerChargingRequest'] as const)
    if (withBilling(v) && Number.isNaN(parseMoney(v[key]))) set(key, 'number');
  for (const key of ['startDate', 'endDate'] as const) if (wireDate(v[key]) === null) set(key, 'date');
  if (ctx.manualIds && !unchangedId && !v.endCustomerId.trim()) set('endCustomerId', 'required');
  if (ctx.idCheck === 'exists') set('endCustomerId', 'idExists');
  if (ctx.pdfIssue) set('pdf', ctx.pdfIssue);
  if (!isAdminUserType(v.userType) && unknownParkingLots(v.parkingLotNumbers, ctx.knownLots).length > 0)
    set('parkingLotNumbers', 'unknownParkingLot');
  if (!v.cpoId) set('cpoId', 'required');
  if (!v.billingType) set('billingType', 'required');
  // The PDF's bytes do not change the rules; a stand-in keeps the payload small.
  const parsed = createContractBodySchema.safeParse(buildCreatePayload(v, v.pdfName ? 'JVBERi0=' : null));
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = fieldOf(issue.path);
      if (field) set(field, issue.message);
    }
  return issues;
}

/** Whether the fields of step `index` have no problem. */
export const stepIsValid = (issues: Partial<Record<UserField, string>>, index: number) =>
  (STEP_FIELDS[index] ?? []).every((f) => !issues[f]);

const newId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** A new end customer as an outbox write: scope of its own, the PDF in the body (kept in IndexedDB until sent). */
export function createWrite(v: UserFormValues, pdfBase64: string | null, draft = newId()): NewWrite<CreateWriteData> {
  return {
    scope: `contract-new:${draft}`,
    kind: USER_CREATE_WRITE,
    data: { draft, name: `${v.firstName.trim()} ${v.lastName.trim()}`, email: v.email.trim(), values: v },
    request: { service: 'contractManagement', path: '/create-contract', method: 'POST', body: buildCreatePayload(v, pdfBase64) },
  };
}

/** The parking lots a REGULAR user may get: those of the chosen location's connectors. */
export const parkingLotsOf = (location: { parkingLots: readonly string[] } | undefined): string[] => [...(location?.parkingLots ?? [])];

// ---------------------------------------------------------------------------------------------
// The edit wizard (spec 2 §2: the same steps, prefilled; PUT /update-contract)
// ---------------------------------------------------------------------------------------------

/** Spec 2 §4: an ACTIVE contract keeps its billing type, start date, tariffs, onboarding fee and PDF. */
export const isLockedContract = (c: Pick<ContractDetail, 'contractStatus'>) => c.contractStatus === 'ACTIVE';

/** The form as the contract is (dates dd.MM.yyyy, amounts with a decimal comma for German). */
export function valuesFromContract(c: ContractDetail, decimalComma: boolean): UserFormValues {
  const money = (n: number | null) => moneyInput(n, decimalComma);
  const date = (iso: string | null) => (iso ? iso.split('-').reverse().join('.') : '');
  return {
    cpoId: c.cpoId,
    endCustomerId: c.endCustomerId,
    firstName: c.firstName,
    lastName: c.lastName,
    email: c.email,
    careOf: c.contractAddress.careOf ?? '',
    street: c.contractAddress.street,
    zipCode: c.contractAddress.zipCode,
    city: c.contractAddress.city,
    userType: c.userType,
    locationId: c.locationId ?? '',
    parkingLotNumbers: [...c.parkingLotNumbers],
    authType: c.authType,
    rfidType: c.rfidType ?? 'TAG',
    rfidTags: c.rfidTags.join(', '),
    rfidSerialId: c.rfidSerialId.join(', '),
    billingType: c.billingType,
    billingCycle: c.billingCycle ?? 'MONTHLY',
    fixTariff: money(c.contractInfo.fixTariff),
    varTariff: money(c.contractInfo.varTariff),
    onboardingFee: money(c.contractInfo.onboardingFee),
    fixTariffPerChargingRequest: money(c.contractInfo.fixTariffPerChargingRequest),
    startDate: date(c.contractInfo.startDate),
    endDate: date(c.contractInfo.endDate),
    pdfName: '',
    paymentMethod: c.paymentMethod && c.paymentMethod !== 'NO_PAYMENT_METHOD' ? c.paymentMethod : '',
    mandateReference: c.contractPaymentDetails.contractMandateReference ?? '',
    iban: c.contractPaymentDetails.contractIban ?? '',
    debitAccountNr: c.erpSystemParameters.debitAccountNr ?? '',
    costCenterNumber: c.erpSystemParameters.costCenterNumber ?? '',
    vatId: c.erpSystemParameters.vatId ?? '',
    companyName: c.companyName ?? '',
    customerVatId: c.customerVatId ?? '',
    buyerReference: c.buyerReference ?? '',
  };
}

/**
 * PUT /update-contract (spec 2 §7): the whole form plus contractKey, authCode and the version the
 * user saw; a new PDF only when one was chosen (without one the stored PDF stays).
 */
export function editWrite(
  c: Pick<ContractDetail, 'contractKey' | 'endCustomerId' | 'firstName' | 'lastName' | 'authCode'>,
  version: number,
  v: UserFormValues,
  pdfBase64: string | null,
  draft = newId(),
): NewWrite<EditWriteData> {
  const body: EditContractBody = {
    ...buildCreatePayload(unlessUnchanged(v, c.endCustomerId), pdfBase64),
    contractKey: c.contractKey,
    ...(c.authCode ? { authCode: c.authCode } : {}),
    version,
  };
  return {
    scope: contractScope(c.contractKey),
    kind: USER_EDIT_WRITE,
    data: { contractKey: c.contractKey, endCustomerId: c.endCustomerId, name: `${c.firstName} ${c.lastName}`, draft, values: v },
    version,
    request: { service: 'contractManagement', path: '/update-contract', method: 'PUT', body },
  };
}
