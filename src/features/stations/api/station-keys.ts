import { queryRoot } from '../../../offline/query-roots';

/** Applied filters of the station list (what was last submitted) plus paging. */
export interface StationListParams {
  cpId: string;
  addressParkingLot: string;
  locationIds: readonly string[];
  wallboxModels: readonly string[];
  /** The location page: only this location's connectors. */
  locationId?: string;
  page: number;
  size: number;
}

/**
 * Query keys of the stations area, the only definition of them (lists and details alike), kept on
 * the device for offline use (`persist`, offline/query-roots.ts).
 */
export const stationKeys = {
  all: queryRoot('stations', { persist: true }),
  lists: () => [...stationKeys.all, 'list'] as const,
  list: (params: StationListParams) => [...stationKeys.lists(), params] as const,
  details: () => [...stationKeys.all, 'detail'] as const,
  detail: (connectorId: string) => [...stationKeys.details(), connectorId] as const,
  /** The station's OCPP side as its connector's detail shows it: under the detail, so what refreshes the detail refreshes it. */
  ocpp: (connectorId: string) => [...stationKeys.detail(connectorId), 'ocpp'] as const,
};
