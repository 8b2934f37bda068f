import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver } from '@tanstack/react-query';
import type { LocationDetail, LocationListRow } from '../../../../contract/locations';
import { createQueryClient } from '../../../api/query-client';
import { fakeServer } from '../../../api/test-server';
import { SESSION_STARTED_AT } from '../../../offline/persister';
import { locationDetailQueryOptions, locationListQueryOptions } from '../../locations/api/location-queries';
import { createStationsMutation } from './station-queries';

let stations = 2;
const listRow = (): LocationListRow => ({
  locationId: 'L1',
  locationName: 'Depot',
  locationAddress: { street: 'Weg 1', zipCode: '01067', city: 'Dresden' },
  numOfChargingStations: {
    totalNrChargingStation: stations,
    removedNrChargingStation: 0,
    totalNrChargePoints: stations,
    removedNrChargePoints: 0,
  },
  numEndCustomers: 0,
  cpoId: 'CPO1',
  cpoName: 'Stadtwerke',
  locationIdName: 'L1: Depot',
});
const detail = (): LocationDetail => ({
  locationId: 'L1',
  locationName: 'Depot',
  locationAddress: { street: 'Weg 1', zipCode: '01067', city: 'Dresden' },
  cpoId: 'CPO1',
  operatorDetail: { cpoId: 'CPO1', cpoName: 'Stadtwerke', cpoAddress: { street: 'Ring 2', zipCode: '01069', city: 'Dresden' } },
  chargingInfrastructureMetrics: {
    totalChargingStations: stations,
    removedChargingStations: 0,
    totalChargePoints: stations,
    removedChargePoints: 0,
    statusesSummary: {},
  },
  contractMetrics: { totalContractStatuses: 0, statusesSummary: {} },
  isEmsConnected: false,
  emsModel: null,
  requestedInfrastructure: [],
  emsId: null,
  parkingLots: [],
  version: 1,
});
const listParams = { locationName: '', address: '', page: 0, size: 10 };

afterEach(() => vi.unstubAllGlobals());

describe('createStationsMutation', () => {
  it("refreshes the location's station counts: on its page and in the location list", async () => {
    stations = 2;
    fakeServer({
      'POST /bff/connectors/create-cp': ({ body }) => {
        stations += (body as { numOfChargingStations: number }).numOfChargingStations;
        return { id: 'L1', cpIds: ['CP9'], connectorIds: ['CP9_1'] };
      },
      'GET /bff/locations/get-by-cpo': () => ({ totalNumberOfRecords: 1, response: [listRow()] }),
      'GET /bff/locations/L1': detail,
    });
    const client = createQueryClient();
    // The list page in use, and the location's page as restored from the device.
    await client.fetchQuery(locationListQueryOptions(listParams));
    client.setQueryData(locationDetailQueryOptions('L1').queryKey, detail(), { updatedAt: SESSION_STARTED_AT - 1_000 });

    // /stationen: no location page around to refresh anything itself.
    await new MutationObserver(client, createStationsMutation()).mutate({
      locationId: 'L1',
      locationName: 'Depot',
      numOfChargingStations: 3,
      chargingStationModel: 'ABL eMH1',
    });

    const listed = () => client.getQueryData(locationListQueryOptions(listParams).queryKey)?.response[0]?.numOfChargingStations;
    const counted = () => client.getQueryData(locationDetailQueryOptions('L1').queryKey)?.chargingInfrastructureMetrics;
    await vi.waitFor(() => expect(listed()?.totalNrChargingStation).toBe(5));
    await vi.waitFor(() => expect(counted()?.totalChargingStations).toBe(5));
    client.clear();
  });
});
