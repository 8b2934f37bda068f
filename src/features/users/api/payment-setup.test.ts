import { afterEach, describe, expect, it } from 'vitest';
import { clearRedo, readRedoRecord, redoPaymentSetupOffered, rememberRedo } from './payment-setup';

describe('redo payment details setup', () => {
  afterEach(() => localStorage.clear());

  it('is offered only for a configured STRIPE_SEPA contract in the four statuses (spec 2 §4)', () => {
    const base = { paymentMethod: 'STRIPE_SEPA' as const, stripeSepaPaymentDetailsAreConfigured: true };
    for (const status of ['CREATED_UNSIGNED', 'CREATED_SIGNED', 'ACTIVE', 'BLOCKED'] as const) {
      expect(redoPaymentSetupOffered({ ...base, contractStatus: status }), status).toBe(true);
    }
    for (const status of ['EXPIRED', 'UNSIGNED_EXPIRED'] as const) {
      expect(redoPaymentSetupOffered({ ...base, contractStatus: status }), status).toBe(false);
    }
    expect(redoPaymentSetupOffered({ ...base, contractStatus: 'ACTIVE', stripeSepaPaymentDetailsAreConfigured: false })).toBe(false);
    expect(redoPaymentSetupOffered({ ...base, contractStatus: 'ACTIVE', paymentMethod: 'SEPA' })).toBe(false);
  });

  it('keeps the last request and expiry per contract until it runs out, and clears it', () => {
    const now = Date.UTC(2026, 10, 25, 8, 0);
    expect(rememberRedo('K1', 15, now)).toEqual({ lastRequest: now, expiry: now + 15 * 60_000 });
    expect(readRedoRecord('K1', now + 60_000)?.expiry).toBe(now + 15 * 60_000);
    expect(readRedoRecord('K2', now)).toBeNull();
    expect(readRedoRecord('K1', now + 15 * 60_000)).toBeNull();
    clearRedo('K1');
    expect(readRedoRecord('K1', now)).toBeNull();
    localStorage.setItem('cockpit.redoSepa.K3', 'not json');
    expect(readRedoRecord('K3', now)).toBeNull();
  });
});
