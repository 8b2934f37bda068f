import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { defaultRuntimeConfig } from '../../../../contract/config';
import type { LocationDetail } from '../../../../contract/locations';
import { resetRuntimeConfig } from '../../../api/config';
import { renderWithI18n } from '../../../i18n/test-utils';
import { EditLocationWizard } from './edit-location-wizard';

const location: LocationDetail = {
  locationId: 'L7',
  locationName: 'Depot Süd',
  locationAddress: { careOf: null, street: 'Prager Str. 1', zipCode: '01067', city: 'Dresden', countryCode: 'DE' },
  cpoId: 'CPO1',
  operatorDetail: { cpoId: 'CPO1', cpoName: 'Stadtwerke', cpoAddress: { street: 'Ring 1', zipCode: '01069', city: 'Dresden' } },
  chargingInfrastructureMetrics: {
    totalChargingStations: 0,
    removedChargingStations: 0,
    totalChargePoints: 0,
    removedChargePoints: 0,
    statusesSummary: {},
  },
  contractMetrics: { totalContractStatuses: 0, statusesSummary: {} },
  isEmsConnected: false,
  emsModel: null,
  requestedInfrastructure: [],
  emsId: null,
  parkingLots: [],
  version: 4,
};

let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  resetRuntimeConfig(defaultRuntimeConfig);
  fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify({ data: { locationId: 'L7', locationName: 'Depot Süd', version: 5 } }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetRuntimeConfig();
});

const press = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

describe('EditLocationWizard', () => {
  it('takes the postcode as text with a numeric keyboard and sends its leading zero unchanged', async () => {
    const client = new QueryClient();
    await renderWithI18n(
      <QueryClientProvider client={client}>
        <EditLocationWizard location={location} isOpen onClose={() => {}} />
      </QueryClientProvider>,
    );
    const postcode = screen.getByRole('textbox', { name: /^Postleitzahl/ }) as HTMLInputElement;
    // A number input's spinner or scroll wheel would turn 01067 into 1068.
    expect(postcode.type).toBe('text');
    expect(postcode.inputMode).toBe('numeric');
    expect(postcode.getAttribute('autocomplete')).toBe('postal-code');
    expect(postcode.pattern).toBe('[0-9]{1,10}');
    expect(postcode.value).toBe('01067');

    await act(async () => {
      fireEvent.change(postcode, { target: { value: '01069' } });
      fireEvent.blur(postcode);
    });
    await press('Weiter');
    expect(screen.getByText('01069')).toBeTruthy();
    await press('Speichern');

    const [, init] = fetchMock.mock.calls.find(([input]) => String(input).includes('/locations/update-location'))!;
    expect(JSON.parse(String((init as RequestInit).body)).locationAddress).toMatchObject({ zipCode: '01069', city: 'Dresden' });
    client.clear();
  });
});
