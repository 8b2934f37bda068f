import { afterEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { clear, createStore, get } from 'idb-keyval';
import { makeClaims, makeJwt } from './api/test-tokens';
import { clearTokens, setTokens } from './auth/token-store';
import { cockpitKeys } from './features/cockpit/api/cockpit-keys';
import { customerKeys } from './features/customers/api/customer-keys';
import { locationKeys } from './features/locations/api/location-keys';
import { operatorKeys } from './features/operators/api/operator-keys';
import { rfidKeys } from './features/rfid/api/rfid-keys';
import { stationKeys } from './features/stations/api/station-keys';
import { userKeys } from './features/users/api/user-keys';
import { PERSISTED_CLIENT_KEY, QUERY_CACHE_DB, QUERY_CACHE_STORE, createQueryPersister, saveQueryCache } from './offline/persister';
import { chargingRequestKeys } from './shared/charging-requests/charging-request-queries';

/** What each area's key factory declares about the device copy, as the persister writes it. */

const store = createStore(QUERY_CACHE_DB, QUERY_CACHE_STORE);
const page = { page: 0, size: 10 };

afterEach(async () => {
  clearTokens('logout');
  await clear(store);
});

describe('the offline copy on the device', () => {
  it('never holds the admin lists (customers, RFID cards: other companies), and holds the field areas', async () => {
    setTokens({ accessToken: makeJwt(makeClaims({ sub: 'admin-1' })), refreshToken: 'r' });
    const client = new QueryClient();
    client.setQueryData(customerKeys.list(page), { response: [{ companyName: 'Fremdfirma Customer GmbH' }] });
    client.setQueryData(customerKeys.detail('CU1'), { companyName: 'Fremdfirma Detail GmbH' });
    client.setQueryData(customerKeys.userPage('CU1', page), { response: [{ email: 'fremd-user@example.com' }] });
    client.setQueryData(rfidKeys.list(page), { response: [{ rfidTag: 'FREMD-RFID-TAG' }] });
    const kept = {
      cockpit: cockpitKeys.all,
      locations: locationKeys.lists(),
      stations: stationKeys.details(),
      users: userKeys.lists(),
      operators: operatorKeys.lists(),
      history: chargingRequestKeys.histories(),
    };
    for (const [name, key] of Object.entries(kept)) client.setQueryData(key, `kept-${name}`);

    await saveQueryCache(client, createQueryPersister({ store, throttleTime: 0 }));

    const saved = (await get<string>(PERSISTED_CLIENT_KEY, store)) ?? '';
    for (const name of Object.keys(kept)) expect(saved).toContain(`kept-${name}`);
    expect(saved).not.toContain('"customers"');
    expect(saved).not.toContain('"rfid"');
    expect(saved).not.toMatch(/Fremdfirma|fremd-user|FREMD-RFID/);
  });
});
