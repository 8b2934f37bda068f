import { readFileSync } from 'node:fs';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { stripePaymentStates, type BillRow } from '../../../../contract/bills';
import { renderWithI18n } from '../../../i18n/test-utils';
import { SepaInfo } from './bill-columns';

/** The bills list's SEPA info (issue 35): every payment state Stripe or its events can leave on a bill shows in the user's language. */

const bill: BillRow = {
  billId: 'b-1',
  billNumber: 'RE-2026-CPO1-000007',
  contractKey: 'k-1',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  energyLoaded: '12.000',
  taxedFixCosts: '10.00',
  taxedVarCosts: '5.00',
  totalTaxedCosts: '15.00',
  billingStatus: 'PAID',
  billGenerationDate: '2026-11-02T06:00:00.000Z',
  billCollectionDate: '2026-11-09T06:00:00.000Z',
  billDownloadDate: null,
  paymentMethod: 'STRIPE_SEPA',
  stripeSepaPaymentIntentId: 'pi_123',
  stripeSepaBillPaymentStatus: 'succeeded',
  monthNumber: 10,
  yearNumber: 2026,
  endCustomerId: 'EC1001',
  endCustomerFirstName: 'Anna',
  endCustomerLastName: 'Müller',
  userType: 'REGULAR',
};

afterEach(cleanup);

/** The labels as the locale file has them (an import of it gives the signed-out part only). */
const labelsOf = (locale: 'de' | 'en') =>
  (
    JSON.parse(readFileSync(`${process.cwd()}/locales/${locale}.json`, 'utf8')) as {
      bills: { sepa: { paymentStates: Record<string, string> } };
    }
  ).bills.sepa.paymentStates;

async function statusShown(status: string | null, locale: 'de' | 'en') {
  await renderWithI18n(<SepaInfo bill={{ ...bill, stripeSepaBillPaymentStatus: status }} />, { locale });
  fireEvent.click(screen.getByRole('button'));
  const info = await screen.findByTestId('sepa-info');
  const cells = [...info.querySelectorAll('dd')].map((d) => d.textContent);
  cleanup();
  return cells[2];
}

describe('SepaInfo', () => {
  it.each(['de', 'en'] as const)('names every payment state by its %s label, never by Stripe’s word', async (locale) => {
    const labels = labelsOf(locale);
    for (const state of stripePaymentStates) {
      const shown = await statusShown(state, locale);
      expect(shown).toBe(labels[state]);
      expect(shown).not.toContain(state);
    }
    expect(await statusShown('some_new_state', locale)).toBe(labels.other);
    expect(await statusShown(null, locale)).toBe('–');
  });

  it('shows the German label of a succeeded debit', async () => {
    expect(await statusShown('succeeded', 'de')).toBe('Bezahlt');
  });
});
