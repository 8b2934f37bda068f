import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { createStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillRow } from '../../../../contract/bills';
import { defaultRuntimeConfig } from '../../../../contract/config';
import { resetRuntimeConfig } from '../../../api/config';
import { renderWithI18n } from '../../../i18n/test-utils';
import { Outbox } from '../../../offline/outbox';
import { OutboxContext } from '../../../offline/outbox-react';
import { reportAnswer } from '../../../offline/online-status';
import { SendBillButton } from './send-bill-button';

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
  billingStatus: 'GENERATED',
  billGenerationDate: '2026-11-01T06:00:00.000Z',
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

let fetchMock: ReturnType<typeof vi.fn>;
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  resetRuntimeConfig(defaultRuntimeConfig);
  fetchMock = vi.fn(async () => json({ data: { totalNumberOfRecords: 1, response: [bill] } }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetRuntimeConfig();
});

describe('SendBillButton', () => {
  it("asks for the contract's own newest GENERATED bill, by its key, and sends it through the outbox", async () => {
    const sent: unknown[] = [];
    const outbox = new Outbox({
      store: createStore(`send-bill-${Math.random()}`, 'writes'),
      locks: null,
      ensureSession: async () => {},
      currentUser: () => 'user-1',
      send: vi.fn(async (request: unknown) => {
        sent.push(request);
        return { sent: 1 };
      }),
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithI18n(
      <QueryClientProvider client={client}>
        <OutboxContext.Provider value={outbox}>
          <SendBillButton contract={{ contractKey: 'k-1', billingStatus: 'GENERATED' }} />
        </OutboxContext.Provider>
      </QueryClientProvider>,
    );
    const button = await screen.findByRole('button', { name: 'Rechnung RE-2026-CPO1-000007 per E-Mail senden' });
    const url = new URL(String(fetchMock.mock.calls[0]![0]), 'http://localhost');
    expect(url.pathname).toMatch(/\/bookings\/get-bills\/operator$/);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ contractKey: 'k-1', billingStatuses: 'GENERATED', page: '0' });
    expect(url.searchParams.has('endCustomerId')).toBe(false);

    reportAnswer();
    await act(async () => {
      fireEvent.click(button);
    });
    await waitFor(() => expect(screen.getByRole('alertdialog')).toBeTruthy());
    expect(screen.getByRole('alertdialog').textContent).toContain('Rechnungen versendet');
    expect(sent).toEqual([
      expect.objectContaining({ path: '/bookings/send-bill-email', method: 'POST', body: { billNumbers: ['RE-2026-CPO1-000007'] } }),
    ]);
  });

  it('shows nothing while the customer has no GENERATED bill', async () => {
    fetchMock.mockImplementation(async () => json({ data: { totalNumberOfRecords: 0, response: [] } }));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const outbox = new Outbox({ store: createStore(`send-bill-${Math.random()}`, 'writes'), locks: null, send: vi.fn() });
    await renderWithI18n(
      <QueryClientProvider client={client}>
        <OutboxContext.Provider value={outbox}>
          <SendBillButton contract={{ contractKey: 'k-2', billingStatus: 'GENERATED' }} />
        </OutboxContext.Provider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('button')).toBeNull();
  });

  it("never offers another contract's GENERATED bill of the same end-customer id (an older contract's)", async () => {
    // The server as it is: asked by end-customer id it has the older contract k-1's bill, asked by contract k-2 none.
    fetchMock.mockImplementation(async (input: unknown) => {
      const q = new URL(String(input), 'http://localhost').searchParams;
      const rows = q.get('contractKey') === 'k-2' ? [] : q.get('endCustomerId') === 'EC1001' || !q.get('contractKey') ? [bill] : [];
      return json({ data: { totalNumberOfRecords: rows.length, response: rows } });
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const outbox = new Outbox({ store: createStore(`send-bill-${Math.random()}`, 'writes'), locks: null, send: vi.fn() });
    const newer = { contractKey: 'k-2', endCustomerId: 'EC1001', billingStatus: 'GENERATED' } as const;
    await renderWithI18n(
      <QueryClientProvider client={client}>
        <OutboxContext.Provider value={outbox}>
          <SendBillButton contract={newer} />
        </OutboxContext.Provider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('drops a row of another contract even if an answer carried one', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const outbox = new Outbox({ store: createStore(`send-bill-${Math.random()}`, 'writes'), locks: null, send: vi.fn() });
    await renderWithI18n(
      <QueryClientProvider client={client}>
        <OutboxContext.Provider value={outbox}>
          <SendBillButton contract={{ contractKey: 'k-9', billingStatus: 'GENERATED' }} />
        </OutboxContext.Provider>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await act(async () => {});
    expect(screen.queryByRole('button')).toBeNull();
  });
});
