import type { GraphParams } from '../graph-params';

/**
 * Query keys of the cockpit, hierarchical so a write can invalidate exactly what it touched. The
 * root 'cockpit' is persisted for offline use (src/offline/persister.ts). Charging requests are
 * their own keys (src/shared/charging-requests), the location dropdown is the locations area's.
 */
export const cockpitKeys = {
  all: ['cockpit'] as const,
  graphs: () => [...cockpitKeys.all, 'graph'] as const,
  graph: (params: GraphParams) => [...cockpitKeys.graphs(), params] as const,
};
