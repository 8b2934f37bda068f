/** Applied date range plus paging of the station's charging history. */
export interface StationHistoryParams {
  connectorId: string;
  startDate: string;
  endDate: string;
  page: number;
  size: number;
}

/**
 * Query keys of the station detail. Rooted at 'stations' (persisted for offline use by
 * src/offline/persister.ts), so writes on stations invalidating ['stations'] refresh this page too.
 */
export const stationDetailKeys = {
  all: ['stations'] as const,
  details: () => [...stationDetailKeys.all, 'detail'] as const,
  detail: (connectorId: string) => [...stationDetailKeys.details(), connectorId] as const,
  history: (params: StationHistoryParams) => [...stationDetailKeys.detail(params.connectorId), 'history', params] as const,
};
