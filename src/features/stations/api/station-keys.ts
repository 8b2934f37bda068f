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
 * Query keys of the stations area, the only definition of them (lists and details alike). The root
 * 'stations' is persisted for offline use (src/offline/persister.ts allow-list).
 */
export const stationKeys = {
  all: ['stations'] as const,
  lists: () => [...stationKeys.all, 'list'] as const,
  list: (params: StationListParams) => [...stationKeys.lists(), params] as const,
  details: () => [...stationKeys.all, 'detail'] as const,
  detail: (connectorId: string) => [...stationKeys.details(), connectorId] as const,
};

export const createStationsMutationKey = [...stationKeys.all, 'create'] as const;
