import { afterEach, describe, expect, it, vi } from 'vitest';
import { MutationObserver } from '@tanstack/react-query';
import type { LocationDetail, LocationListRow } from '../../../../contract/locations';
import { createQueryClient } from '../../../api/query-client';
import { fakeServer } from '../../../api/test-server';
import { SESSION_STARTED_AT } from '../../../offline/persister';
import { locationDetailQueryOptions, locationListQueryOptions, updateLocationMutation } from '../../locations/api/location-queries';
import type { StationListRow } from '../../../../contract/stations';
import { createStationsMutation, stationDetailQueryOptions, stationListQueryOptions } from './station-queries';

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

describe('a location edit', () => {
  it('refreshes the station rows and the station page that show its name and address', async () => {
    let name = 'Depot';
    const row = (): StationListRow => ({
      connectorId: 'CP1_1',
      cpId: 'CP1',
      locationId: 'L1',
      locationName: name,
      address: { street: 'Weg 1', zipCode: '01067', city: 'Dresden', parkingLot: 'P1' },
      wallboxModel: 'ABL eMH1',
      connectorStatus: 'IDLE',
      connectorStatusMapping: { enumName: 'IDLE', colourCode: '#2E7D32' },
      onlineSince: null,
      lastHeartBeatInterval: null,
      version: 1,
    });
    fakeServer({
      'PUT /bff/locations/update-location': ({ body }) => {
        name = (body as { locationName: string }).locationName;
        return { locationId: 'L1', locationName: name, version: 2 };
      },
      'GET /bff/connectors/get-by-cpo': () => ({ totalNumberOfRecords: 1, response: [row()] }),
      'GET /bff/connectors/CP1_1': () => ({ ...row(), cpoId: 'CPO1', totalEnergy: 0, totalRevenue: 0 }),
    });
    const client = createQueryClient();
    const params = { cpId: '', addressParkingLot: '', locationIds: [], wallboxModels: [], locationId: '', page: 0, size: 10 };
    await client.fetchQuery(stationListQueryOptions(params));
    await client.fetchQuery(stationDetailQueryOptions('CP1_1'));

    await new MutationObserver(client, updateLocationMutation()).mutate({
      locationId: 'L1',
      locationName: 'Tiefgarage Nord',
      locationAddress: { street: 'Weg 1', zipCode: '01067', city: 'Dresden' },
    });

    await vi.waitFor(() =>
      expect(client.getQueryData(stationListQueryOptions(params).queryKey)?.response[0]?.locationName).toBe('Tiefgarage Nord'),
    );
    await vi.waitFor(() => expect(client.getQueryData(stationDetailQueryOptions('CP1_1').queryKey)?.locationName).toBe('Tiefgarage Nord'));
    client.clear();
  });
});
