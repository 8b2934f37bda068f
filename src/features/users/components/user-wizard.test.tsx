import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TokenClaims } from '../../../../contract/auth';
import { defaultRuntimeConfig } from '../../../../contract/config';
import { resetRuntimeConfig } from '../../../api/config';
import type { Session, SessionStore } from '../../../auth/session';
import { SessionProvider } from '../../../auth/session-context';
import { renderWithI18n } from '../../../i18n/test-utils';
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
