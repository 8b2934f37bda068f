import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRuntimeConfig } from '../../../contract/config';
import type { ContractRow as LocationContractRow } from '../../../contract/contracts';
import { resetRuntimeConfig } from '../../api/config';
import { renderWithI18n } from '../../i18n/test-utils';
import { UsersTable } from './users-table';

const row = (patch: Partial<LocationContractRow>): LocationContractRow => ({
  id: 'c-1',
  contractKey: 'k-1',
  endCustomerId: 'EC1001',
  name: 'Anna Müller',
  location: 'L1: Depot Nord',
  parkingLotNumbers: ['P1', 'P2'],
  contractStatus: 'ACTIVE',
  contractStatusMapping: { enumName: 'ACTIVE', colourCode: '#2E7D32' },
  userType: 'REGULAR',
  billingStatus: 'PAID',
  billNumber: 'R-2026-000001',
  rfId: 'RF-01',
  ...patch,
});

const rows: LocationContractRow[] = [
  row({}),
  row({
    id: 'c-2',
    contractKey: 'k-2',
    endCustomerId: 'EC1002',
    name: 'Bernd Schulz',
    parkingLotNumbers: [],
    contractStatus: 'CREATED_UNSIGNED',
    contractStatusMapping: { enumName: 'CREATED_UNSIGNED', colourCode: '#F9A825' },
    billingStatus: 'UNPAID',
    rfId: null,
  }),
  row({ id: 'c-3', contractKey: 'k-3', endCustomerId: 'EC1003', name: 'Clara Wolf', billingStatus: 'GENERATED' }),
  row({ id: 'c-4', contractKey: 'k-4', endCustomerId: 'EC1004', name: 'Dieter Kurz', billingStatus: null }),
];

type Answer = { totalNumberOfRecords: number; response: LocationContractRow[] };
/** What the server answers for a request URL; tests replace it. */
let answerFor: (url: URL) => Answer;
let fetchMock: ReturnType<typeof vi.fn>;
let client: QueryClient;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Path and query of every request the table sent, in order. */
const requested = () =>
  fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://localhost');
    return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
  });

beforeEach(() => {
  resetRuntimeConfig(defaultRuntimeConfig);
  answerFor = () => ({ totalNumberOfRecords: rows.length, response: rows });
  fetchMock = vi.fn(async (input: RequestInfo | URL) => json({ data: answerFor(new URL(String(input), 'http://localhost')) }));
  vi.stubGlobal('fetch', fetchMock);
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
});

afterEach(() => {
  cleanup();
  client.clear();
  vi.unstubAllGlobals();
  resetRuntimeConfig();
});

async function renderTable(locale: 'de' | 'en' = 'de', locationId: string | null = 'L1') {
  await renderWithI18n(
    <QueryClientProvider client={client}>
      <UsersTable locationId={locationId ?? undefined} heading={locale === 'de' ? 'Nutzer des Standorts' : 'Users at this location'} />
    </QueryClientProvider>,
    { locale },
  );
}

const grid = (name: string) => screen.findByRole('grid', { name });
const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('UsersTable', () => {
  it('renders the /nutzer columns and one row per contract of the location', async () => {
    await renderTable();
    const table = await grid('Nutzer des Standorts');
    await screen.findByText('Anna Müller');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'Name', 'Kundennummer', 'Parkplätze', 'Vertragsstatus', 'Zahlungsstatus', 'RFID']);
    const [first, second] = bodyRows(table);
    expect(Array.from(first.querySelectorAll('[role="gridcell"], [role="rowheader"]'), (c) => c.textContent).slice(1)).toEqual([
      'Anna Müller',
      'EC1001',
      'P1, P2',
      'Aktiv',
      'Bezahlt',
      'RF-01',
    ]);
    // The contract's internal key only in the link, never as text in a row (issue 23).
    expect(table.textContent).not.toContain('c-1');
    expect(within(second).getByTestId('contract-status').textContent).toBe('Erstellt, nicht unterschrieben');
    expect(within(second).getAllByText('–')).toHaveLength(2); // no parking lots, no RFID
    // Each row links to /nutzer/{id} and can be selected for the payment-status change.
    expect(within(table).getByRole('link', { name: 'Nutzer Anna Müller öffnen' }).getAttribute('href')).toBe('/nutzer/c-1');
    expect(within(table).getAllByRole('checkbox').length).toBe(rows.length + 1);
    expect(requested()).toEqual([{ path: '/contract-management/location/L1/contracts', query: { page: '0', size: '10' } }]);
  });

  it('shows PAID as Bezahlt, UNPAID as Offen and nothing for any other billing status', async () => {
    await renderTable();
    const table = await grid('Nutzer des Standorts');
    await screen.findByText('Anna Müller');
    const billing = bodyRows(table).map((r) => within(r).queryByTestId('billing-status')?.textContent ?? null);
    expect(billing).toEqual(['Bezahlt', 'Offen', null, null]);
  });

  it('uses the English wording for billing states', async () => {
    await renderTable('en');
    const table = await grid('Users at this location');
    await screen.findByText('Anna Müller');
    expect(
      within(table)
        .getAllByTestId('billing-status')
        .map((b) => b.textContent),
    ).toEqual(['Paid', 'Open']);
  });

  it('sends the submitted filters (trimmed, user types comma-joined) and resets them', async () => {
    await renderTable();
    await screen.findByText('Anna Müller');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Kundennummer' }), { target: { value: ' EC10 ' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Name' }), { target: { value: 'Müller' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'RFID' }), { target: { value: 'RF-0' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Nutzertyp/ }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('option', { name: 'Regulär' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('option', { name: 'Lokaler Admin' }));
    });
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    });
    expect(screen.queryByRole('listbox')).toBeNull();
    // Typing alone sends nothing: a filter applies on submit (Enter or the search button).
    expect(fetchMock).toHaveBeenCalledTimes(1);

    answerFor = (url) =>
      url.searchParams.has('name')
        ? { totalNumberOfRecords: 1, response: [rows[0]] }
        : { totalNumberOfRecords: rows.length, response: rows };
    await act(async () => {
      fireEvent.submit(screen.getByRole('search', { name: 'Nutzer filtern' }));
    });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(requested()[1]).toEqual({
      path: '/contract-management/location/L1/contracts',
      query: { endCustomerId: 'EC10', name: 'Müller', rfId: 'RF-0', userTypes: 'LOCAL_ADMIN,REGULAR', page: '0', size: '10' },
    });
    await vi.waitFor(() => expect(screen.queryByText('Bernd Schulz')).toBeNull());

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Zurücksetzen' }));
    });
    expect((screen.getByRole('searchbox', { name: 'Name' }) as HTMLInputElement).value).toBe('');
    // Back to the unfiltered page (cached, refreshed in the background).
    expect(await screen.findByText('Bernd Schulz')).toBeTruthy();
    await vi.waitFor(() => expect(requested().at(-1)?.query).toEqual({ page: '0', size: '10' }));
  });

  it('shows the empty text when the location has no users', async () => {
    answerFor = () => ({ totalNumberOfRecords: 0, response: [] });
    await renderTable();
    expect(await screen.findByText('Keine Nutzer gefunden')).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows an error with a retry that loads again', async () => {
    fetchMock.mockImplementationOnce(async () => json({ errorCodeResponse: 'INTERNAL_ERROR', errorMessage: 'boom' }, 500));
    await renderTable();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Die Nutzer konnten nicht geladen werden.');
    await act(async () => {
      fireEvent.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    });
    expect(await screen.findByText('Anna Müller')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('on /nutzer reads the operator list and offers the location filter', async () => {
    await renderTable('de', null);
    const table = await grid('Nutzer des Standorts');
    await screen.findByText('Anna Müller');
    expect(table).toBeTruthy();
    expect(requested().find((r) => r.path.startsWith('/contract-management'))).toEqual({
      path: '/contract-management/contracts/operator',
      query: { page: '0', size: '10' },
    });
    expect(screen.getByRole('button', { name: /Standorte/ })).toBeTruthy();
  });

  it("warns 'select one user' when the payment status is changed without a selection", async () => {
    await renderTable();
    await screen.findByText('Anna Müller');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Zahlungsstatus ändern' }));
    });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('Bitte wählen Sie mindestens einen Nutzer aus.');
  });
});
