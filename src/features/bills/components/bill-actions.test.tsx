import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillRow } from '../../../../contract/bills';
import { defaultRuntimeConfig } from '../../../../contract/config';
import { resetRuntimeConfig } from '../../../api/config';
import { renderWithI18n } from '../../../i18n/test-utils';
import { Outbox } from '../../../offline/outbox';
import { OutboxContext } from '../../../offline/outbox-react';
import { reportAnswer } from '../../../offline/online-status';
import { useBillActions } from './bill-actions';

// The caller is an admin: the menu offers 'Neu erstellen'.
vi.mock('../../../auth/session-context', () => ({ useSession: () => ({ isAdmin: true }) }));

const bill: BillRow = {
  billId: 'b-1',
  billNumber: 'RE-2026-CPO1-000042',
  contractKey: 'k-1',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  energyLoaded: '12.000',
  taxedFixCosts: '10.00',
  taxedVarCosts: '5.00',
  totalTaxedCosts: '15.00',
  billingStatus: 'GENERATED',
  billGenerationDate: '2026-11-02T06:00:00.000Z',
  billCollectionDate: null,
  billDownloadDate: null,
  paymentMethod: 'SEPA',
  stripeSepaPaymentIntentId: null,
  stripeSepaBillPaymentStatus: null,
  monthNumber: 10,
  yearNumber: 2026,
  endCustomerId: 'EC1001',
  endCustomerFirstName: 'Anna',
  endCustomerLastName: 'Müller',
  userType: 'REGULAR',
};

/** The actions of a list with `bill` selected, each as a plain button (the menu itself is the UI kit's). */
function Actions() {
  const { items, onAction, dialogs } = useBillActions([bill], () => {});
  return (
    <>
      {items.map((item) => (
        <button key={item.id} type="button" onClick={() => onAction(item.id)}>
          {item.label}
        </button>
      ))}
      {dialogs}
    </>
  );
}

let fetchMock: ReturnType<typeof vi.fn>;
const regenerateCalls = () => fetchMock.mock.calls.filter(([url]) => String(url).includes('/bookings/regenerate-bills'));

beforeEach(() => {
  resetRuntimeConfig(defaultRuntimeConfig);
  fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify({ data: { successfulBillRegenerations: [bill.billNumber], unSuccessfulBillRegenerations: [] } }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
  reportAnswer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetRuntimeConfig();
});

async function renderActions() {
  const outbox = new Outbox({ store: createStore(`bill-actions-${Math.random()}`, 'writes'), locks: null, send: vi.fn() });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  await renderWithI18n(
    <QueryClientProvider client={client}>
      <OutboxContext.Provider value={outbox}>
        <Actions />
      </OutboxContext.Provider>
    </QueryClientProvider>,
  );
}

describe('regenerating a bill (spec 3 §2, issue 35)', () => {
  it('asks first, naming the bill: cancel sends nothing', async () => {
    await renderActions();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Neu erstellen' }));
    });
    const ask = screen.getByRole('alertdialog', { name: 'Rechnung neu erstellen?' });
    expect(ask.textContent).toContain('Die Rechnung RE-2026-CPO1-000042 wird mit den heutigen Daten neu berechnet');
    expect(regenerateCalls()).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(regenerateCalls()).toEqual([]);
  });

  it('regenerates only once confirmed, and shows the outcome', async () => {
    await renderActions();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Neu erstellen' }));
    });
    const ask = screen.getByRole('alertdialog', { name: 'Rechnung neu erstellen?' });
    await act(async () => {
      fireEvent.click(within(ask).getByRole('button', { name: 'Neu erstellen' }));
    });
    await waitFor(() => expect(screen.getByRole('alertdialog', { name: /Rechnung neu erstellt/ })).toBeTruthy());
    expect(regenerateCalls()).toHaveLength(1);
    const [, init] = regenerateCalls()[0]! as [unknown, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({ billNumbers: [bill.billNumber] });
  });
});
