import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, set } from 'idb-keyval';
import { renderWithI18n } from '../i18n/test-utils';
import { Outbox } from './outbox';
import type { OutboxWrite } from './outbox-write';
import { OutboxContext } from './outbox-react';
import { NoticeRegion, clearNotices } from '../ui/notices';
import { OutboxButton } from './outbox-button';
import { registerWriteKind } from './write-kinds';

// Two kinds as an area registers them; labels are rendered from the data in the current language.
registerWriteKind<{ id: string }>({
  kind: 'test.lot',
  name: (t) => t('stations.writes.parkingLot'),
  label: (d, t) => t('stations.parkingLot.outboxLabel', { lot: 'P1', connectorId: d.id }),
  refreshes: () => [],
  formPath: (d) => `/stationen/${d.id}`,
  describeFailure: (error) =>
    error.code === 'CONFLICT'
      ? `Auf dem Server geändert: Version ${String((error.detail as { currentVersion: number }).currentVersion)}`
      : null,
});
registerWriteKind<{ id: string }>({
  kind: 'test.status',
  name: (t) => t('stations.writes.availability'),
  label: (d, t) => t('stations.availability.outboxLabel', { status: 'Standby', connectorId: d.id }),
  refreshes: () => [],
});

let n = 0;
let outbox: Outbox;

const base = (id: string, seq: number, patch: Partial<OutboxWrite>): OutboxWrite => ({
  id,
  idempotencyKey: `key-${id}`,
  scope: `c-${id}`,
  kind: 'test.lot',
  data: { id },
  request: { service: 'bff', path: `/x/${id}`, method: 'PUT', body: {} },
  createdAt: new Date(2026, 10, 22, 9, 30).getTime(),
  seq,
  owner: 'user-1',
  state: 'pending',
  attempts: 0,
  lastError: null,
  nextAttemptAt: 0,
  ...patch,
});

let store: ReturnType<typeof createStore>;

beforeEach(async () => {
  store = createStore(`outbox-ui-${++n}`, 'writes');
  await set('w1', base('w1', 1, { state: 'pending' }), store);
  await set(
    'w2',
    base('w2', 2, {
      state: 'failed',
      attempts: 1,
      lastError: {
        code: 'CONFLICT',
        status: 409,
        message: 'Conflict',
        detail: { connectorId: 'c-w2', currentVersion: 7, current: { parkingLot: 'P9', connectorStatus: 'INACTIVE' } },
      },
    }),
    store,
  );
  await set(
    'w3',
    base('w3', 3, {
      kind: 'test.status',
      state: 'failed',
      attempts: 1,
      lastError: { code: 'VALIDATION_ERROR', status: 422, message: 'Invalid payload' },
    }),
    store,
  );
  await set('w4', base('w4', 4, { state: 'waiting-for-sign-in' }), store);
  // Offline so that nothing is sent while the test looks at the states.
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  outbox = new Outbox({ store, locks: null, currentUser: () => 'user-1', send: vi.fn(), ensureSession: async () => {} });
  await outbox.whenReady();
});

afterEach(() => {
  cleanup();
  clearNotices();
  outbox.dispose();
});

async function openDialog(locale: 'de' | 'en' = 'de') {
  await renderWithI18n(
    <OutboxContext.Provider value={outbox}>
      <OutboxButton />
    </OutboxContext.Provider>,
    { locale },
  );
  const button = screen.getByRole('button', { name: locale === 'de' ? 'Ausgang, 4 Änderungen ausstehend' : 'Outbox, 4 changes waiting' });
  expect(screen.getByTestId('outbox-count').textContent).toBe('4');
  await act(async () => {
    fireEvent.click(button);
  });
  return screen.getByRole('dialog', { name: locale === 'de' ? 'Ausstehende Änderungen' : 'Outbox' });
}

describe('OutboxDialog', () => {
  it('lists each write with kind, time, state and reason', async () => {
    const dialog = await openDialog();
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-state'))).toEqual(['pending', 'failed', 'failed', 'waiting-for-sign-in']);
    expect(items[0].textContent).toContain('Parkplatz P1 für w1');
    expect(items[0].textContent).toContain('Parkplatzzuordnung');
    expect(items[0].textContent).toContain('22.11.2026 09:30');
    expect(items[0].textContent).toContain('Ausstehend');
    expect(items[1].textContent).toContain('Auf dem Server geändert: Version 7');
    expect(items[2].textContent).toContain('Statuswechsel');
    // The server's reason is English and for logs: the user reads one in their language.
    expect(items[2].textContent).toContain('Grund: Bitte prüfen Sie Ihre Eingaben.');
    expect(dialog.textContent).not.toContain('Invalid payload');
    expect(items[3].textContent).toContain('Wartet auf Anmeldung');
    // A refused write leads back to its screen to make the change again.
    expect(within(items[1]).getByRole('link', { name: 'Erneut bearbeiten: Parkplatz P1 für w2' }).getAttribute('href')).toBe(
      '/stationen/w2',
    );
    expect(within(items[0]).queryByRole('link')).toBeNull();
  });

  it('renders labels in the language of the moment, and a write stored before write kinds with its stored label', async () => {
    await set('w5', { ...base('w5', 5, {}), kind: 'parking-lot', data: undefined, label: 'Ladepunkt alt · P3' }, store);
    await outbox.replay();
    outbox.dispose();
    outbox = new Outbox({ store, locks: null, currentUser: () => 'user-1', send: vi.fn(), ensureSession: async () => {} });
    await outbox.whenReady();
    await renderWithI18n(
      <OutboxContext.Provider value={outbox}>
        <OutboxButton />
      </OutboxContext.Provider>,
      { locale: 'en' },
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Outbox, 5 changes waiting' }));
    });
    const items = within(screen.getByRole('dialog')).getAllByRole('listitem');
    expect(items[0].textContent).toContain('Parking lot P1 for w1');
    expect(items[2].textContent).toContain('Status Standby for w3');
    expect(items[4].textContent).toContain('Ladepunkt alt · P3');
  });

  it('gets out of the way when a refused write is opened again on its screen (also when only the hash changes)', async () => {
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('link', { name: 'Erneut bearbeiten: Parkplatz P1 für w2' }));
    });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('retries through the outbox', async () => {
    const retry = vi.spyOn(outbox, 'retry');
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Erneut versuchen: Status Standby für w3' }));
    });
    expect(retry).toHaveBeenCalledWith('w3');
  });

  it('asks before discarding, then discards through the outbox', async () => {
    const discard = vi.spyOn(outbox, 'discard');
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen: Parkplatz P1 für w2' }));
    });
    expect(discard).not.toHaveBeenCalled();
    const confirm = within(dialog).getByRole('group', { name: 'Diese Änderung verwerfen? Sie wird dann nicht gesendet.' });
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: 'Änderung verwerfen' }));
    });
    expect(discard).toHaveBeenCalledWith('w2');
    await vi.waitFor(() => expect(within(dialog).queryByText('Parkplatz P1 für w2')).toBeNull());
  });

  it('keeps the write when the confirmation is declined', async () => {
    const discard = vi.spyOn(outbox, 'discard');
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen: Status Standby für w3' }));
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Behalten' }));
    });
    expect(discard).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Status Standby für w3')).toBeTruthy();
  });

  it('a change saved behind a refused change of the same entity says it waits for it, with the way to fix it', async () => {
    await renderWithI18n(
      <OutboxContext.Provider value={outbox}>
        <OutboxButton />
        <NoticeRegion />
      </OutboxContext.Provider>,
    );
    // Refused already when the page opened: no notice for what was there.
    expect(screen.queryByText(/wartet auf eine abgelehnte Änderung/)).toBeNull();
    await act(async () => {
      await outbox.submit([
        { scope: 'c-w2', kind: 'test.lot', data: { id: 'w2b' }, request: { service: 'bff', path: '/x/w2b', method: 'PUT' } },
      ]);
    });
    const notice = await screen.findByText(/wartet auf eine abgelehnte Änderung derselben Stelle \(Parkplatz P1 für w2\)/);
    expect(notice).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Erneut bearbeiten' })).toBeTruthy();
    // And the outbox list says why it waits.
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ausgang, 5 Änderungen ausstehend' }));
    });
    const item = within(screen.getByRole('dialog')).getAllByRole('listitem')[4]!;
    expect(item.textContent).toContain('Wartet auf die abgelehnte Änderung: Parkplatz P1 für w2');
  });
});
