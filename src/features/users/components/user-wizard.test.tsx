import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenClaims } from '../../../../contract/auth';
import { defaultRuntimeConfig } from '../../../../contract/config';
import { resetRuntimeConfig } from '../../../api/config';
import type { Session, SessionStore } from '../../../auth/session';
import { SessionProvider } from '../../../auth/session-context';
import { renderWithI18n } from '../../../i18n/test-utils';
import type { ContractDetail } from '../../../../contract/contracts';
import { locationKeys } from '../../locations/api/location-keys';
import { UserWizard } from './user-wizard';

const claims = {
  sub: 'u1',
  name: 'Olga Operator',
  email: 'olga@example.com',
  preferred_username: 'olga',
  role_company: 'Leitung',
  customer_id: 'K1',
  customer_type: 'Operator',
  company_name: 'Stadtwerke',
  c_o: '',
  street_name: 'Ring',
  house_number: '1',
  postcode: '01067',
  city: 'Dresden',
  country: 'DE',
  cpo_id: ['CPO1'],
  createManualEndCustomerId: false,
  resource_access: {},
} as unknown as TokenClaims;

const session: Session = { status: 'authenticated', claims, isAdmin: false, endedBy: null };
const store: SessionStore = { getSnapshot: () => session, subscribe: () => () => {}, ready: async () => session };

beforeEach(() => {
  resetRuntimeConfig(defaultRuntimeConfig);
  // The operator and the locations are not needed for the first step's fields.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response('{}', { status: 404, headers: { 'Content-Type': 'application/json' } })),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  resetRuntimeConfig();
});

describe('UserWizard', () => {
  it("takes the customer's postcode as text with a numeric keyboard and keeps its leading zero", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithI18n(
      <SessionProvider store={store}>
        <QueryClientProvider client={client}>
          <UserWizard isOpen onClose={() => {}} onSubmit={async () => {}} />
        </QueryClientProvider>
      </SessionProvider>,
    );
    const postcode = screen.getByRole('textbox', { name: /^PLZ/ }) as HTMLInputElement;
    // A number input's spinner or scroll wheel would turn 01067 into 1068.
    expect(postcode.type).toBe('text');
    expect(postcode.inputMode).toBe('numeric');
    expect(postcode.getAttribute('autocomplete')).toBe('postal-code');
    expect(postcode.pattern).toBe('[0-9]{1,10}');
    await act(async () => {
      fireEvent.change(postcode, { target: { value: '01067' } });
      fireEvent.blur(postcode);
    });
    expect(postcode.value).toBe('01067');
    expect(postcode.getAttribute('aria-invalid')).toBeNull();
    client.clear();
  });
});

describe('UserWizard: a business customer', () => {
  it('asks for the company, its VAT id and buyer reference on the first step and says why a VAT id is refused', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await renderWithI18n(
      <SessionProvider store={store}>
        <QueryClientProvider client={client}>
          <UserWizard isOpen onClose={() => {}} onSubmit={async () => {}} />
        </QueryClientProvider>
      </SessionProvider>,
    );
    const company = screen.getByRole('textbox', { name: /^Firma/ }) as HTMLInputElement;
    const vatId = screen.getByRole('textbox', { name: /^USt-IdNr\. des Kunden/ }) as HTMLInputElement;
    expect(screen.getByRole('textbox', { name: /^Bestell- oder Käuferreferenz/ })).toBeTruthy();
    const typeInto = async (input: HTMLInputElement, value: string) =>
      act(async () => {
        fireEvent.change(input, { target: { value } });
        fireEvent.blur(input);
      });
    // The rules between fields run on a form whose fields are each fine.
    for (const [name, value] of [
      [/^Vorname/, 'Jan'],
      [/^Nachname/, 'Fuhrpark'],
      [/^E-Mail/, 'jan@flotte.example'],
      [/^Straße/, 'Hafenweg 1'],
      [/^PLZ/, '20457'],
      [/^Ort/, 'Hamburg'],
    ] as const)
      await typeInto(screen.getByRole('textbox', { name }) as HTMLInputElement, value);
    await typeInto(vatId, 'DE136695976');
    expect(screen.getByText('Nur mit einem Firmennamen möglich.')).toBeTruthy();
    await typeInto(company, 'Flotte Nord GmbH');
    expect(screen.queryByText('Nur mit einem Firmennamen möglich.')).toBeNull();
    await typeInto(vatId, 'DE136695975');
    expect(screen.getByText(/Bitte eine gültige USt-IdNr\. eines EU-Staats angeben/)).toBeTruthy();
    expect(vatId.getAttribute('aria-invalid')).toBe('true');
    client.clear();
  });
});

describe('UserWizard editing a contract whose parking lot is gone (issue 23)', () => {
  const contract: ContractDetail = {
    contractKey: 'k-1',
    contractId: 'id-1',
    contractNumber: 'V-1',
    endCustomerId: 'EC1',
    endCustomerIdManuallyCreated: true,
    contractStatus: 'CREATED_UNSIGNED',
    contractStatusMapping: { enumName: 'CREATED_UNSIGNED', colourCode: '#999' },
    userType: 'REGULAR',
    firstName: 'Anna',
    lastName: 'Müller',
    email: 'anna@example.com',
    contractAddress: { careOf: null, street: 'Weg 1', zipCode: '20457', city: 'Hamburg', countryCode: 'DE' },
    cpoId: 'CPO1',
    cpoName: 'Hafen',
    createManualEndCustomerId: false,
    locationId: 'L1',
    locationName: 'Depot',
    parkingLotNumbers: ['P1'],
    authType: 'APP',
    rfidType: null,
    rfidTags: [],
    rfidSerialId: [],
    billingType: 'NO_BILLING',
    billingCycle: null,
    billingStatus: null,
    contractInfo: {
      contractPDF: null,
      startDate: null,
      endDate: null,
      fixTariff: null,
      varTariff: null,
      onboardingFee: 0,
      fixTariffPerChargingRequest: 0,
    },
    contractChangeTariff: null,
    pdfAvailable: false,
    paymentMethod: null,
    contractPaymentDetails: { contractMandateReference: null, contractIban: null },
    stripeSepaPaymentDetailsAreConfigured: false,
    erpSystemParameters: { debitAccountNr: null, costCenterNumber: null, vatId: null },
    companyName: null,
    customerVatId: null,
    buyerReference: null,
    authCode: null,
    version: 5,
  } as unknown as ContractDetail;

  it('names the lot on the authorisation step and holds Next until it is taken out', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    // P1 was renamed to H000 on the connector; the contract still names P1.
    client.setQueryData(locationKeys.dropdown(), [
      { locationId: 'L1', locationName: 'Depot', cpoId: 'CPO1', cpoName: 'Hafen', parkingLots: ['H000'], locationIdName: 'L1: Depot' },
    ]);
    await renderWithI18n(
      <SessionProvider store={store}>
        <QueryClientProvider client={client}>
          <UserWizard isOpen contract={contract} onClose={() => {}} onSubmit={async () => {}} />
        </QueryClientProvider>
      </SessionProvider>,
    );
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Weiter' }));
    });
    expect(
      await screen.findByText('Diese Parkplätze gibt es am Standort nicht mehr: P1. Bitte entfernen oder durch einen anderen ersetzen.'),
    ).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
    client.clear();
  });
});
