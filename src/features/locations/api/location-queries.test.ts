import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver, dehydrate } from '@tanstack/react-query';
import type { LocationDropdownRow } from '../../../../contract/locations';
import type { CreateLocationBody } from '../../../../contract/locations';
import { createQueryClient } from '../../../api/query-client';
import { fakeServer } from '../../../api/test-server';
import { SESSION_STARTED_AT, shouldPersistQuery } from '../../../offline/persister';
import { locationKeys } from './location-keys';
import { createLocationMutation, locationListQueryOptions } from './location-queries';

const row = (locationId: string, locationName: string): LocationDropdownRow => ({
  locationId,
  locationName,
  cpoId: 'CPO1',
  cpoName: 'Stadtwerke',
  parkingLots: [],
  locationIdName: `${locationId}: ${locationName}`,
});
const body: CreateLocationBody = {
  locationName: 'Tiefgarage Neu',
  locationAddress: { street: 'Weg 1', zipCode: '01067', city: 'Dresden' },
  cpoId: 'CPO1',
  cpoName: 'Stadtwerke',
  wallBoxesData: [],
  isEmsConnected: false,
};

afterEach(() => vi.unstubAllGlobals());

describe('createLocationMutation', () => {
  it('puts the new location into the location select at once, and into the copy kept on the device', async () => {
    const dropdown = [row('L1', 'Depot')];
    fakeServer({
      'POST /bff/locations/location': () => {
        dropdown.push(row('L2', 'Tiefgarage Neu'));
        return { locationId: 'L2', locationName: 'Tiefgarage Neu' };
      },
      'GET /bff/locations/get-by-cpo-for-dropdown': () => dropdown,
      'GET /bff/locations/get-by-cpo': () => ({ totalNumberOfRecords: dropdown.length, response: [] }),
    });
    const client = createQueryClient();
    // The select's list as restored from the device (5 minutes fresh by its staleTime), and a list page in use.
    client.setQueryData(locationKeys.dropdown(), [row('L1', 'Depot')], { updatedAt: SESSION_STARTED_AT - 1_000 });
    await client.fetchQuery(locationListQueryOptions({ locationName: '', address: '', page: 0, size: 10 }));

    await new MutationObserver(client, createLocationMutation()).mutate(body);

    const names = () => client.getQueryData<LocationDropdownRow[]>(locationKeys.dropdown())?.map((l) => l.locationId);
    await vi.waitFor(() => expect(names()).toEqual(['L1', 'L2']));
    const kept = dehydrate(client, { shouldDehydrateQuery: shouldPersistQuery }).queries;
    expect(kept.find((q) => q.queryKey[1] === 'dropdown')?.state.data).toEqual(dropdown);
    await vi.waitFor(() =>
      expect(client.getQueryData(locationListQueryOptions({ locationName: '', address: '', page: 0, size: 10 }).queryKey)).toMatchObject({
        totalNumberOfRecords: 2,
      }),
    );
    client.clear();
  });
});
