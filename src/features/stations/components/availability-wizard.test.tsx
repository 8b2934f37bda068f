import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { createStore } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../../../i18n/test-utils';
import { Outbox } from '../../../offline/outbox';
import { OutboxContext } from '../../../offline/outbox-react';
import type { SelectedConnector } from '../station-rules';
import { AvailabilityWizard } from './availability-wizard';

afterEach(cleanup);

const standby: SelectedConnector = {
  connectorId: 'OLI1_1',
  cpId: 'OLI1',
  locationId: 'L1',
  connectorStatus: 'CONNECTED_UNAVAILABLE',
  version: 2,
  address: { parkingLot: 'P1' },
};

async function open(selected: SelectedConnector[]) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  const outbox = new Outbox({ store: createStore(`wizard-${Math.random()}`, 'writes'), locks: null, send: vi.fn() });
  await renderWithI18n(
    <OutboxContext.Provider value={outbox}>
      <AvailabilityWizard isOpen selected={selected} onClose={() => {}} onQueued={() => {}} />
    </OutboxContext.Provider>,
  );
  return outbox;
}

describe('AvailabilityWizard', () => {
  it('shows the current status and refuses the one the connector already has', async () => {
    const outbox = await open([standby]);
    expect(screen.getByText('Aktueller Status: Standby')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('radio', { name: 'Standby' }));
    });
    expect(screen.getByText('Der Status ist bereits gesetzt. Bitte wählen Sie einen anderen.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('radio', { name: 'Aktiv' }));
    });
    expect(screen.queryByText('Der Status ist bereits gesetzt. Bitte wählen Sie einen anderen.')).toBeNull();
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(false);
    outbox.dispose();
  });

  it('lets a mixed selection go to a status some of them already have', async () => {
    const outbox = await open([standby, { ...standby, connectorId: 'OLI2_1', cpId: 'OLI2', connectorStatus: 'IDLE' }]);
    expect(screen.getByText('Aktuelle Status: Standby, Aktiv')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('radio', { name: 'Standby' }));
    });
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(false);
    outbox.dispose();
  });
});
