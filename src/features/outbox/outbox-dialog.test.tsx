import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createStore, set } from 'idb-keyval';
import { renderWithI18n } from '../../i18n/test-utils';
import { Outbox, type OutboxWrite } from '../../offline/outbox';
import { OutboxContext } from '../../offline/outbox-react';
import { clearNotices } from '../../ui/notices';
import { OutboxButton } from './outbox-button';

let n = 0;
let outbox: Outbox;

const base = (id: string, seq: number, patch: Partial<OutboxWrite>): OutboxWrite => ({
  id,
  idempotencyKey: `key-${id}`,
  scope: `c-${id}`,
  kind: 'parking-lot',
  label: `Ladepunkt ${id}`,
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

beforeEach(async () => {
  const store = createStore(`outbox-ui-${++n}`, 'writes');
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
    base('w3', 3, { kind: 'availability', state: 'failed', attempts: 1, lastError: { code: 'VALIDATION_ERROR', status: 422, message: 'Ungültig' } }),
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

async function openDialog() {
  await renderWithI18n(
    <OutboxContext.Provider value={outbox}>
      <OutboxButton />
    </OutboxContext.Provider>,
  );
  const button = screen.getByRole('button', { name: 'Ausgang, 4 Änderungen ausstehend' });
  expect(screen.getByTestId('outbox-count').textContent).toBe('4');
  await act(async () => {
    fireEvent.click(button);
  });
  return screen.getByRole('dialog', { name: 'Ausstehende Änderungen' });
}

describe('OutboxDialog', () => {
  it('lists each write with kind, time, state and reason', async () => {
    const dialog = await openDialog();
    const items = within(dialog).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-state'))).toEqual(['pending', 'failed', 'failed', 'waiting-for-sign-in']);
    expect(items[0].textContent).toContain('Ladepunkt w1');
    expect(items[0].textContent).toContain('Parkplatzzuordnung');
    expect(items[0].textContent).toContain('22.11.2026 09:30');
    expect(items[0].textContent).toContain('Ausstehend');
    expect(items[1].textContent).toContain('Parkplatz P9, Status Inaktiv (Version 7)');
    expect(items[2].textContent).toContain('Statuswechsel');
    expect(items[2].textContent).toContain('Grund: Ungültig');
    expect(items[3].textContent).toContain('Wartet auf Anmeldung');
  });

  it('retries through the outbox', async () => {
    const retry = vi.spyOn(outbox, 'retry');
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Erneut versuchen: Ladepunkt w3' }));
    });
    expect(retry).toHaveBeenCalledWith('w3');
  });

  it('asks before discarding, then discards through the outbox', async () => {
    const discard = vi.spyOn(outbox, 'discard');
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen: Ladepunkt w2' }));
    });
    expect(discard).not.toHaveBeenCalled();
    const confirm = within(dialog).getByRole('group', { name: 'Diese Änderung verwerfen? Sie wird dann nicht gesendet.' });
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: 'Änderung verwerfen' }));
    });
    expect(discard).toHaveBeenCalledWith('w2');
    await vi.waitFor(() => expect(within(dialog).queryByText('Ladepunkt w2')).toBeNull());
  });

  it('keeps the write when the confirmation is declined', async () => {
    const discard = vi.spyOn(outbox, 'discard');
    const dialog = await openDialog();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen: Ladepunkt w3' }));
    });
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Behalten' }));
    });
    expect(discard).not.toHaveBeenCalled();
    expect(within(dialog).getByText('Ladepunkt w3')).toBeTruthy();
  });
});
