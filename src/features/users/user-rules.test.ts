import { describe, expect, it } from 'vitest';
import { contractActions, type ContractDetail, type ContractRow } from '../../../contract/contracts';
import type { OutboxWrite } from '../../offline/outbox-write';
import { USER_INVITATION_WRITE, USER_TARIFF_WRITE, USER_TERMINATE_WRITE, contractScope, tariffDraft } from './api/user-writes';
import { versionToSend } from '../../offline/versioned-writes';
import {
  checkPaymentSelection,
  firstOfNextMonth,
  initialTariffValues,
  parseMoney,
  upcomingTariffChange,
  paymentStatusWrite,
  deleteWrite,
  invitationWrite,
  tariffFormIssues,
  tariffWrite,
  terminateWrite,
} from './user-rules';
import { paymentStatusChange } from '../../shared/payment-status/payment-status-rules';

const row = (patch: Partial<ContractRow>): ContractRow => ({
  id: 'k-1',
  contractKey: 'k-1',
  endCustomerId: 'EC1',
  name: 'Anna Müller',
  location: 'L1: Depot',
  parkingLotNumbers: ['P1'],
  contractStatus: 'ACTIVE',
  contractStatusMapping: { enumName: 'ACTIVE', colourCode: '#2E7D32' },
  userType: 'REGULAR',
  billingStatus: 'UNPAID',
  billNumber: 'R-1',
  rfId: null,
  ...patch,
});

describe('payment status change (spec 2 §2, §4)', () => {
  const paid = row({ id: 'a', contractKey: 'a', billingStatus: 'PAID', billNumber: 'R-a' });
  const open = row({ id: 'b', contractKey: 'b', billingStatus: 'UNPAID', billNumber: 'R-b' });
  const generated = row({ id: 'c', contractKey: 'c', billingStatus: 'GENERATED', billNumber: 'R-c' });
  const noBill = row({ id: 'd', contractKey: 'd', billingStatus: null, billNumber: null });

  it('asks for a selection first', () => {
    expect(checkPaymentSelection([])).toEqual({ ok: false, warning: 'noSelection' });
    expect(checkPaymentSelection([paid])).toEqual({ ok: true });
  });

  it("is 'not changed' when every selected bill already has the status", () => {
    expect(paymentStatusChange([paid], 'PAID').unchanged).toBe(true);
    expect(paymentStatusChange([paid, noBill], 'PAID').unchanged).toBe(true);
    expect(paymentStatusChange([paid, open], 'PAID')).toMatchObject({ unchanged: false, changing: [open] });
    // Another bill state (GENERATED) changes to PAID as well.
    expect(paymentStatusChange([generated], 'PAID').changing).toEqual([generated]);
    // Nothing chosen yet is not 'unchanged' (no error before the user picks).
    expect(paymentStatusChange([paid], null)).toMatchObject({ unchanged: false, changing: [] });
  });

  it('names the users without a bill and leaves them out of the write', () => {
    const change = paymentStatusChange([noBill, open], 'PAID');
    expect(change.withoutBill).toEqual([noBill]);
    expect(change.changing).toEqual([open]);
    expect(paymentStatusChange([noBill], 'PAID').unchanged).toBe(true);
  });

  it('sends one all-or-none write with each bill number', () => {
    const w = paymentStatusWrite([open, generated, noBill], 'PAID');
    expect(w.request).toEqual({
      service: 'bookingService',
      path: '/bookings/billing-status-update',
      method: 'PUT',
      body: [
        { billingNumber: 'R-b', billingStatus: 'PAID' },
        { billingNumber: 'R-c', billingStatus: 'PAID' },
      ],
    });
    expect(w.data.rows.map((r) => r.contractKey)).toEqual(['b', 'c']);
  });
});

describe('actions availability (contract rule, spec 2 §4)', () => {
  const c = (patch: Partial<ContractDetail>) =>
    contractActions({ contractStatus: 'ACTIVE', userType: 'REGULAR', billingType: 'WITH_BILLING', contractChangeTariff: null, ...patch });
  it('offers tariff and terminate on an active billed contract, the invitation only while unsigned', () => {
    expect(c({})).toEqual({ menu: true, edit: true, editTariff: true, terminate: true, resendInvitation: false });
    expect(c({ contractStatus: 'CREATED_UNSIGNED' })).toMatchObject({ editTariff: false, terminate: false, resendInvitation: true });
    expect(c({ billingType: 'NO_BILLING' }).editTariff).toBe(false);
    expect(c({ contractChangeTariff: {} as never }).editTariff).toBe(false);
  });
  it('hides the whole menu for AD_HOC users and ended contracts', () => {
    expect(c({ userType: 'AD_HOC' }).menu).toBe(false);
    expect(c({ contractStatus: 'EXPIRED' }).menu).toBe(false);
    expect(c({ contractStatus: 'UNSIGNED_EXPIRED' }).terminate).toBe(false);
  });
});

describe('tariff change form (spec 2 §5)', () => {
  const today = '2026-11-24';
  const good = {
    fixTariff: '10',
    varTariff: '0,35',
    onboardingFee: '',
    fixTariffPerChargingRequest: '0.5',
    newTariffDate: '2026-12-01',
    newTariffCancellationDate: '2027-11-30',
  };

  it('starts on the 1st of next month with the contract tariffs', () => {
    expect(firstOfNextMonth('2026-12-15')).toBe('2027-01-01');
    const start = initialTariffValues(
      { contractInfo: { fixTariff: 9.9, varTariff: 0.3, onboardingFee: 0, fixTariffPerChargingRequest: 0 } } as ContractDetail,
      today,
    );
    expect(start).toMatchObject({
      fixTariff: '9.90',
      varTariff: '0.30',
      newTariffDate: '2026-12-01',
      newTariffCancellationDate: '2027-11-30',
    });
    expect(tariffFormIssues(start, today)).toEqual({});
  });

  it('accepts a comma or a dot and refuses more than two decimals', () => {
    expect(parseMoney('0,35')).toBe(0.35);
    expect(parseMoney(' ')).toBeNull();
    expect(Number.isNaN(parseMoney('1e3') as number)).toBe(true);
    expect(tariffFormIssues(good, today)).toEqual({});
    expect(tariffFormIssues({ ...good, varTariff: '0,355' }, today)).toEqual({ varTariff: 'step001' });
    expect(tariffFormIssues({ ...good, fixTariff: '' }, today)).toEqual({ fixTariff: 'required' });
    expect(tariffFormIssues({ ...good, fixTariff: '-1' }, today)).toEqual({ fixTariff: 'number' });
  });

  it('takes only the 1st of a month, not in the past, and a cancellation after it', () => {
    expect(tariffFormIssues({ ...good, newTariffDate: '2026-12-02' }, today).newTariffDate).toBe('firstOfMonth');
    expect(tariffFormIssues({ ...good, newTariffDate: '2026-11-01' }, today).newTariffDate).toBe('notInPast');
    expect(tariffFormIssues({ ...good, newTariffCancellationDate: '2026-12-01' }, today).newTariffCancellationDate).toBe(
      'cancellationAfterNewDate',
    );
    expect(tariffFormIssues({ ...good, newTariffCancellationDate: '' }, today).newTariffCancellationDate).toBe('required');
  });

  it('sends numbers, the dates and the version the user saw', () => {
    const c = { contractKey: 'k-1', endCustomerId: 'EC1', firstName: 'Anna', lastName: 'Müller' };
    const w = tariffWrite(c, 3, good);
    expect(w.scope).toBe(contractScope('k-1'));
    expect(w.request).toMatchObject({ method: 'PUT', path: '/change-contract-tarrif' });
    expect(w.request.body).toEqual({
      contractKey: 'k-1',
      fixTariff: 10,
      varTariff: 0.35,
      onboardingFee: 0,
      fixTariffPerChargingRequest: 0.5,
      newTariffDate: '2026-12-01',
      newTariffCancellationDate: '2027-11-30',
      version: 3,
    });
    expect(terminateWrite(c, 3).request.body).toEqual({ contractKey: 'k-1', contractStatus: 'EXPIRED', version: 3 });
  });
});

describe('versions and drafts of queued writes', () => {
  const queued = (kind: string, version: number | undefined, state: OutboxWrite['state'] = 'pending', draft = 'd1') =>
    ({
      scope: contractScope('k-1'),
      kind,
      state,
      version,
      data: { contractKey: 'k-1', draft, values: { newTariffDate: '2026-12-01' } },
    }) as unknown as OutboxWrite;

  it('adds one per queued versioned write of the contract, not for failed ones or invitations', () => {
    const toSend = (writes: OutboxWrite[], key = 'k-1', version = 4) => versionToSend(version, contractScope(key), writes);
    expect(toSend([])).toBe(4);
    expect(toSend([queued(USER_TARIFF_WRITE, 4)])).toBe(5);
    expect(toSend([queued(USER_TARIFF_WRITE, 4), queued(USER_TERMINATE_WRITE, 5)])).toBe(6);
    expect(toSend([queued(USER_TARIFF_WRITE, 4, 'failed')])).toBe(4);
    expect(toSend([queued(USER_INVITATION_WRITE, undefined)])).toBe(4);
    expect(toSend([queued(USER_TARIFF_WRITE, 4)], 'k-2', 1)).toBe(1);
  });

  it('carries the version the user saw on terminate, tariff change and edit, none on an invitation or delete', () => {
    const c = { contractKey: 'k-1', endCustomerId: 'EC1', firstName: 'Anna', lastName: 'Müller' };
    expect(terminateWrite(c, 4).version).toBe(4);
    expect(
      tariffWrite(c, 5, {
        fixTariff: '10',
        varTariff: '0',
        onboardingFee: '',
        fixTariffPerChargingRequest: '',
        newTariffDate: '',
        newTariffCancellationDate: '',
      }).version,
    ).toBe(5);
    expect(invitationWrite(c).version).toBeUndefined();
    expect(deleteWrite(c).version).toBeUndefined();
  });

  it('finds what the user entered in a refused tariff change', () => {
    expect(tariffDraft([queued(USER_TARIFF_WRITE, 4, 'failed', 'abc')], 'k-1', 'abc')).toEqual({ newTariffDate: '2026-12-01' });
    expect(tariffDraft([queued(USER_TARIFF_WRITE, 4, 'failed', 'abc')], 'k-1', 'other')).toBeNull();
    expect(tariffDraft([], 'k-1', undefined)).toBeNull();
  });
});

describe('a terminated contract shows no future tariff (issue 23)', () => {
  const change = {
    newTariffDate: '2027-01-01',
    newTariffCancellationDate: '2028-01-01',
    fixTariff: 20,
    varTariff: 0.5,
    onboardingFee: 0,
    fixTariffPerChargingRequest: 0,
  };
  const info = { endDate: null } as unknown as ContractDetail['contractInfo'];
  it('shows it while the contract runs, not once it ended or when it starts after the end', () => {
    expect(upcomingTariffChange({ contractStatus: 'ACTIVE', contractChangeTariff: change, contractInfo: info })).toBe(change);
    expect(upcomingTariffChange({ contractStatus: 'EXPIRED', contractChangeTariff: change, contractInfo: info })).toBeNull();
    expect(
      upcomingTariffChange({ contractStatus: 'ACTIVE', contractChangeTariff: change, contractInfo: { ...info, endDate: '2026-12-31' } }),
    ).toBeNull();
  });
});
