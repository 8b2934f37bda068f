import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../api/query-client';
import { fakeServer } from '../../../api/test-server';
import { renderWithI18n } from '../../../i18n/test-utils';
import { reportAnswer } from '../../../offline/online-status';
import { StationOperationDialog } from './station-operation-dialog';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  reportAnswer();
});

const station = { cpId: 'CP1', connectorId: 'CP1_1' };

async function open(type: 'GET_CONFIGURATION' | 'CHANGE_CONFIGURATION') {
  await renderWithI18n(
    <QueryClientProvider client={createQueryClient()}>
      <StationOperationDialog isOpen onClose={() => {}} station={station} type={type} />
    </QueryClientProvider>,
  );
}

describe('StationOperationDialog', () => {
  it('offline says the network is needed and sends nothing', async () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    const seen = fakeServer({});
    await open('CHANGE_CONFIGURATION');
    expect(screen.getByText(/Keine Verbindung zum Server/)).toBeTruthy();
    const send = screen.getByRole('button', { name: 'An die Ladestation senden' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/^Schlüssel/), { target: { value: 'HeartbeatInterval' } });
    fireEvent.change(screen.getByLabelText(/^Neuer Wert/), { target: { value: '30' } });
    await act(async () => {
      fireEvent.submit(send.form!);
    });
    expect(seen).toHaveLength(0);
  });

  it('refuses an empty key (spec 2 §5), then sends the operation and shows the keys the station reported', async () => {
    const seen = fakeServer({
      'POST /bff/ocpp-client/change-configuration': () => ({
        operationId: 7,
        status: 'accepted',
        stationStatus: null,
        configuration: [{ key: 'HeartbeatInterval', value: '45', readonly: false }],
        unknownKeys: ['Nope'],
      }),
    });
    await open('GET_CONFIGURATION');
    const send = screen.getByRole('button', { name: 'An die Ladestation senden' });
    await act(async () => {
      fireEvent.click(send);
    });
    expect(screen.getByText('Bitte füllen Sie das Feld aus')).toBeTruthy();
    expect(seen).toHaveLength(0);
    fireEvent.change(screen.getByLabelText(/^Schlüssel/), { target: { value: 'HeartbeatInterval,Nope' } });
    await act(async () => {
      fireEvent.click(send);
    });
    await screen.findByText('Angenommen');
    expect(seen[0].body).toEqual({
      connectorOperationType: 'GET_CONFIGURATION',
      cpId: 'CP1',
      connectorId: 'CP1_1',
      key: 'HeartbeatInterval,Nope',
    });
    expect(screen.getByRole('rowheader', { name: 'HeartbeatInterval' })).toBeTruthy();
    expect(screen.getByText('45')).toBeTruthy();
    expect(screen.getByText('Unbekannte Schlüssel: Nope')).toBeTruthy();
  });
});
