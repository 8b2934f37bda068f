import { addDays, tariffChangeIssues, type ContractDetail, type ContractRow } from '../../../contract/contracts';
import type { NewWrite } from '../../offline/outbox-write';
import type { PaymentStatus } from '../../shared/payment-status/payment-status-rules';
import {
  USER_DELETE_WRITE,
  USER_INVITATION_WRITE,
  USER_PAYMENT_STATUS_WRITE,
  USER_TARIFF_WRITE,
  USER_TERMINATE_WRITE,
  contractScope,
  type ContractWriteData,
  type PaymentStatusWriteData,
  type TariffWriteData,
} from './api/user-writes';

/** The rules of the users screens that are not the contract's (spec 2 §2, §4-5), and the writes they make. */

export type PaymentSelectionGate = { ok: true } | { ok: false; warning: 'noSelection' };

/** Spec 2 §2: a bulk action with no row selected says 'select one user'. */
export const checkPaymentSelection = (selected: readonly ContractRow[]): PaymentSelectionGate =>
  selected.length === 0 ? { ok: false, warning: 'noSelection' } : { ok: true };

const newDraft = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

/** One write for the whole selection: the server sets all of the bills or none (PUT /bookings/billing-status-update). */
export function paymentStatusWrite(rows: readonly ContractRow[], status: PaymentStatus): NewWrite<PaymentStatusWriteData> {
  const withBill = rows.filter((r): r is ContractRow & { billNumber: string } => !!r.billNumber);
  return {
    scope: 'billing-status',
    kind: USER_PAYMENT_STATUS_WRITE,
    data: {
      status,
      rows: withBill.map((r) => ({ contractKey: r.contractKey, endCustomerId: r.endCustomerId, name: r.name, billNumber: r.billNumber })),
      draft: newDraft(),
    },
    request: {
      service: 'bookingService',
      path: '/bookings/billing-status-update',
      method: 'PUT',
      body: withBill.map((r) => ({ billingNumber: r.billNumber, billingStatus: status })),
    },
  };
}

type ContractFacts = Pick<ContractDetail, 'contractKey' | 'endCustomerId' | 'firstName' | 'lastName'>;
const dataOf = (c: ContractFacts): ContractWriteData => ({
  contractKey: c.contractKey,
  endCustomerId: c.endCustomerId,
  name: `${c.firstName} ${c.lastName}`,
  draft: newDraft(),
});

/** Terminate (spec 2 §7): PUT /update-contract with the key, EXPIRED and the version the user saw. */
export const terminateWrite = (c: ContractFacts, version: number): NewWrite<ContractWriteData> => ({
  scope: contractScope(c.contractKey),
  kind: USER_TERMINATE_WRITE,
  data: dataOf(c),
  version,
  request: {
    service: 'contractManagement',
    path: '/update-contract',
    method: 'PUT',
    body: { contractKey: c.contractKey, contractStatus: 'EXPIRED', version },
  },
});

/** POST /send-invitation-email/{contractKey} (CREATED_UNSIGNED only). */
export const invitationWrite = (c: ContractFacts): NewWrite<ContractWriteData> => ({
  scope: contractScope(c.contractKey),
  kind: USER_INVITATION_WRITE,
  data: dataOf(c),
  request: { service: 'contractManagement', path: `/send-invitation-email/${encodeURIComponent(c.contractKey)}`, method: 'POST' },
});

/** DELETE /delete-contract/{contractKey} (admins only). */
export const deleteWrite = (c: ContractFacts): NewWrite<ContractWriteData> => ({
  scope: contractScope(c.contractKey),
  kind: USER_DELETE_WRITE,
  data: dataOf(c),
  request: { service: 'contractManagement', path: `/delete-contract/${encodeURIComponent(c.contractKey)}`, method: 'DELETE' },
});

// ---------------------------------------------------------------------------------------------
// The tariff change (spec 2 §5)
// ---------------------------------------------------------------------------------------------

export type TariffFormValues = TariffWriteData['values'];

/** The 1st of the month after `today` (the earliest new tariff date that is not the 1st of today's month). */
export function firstOfNextMonth(today: string): string {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return next;
}

/** An amount as a form shows it to edit: always two decimals ('12,90' for 12,90 €, not '12,9'). */
export const moneyInput = (v: number | null, decimalComma: boolean): string =>
  v === null ? '' : decimalComma ? v.toFixed(2).replace('.', ',') : v.toFixed(2);

/** Where the wizard starts: the contract's tariffs, the 1st of next month, cancellation a year on. */
export function initialTariffValues(c: Pick<ContractDetail, 'contractInfo'>, today: string): TariffFormValues {
  const newTariffDate = firstOfNextMonth(today);
  const money = (v: number | null) => moneyInput(v, false);
  return {
    fixTariff: money(c.contractInfo.fixTariff),
    varTariff: money(c.contractInfo.varTariff),
    onboardingFee: money(c.contractInfo.onboardingFee),
    fixTariffPerChargingRequest: money(c.contractInfo.fixTariffPerChargingRequest),
    newTariffDate,
    newTariffCancellationDate: addDays(`${Number(newTariffDate.slice(0, 4)) + 1}${newTariffDate.slice(4)}`, -1),
  };
}

/** A money field as typed: '1,5' and '1.5' are 1.5; blank is null; anything else NaN. */
export function parseMoney(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (t === '') return null;
  return /^\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

const isCentStep = (v: number) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6;

/** Each field's problem as a message code, empty when the form may go on (the contract's `tariffChangeIssues` for the dates). */
export function tariffFormIssues(v: TariffFormValues, today: string): Partial<Record<keyof TariffFormValues, string>> {
  const issues: Partial<Record<keyof TariffFormValues, string>> = {};
  for (const key of ['fixTariff', 'varTariff', 'onboardingFee', 'fixTariffPerChargingRequest'] as const) {
    const n = parseMoney(v[key]);
    const isRequired = key === 'fixTariff' || key === 'varTariff';
    if (n === null) {
      if (isRequired) issues[key] = 'required';
    } else if (Number.isNaN(n)) issues[key] = 'number';
    else if (n > 100000) issues[key] = 'max100000';
    else if (!isCentStep(n)) issues[key] = 'step001';
  }
  if (!v.newTariffDate) issues.newTariffDate = 'required';
  if (!v.newTariffCancellationDate) issues.newTariffCancellationDate = 'required';
  if (v.newTariffDate && v.newTariffCancellationDate)
    for (const issue of tariffChangeIssues(v, today)) issues[issue.path as keyof TariffFormValues] ??= issue.message;
  return issues;
}

/** PUT /change-contract-tarrif with the version the user saw. */
export function tariffWrite(c: ContractFacts, version: number, values: TariffFormValues): NewWrite<TariffWriteData> {
  const money = (s: string) => parseMoney(s) ?? 0;
  return {
    scope: contractScope(c.contractKey),
    kind: USER_TARIFF_WRITE,
    data: { ...dataOf(c), values },
    version,
    request: {
      service: 'contractManagement',
      path: '/change-contract-tarrif',
      method: 'PUT',
      body: {
        contractKey: c.contractKey,
        fixTariff: money(values.fixTariff),
        varTariff: money(values.varTariff),
        onboardingFee: money(values.onboardingFee),
        fixTariffPerChargingRequest: money(values.fixTariffPerChargingRequest),
        newTariffDate: values.newTariffDate,
        newTariffCancellationDate: values.newTariffCancellationDate,
        version,
      },
    },
  };
}

/**
 * An end customer's IBAN as screens show it: country and check digits and the last four, the rest
 * hidden (a customer's account is not read out on a shared screen); spaces and case as stored.
 */
export function maskIban(iban: string | null | undefined): string | null {
  const compact = (iban ?? '').replace(/\s+/g, '').toUpperCase();
  if (!compact) return null;
  if (compact.length <= 8) return compact;
  return `${compact.slice(0, 4)} •••• ${compact.slice(-4)}`;
}

/**
 * The tariff change still to come, as the detail shows it: none on an ended contract, nor one that
 * would start after the contract's end (the server drops them on termination; a contract ended
 * before that rule may still carry one).
 */
export function upcomingTariffChange(
  c: Pick<ContractDetail, 'contractStatus' | 'contractChangeTariff' | 'contractInfo'>,
): ContractDetail['contractChangeTariff'] {
  const change = c.contractChangeTariff;
  if (!change || c.contractStatus === 'EXPIRED' || c.contractStatus === 'UNSIGNED_EXPIRED') return null;
  if (c.contractInfo.endDate && change.newTariffDate > c.contractInfo.endDate) return null;
  return change;
}
