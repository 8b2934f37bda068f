import type { ChargingHistoryFilter } from '../../../../contract/cockpit';
import type { GraphParams } from '../graph-params';

/** Applied search of the charging-request table (what was last submitted, plus paging). */
export interface HistoryParams {
  transactionId: string;
  endCustomerId: string;
  startDate: string;
  endDate: string;
  /** Sorted; empty means every status. */
  filters: readonly ChargingHistoryFilter[];
  page: number;
  size: number;
}

/**
 * Query keys of the cockpit, hierarchical so a write can invalidate exactly what it touched.
 * Roots 'cockpit' and 'charging-requests' are persisted for offline use (src/offline/persister.ts).
 */
export const cockpitKeys = {
  all: ['cockpit'] as const,
  graphs: () => [...cockpitKeys.all, 'graph'] as const,
  graph: (params: GraphParams) => [...cockpitKeys.graphs(), params] as const,
  locations: () => [...cockpitKeys.all, 'locations'] as const,
};

/** Charging requests are their own area: the user and station pages list them too. */
export const chargingRequestKeys = {
  all: ['charging-requests'] as const,
  histories: () => [...chargingRequestKeys.all, 'history'] as const,
  history: (params: HistoryParams) => [...chargingRequestKeys.histories(), params] as const,
};

export const cleanChargingRequestsMutationKey = [...chargingRequestKeys.all, 'clean'] as const;
