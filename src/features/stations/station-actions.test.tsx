import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectorStatus } from '../../../contract/enums';
import { renderWithI18n } from '../../i18n/test-utils';
import { reportAnswer } from '../../offline/online-status';
import { StationActions } from './station-actions';

// The caller is an admin; the parking-lot and status modals are not what this test is about.
vi.mock('../../auth/session-context', () => ({ useSession: () => ({ isAdmin: true }) }));
const openParkingLot = vi.fn();
vi.mock('./use-station-actions', () => ({
  useStationActions: () => ({ openParkingLot, openAvailability: vi.fn(), elements: null }),
}));
// The real operations hook (its block rule), with the opening of the operation dialog observed.
const openOperation = vi.fn();
vi.mock('./use-station-operations', async (importOriginal) => {
  const real = await importOriginal<typeof import('./use-station-operations')>();
  return {
    useStationOperations: (s: Parameters<typeof real.useStationOperations>[0]) => ({
      ...real.useStationOperations(s),
      open: openOperation,
    }),
  };
});

afterEach(() => {
  cleanup();
  openParkingLot.mockReset();
  openOperation.mockReset();
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  reportAnswer();
});

const station = (connectorStatus: ConnectorStatus) => ({
  connectorId: 'CP1_1',
  cpId: 'CP1',
  locationId: 'L1',
  connectorStatus,
  version: 1,
  address: { parkingLot: null },
});

async function openMenu(connectorStatus: ConnectorStatus) {
  await renderWithI18n(<StationActions station={station(connectorStatus)} />);
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: /Aktionen/ }));
  });
  return screen.getByRole('menuitem', { name: 'Konfiguration ändern' });
}

describe('StationActions (spec 2 §4)', () => {
  it.each([
    ['OFFLINE', 'Nicht möglich: Die Ladestation ist offline.'],
    ['INACTIVE', 'Nicht möglich: Die Ladestation ist inaktiv.'],
  ] as const)(
    'disables change configuration for a station that is %s, with the reason as the item’s description',
    async (status, reason) => {
      const item = await openMenu(status);
      expect(item.getAttribute('aria-disabled')).toBe('true');
      expect(screen.getByText(reason)).toBeTruthy();
      const described = (item.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
      expect(described).toContain(reason);
      await act(async () => {
        fireEvent.click(item);
      });
      // Nothing opens: no operation dialog, no warning afterwards.
      expect(openOperation).not.toHaveBeenCalled();
      expect(screen.queryByRole('alertdialog')).toBeNull();
    },
  );

  it('offers change configuration for a station in operation, without a reason, and the other actions whatever the status', async () => {
    const item = await openMenu('IDLE');
    expect(item.getAttribute('aria-disabled')).toBeNull();
    expect(screen.queryByText(/Nicht möglich/)).toBeNull();
    await act(async () => {
      fireEvent.click(item);
    });
    expect(openOperation).toHaveBeenCalledWith('CHANGE_CONFIGURATION');
    cleanup();
    await openMenu('OFFLINE');
    const parkingLot = screen.getByRole('menuitem', { name: 'Parkplatz zuweisen' });
    expect(parkingLot.getAttribute('aria-disabled')).toBeNull();
  });
});
